#include <hip/hip_runtime_api.h>
int ah_header_compiles_as_cxx() { return hipSuccess; }
