/* SPDX-License-Identifier: MIT */
/* Registration hooks that hipcc-generated code calls from static
 * initializers, before main and before the runtime is initialized:
 * __ahRegisterVariable records a device variable's address, size and
 * mangled name (src/os/symbols_registry.c), so the symbol functions
 * (hipMemcpyToSymbol, hipGetSymbolAddress, ...) and the NVIDIA device find it
 * without the program's ELF symbol tables. Kernels register through
 * __ahRegisterKernel (hip_launch.c). */
#include "../core/internal.h"
#include "../os/symbols.h"

AH_EXPORT void __ahRegisterVariable(const void *var, size_t size, const char *name) {
  ah_symbol_register(var, size, name);
}

/* A __managed__ variable: a symbol, and managed memory (core/alloc.c). */
AH_EXPORT void __ahRegisterManagedVariable(const void *var, size_t size, const char *name) {
  ah_symbol_register(var, size, name);
  ah_alloc_note_variable(var, size);
}
