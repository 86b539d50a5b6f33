#include <hip/hip_runtime_api.h>
int ah_header_compiles_as_c(void) { return hipSuccess; }
