/* SPDX-License-Identifier: MIT */
/* Registration hooks that hipcc-generated code calls from static
 * initializers, before main and before the runtime is initialized:
 * __ahRegisterVariable records a device variable's address, size and
 * mangled name (src/os/symbols_registry.c), so the symbol functions
 * (hipMemcpyToSymbol, hipGetSymbolAddress, ...) and the NVIDIA device find it
 * without the program's ELF symbol tables; __ahRegisterKernel records a
 * kernel's parameter layout (and its __launch_bounds__). */
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

/* Called from static constructors that hipcc emits, possibly before main and
 * before the runtime is initialized: it only fills the registry. */
AH_EXPORT void __ahRegisterKernel(const void *fn, const ahKernelSig *sig) {
  ah_kernel_register(fn, sig);
}

/* The same for a kernel declared with __launch_bounds__(max_threads, ...). */
AH_EXPORT void __ahRegisterKernelBounds(const void *fn, const ahKernelSig *sig,
                                        unsigned max_threads) {
  ah_kernel_register_bounds(fn, sig, max_threads);
}

/* A kernel whose body hipcc saw empty (`{}`): its launches run no block on
 * the CPU device (nothing a block of it could do is observable). */
AH_EXPORT void __ahRegisterKernelEmpty(const void *fn) {
  ah_kernel_set_empty(fn);
}
