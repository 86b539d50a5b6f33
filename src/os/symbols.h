/* SPDX-License-Identifier: MIT */
/* Symbol lookup in the loaded executable and shared objects, from their ELF
 * symbol tables (.symtab when present, else .dynsym): names kernels and
 * device variables for the NVIDIA device, sizes __device__ variables for
 * hipGetSymbolSize, and names a faulting kernel. Thread-safe; results live
 * until the process ends. */
#ifndef AH_OS_SYMBOLS_H
#define AH_OS_SYMBOLS_H

#include <stddef.h>

struct ah_symbol {
  const char *name;  /* mangled, as in the object file */
  const void *start; /* run-time address */
  size_t size;       /* st_size */
};

/* Finds the function or object symbol whose range holds addr. Returns 1 on success. */
int ah_symbol_lookup(const void *addr, struct ah_symbol *out);
/* Writes a readable (demangled when possible) name of the symbol at addr into buf. */
const char *ah_symbol_pretty(const void *addr, char *buf, size_t len);

/* Symbols registered by compiled code (symbols_registry.c): hipcc registers
 * each device variable, so that a stripped program still finds them.
 * ah_symbol_lookup consults them first. `name` must live as long as the
 * process (a string literal in the program). Safe before main, any thread. */
void ah_symbol_register(const void *start, size_t size, const char *name);
/* Like ah_symbol_lookup, over the registered symbols only. */
int ah_symbol_registered(const void *addr, struct ah_symbol *out);

#endif
