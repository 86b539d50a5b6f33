/* SPDX-License-Identifier: MIT */
/* Address -> symbol lookup from the ELF symbol tables of the executable and
 * of every loaded shared object. dl_iterate_phdr says which object holds an
 * address and where it is loaded; the object's file is mapped read-only and
 * its .symtab (or .dynsym when stripped) is turned once into an array sorted
 * by run-time address. Objects and their tables stay cached for the life of
 * the process, so the names handed out never move. Not async-signal-safe
 * (it allocates, maps files and may load the C++ demangler): a fault report
 * should name the kernel after leaving the signal handler. */
#define _GNU_SOURCE
#include "symbols.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct sym {
  uintptr_t start;
  size_t size;
  const char *name;
};

/* One loaded object, identified by its load bias and file name. */
struct object {
  uintptr_t bias;
  char *path;
  int loaded;       /* the table below has been built (possibly empty) */
  struct sym *syms; /* sorted by start */
  size_t nsyms;
  struct object *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct object *objects;

/* ---- which object holds an address --------------------------------------- */

struct find_ctx {
  uintptr_t addr;
  int found;
  uintptr_t bias;
  char path[4096];
};

static int find_cb(struct dl_phdr_info *info, size_t size, void *data) {
  struct find_ctx *c = data;

  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

    if (ph->p_type != PT_LOAD || c->addr < lo || c->addr >= lo + ph->p_memsz)
      continue;
    c->found = 1;
    c->bias = info->dlpi_addr;
    /* The main program has an empty name; its file is /proc/self/exe. */
    snprintf(c->path, sizeof(c->path), "%s",
             info->dlpi_name != NULL && info->dlpi_name[0] != '\0' ? info->dlpi_name
                                                                   : "/proc/self/exe");
    return 1;
  }
  return 0;
}

/* ---- reading one object's table ---------------------------------------- */

static int by_start(const void *a, const void *b) {
  const struct sym *x = a, *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  /* At one address, the largest last: search() walks backwards and should meet
   * a sized symbol before a zero-sized alias of it. */
  return (x->size > y->size) - (x->size < y->size);
}

/* Reads section `tab` (SHT_SYMTAB or SHT_DYNSYM) of the mapped file into o.
 * Returns 1 when the section exists. */
static int read_table(struct object *o, const unsigned char *file, size_t len, unsigned tab) {
  const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)file;
  const ElfW(Shdr) *sh;

  if (eh->e_shoff == 0 || eh->e_shentsize != sizeof(ElfW(Shdr)) ||
      eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(ElfW(Shdr)) > len)
    return 0;
  sh = (const ElfW(Shdr) *)(file + eh->e_shoff);
  for (unsigned i = 0; i < eh->e_shnum; i++) {
    const ElfW(Shdr) *strs;
    const ElfW(Sym) *syms;
    size_t n, k = 0;

    if (sh[i].sh_type != tab || sh[i].sh_link >= eh->e_shnum ||
        sh[i].sh_entsize != sizeof(ElfW(Sym)) || sh[i].sh_offset + sh[i].sh_size > len)
      continue;
    strs = &sh[sh[i].sh_link];
    if (strs->sh_offset + strs->sh_size > len)
      continue;
    syms = (const ElfW(Sym) *)(file + sh[i].sh_offset);
    n = sh[i].sh_size / sizeof(ElfW(Sym));
    o->syms = calloc(n ? n : 1, sizeof(*o->syms));
    if (o->syms == NULL)
      return 1;
    for (size_t j = 0; j < n; j++) {
      unsigned type = ELF64_ST_TYPE(syms[j].st_info);

      /* TLS symbols hold offsets, not addresses; undefined ones are elsewhere. */
      if ((type != STT_FUNC && type != STT_OBJECT && type != STT_GNU_IFUNC) ||
          syms[j].st_shndx == SHN_UNDEF || syms[j].st_name >= strs->sh_size)
        continue;
      o->syms[k].start = o->bias + syms[j].st_value;
      o->syms[k].size = syms[j].st_size;
      o->syms[k].name = (const char *)file + strs->sh_offset + syms[j].st_name;
      k++;
    }
    o->nsyms = k;
    qsort(o->syms, k, sizeof(*o->syms), by_start);
    return 1;
  }
  return 0;
}

/* Maps o's file and builds its table. The mapping is kept: names point into it. */
static void load_object(struct object *o) {
  struct stat st;
  unsigned char *file;
  int fd;

  o->loaded = 1;
  fd = open(o->path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return;
  if (fstat(fd, &st) != 0 || (size_t)st.st_size < sizeof(ElfW(Ehdr))) {
    close(fd);
    return;
  }
  file = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (file == MAP_FAILED)
    return;
  if (memcmp(file, ELFMAG, SELFMAG) != 0 ||
      file[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32)) {
    munmap(file, (size_t)st.st_size);
    return;
  }
  if (!read_table(o, file, (size_t)st.st_size, SHT_SYMTAB))
    read_table(o, file, (size_t)st.st_size, SHT_DYNSYM);
  if (o->syms == NULL)
    munmap(file, (size_t)st.st_size);
}

/* Returns the cached object for (bias, path), building it on first use.
 * Called with `lock` held. */
static struct object *get_object(uintptr_t bias, const char *path) {
  struct object *o;

  for (o = objects; o != NULL; o = o->next)
    if (o->bias == bias && strcmp(o->path, path) == 0)
      return o;
  o = calloc(1, sizeof(*o));
  if (o == NULL)
    return NULL;
  o->bias = bias;
  o->path = strdup(path);
  if (o->path == NULL) {
    free(o);
    return NULL;
  }
  load_object(o);
  o->next = objects;
  objects = o;
  return o;
}

/* The symbol of o holding addr: the last one starting at or before addr whose
 * range covers it (a zero-sized symbol covers only its own address). */
static const struct sym *search(const struct object *o, uintptr_t addr) {
  size_t lo = 0, hi = o->nsyms;

  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;

    if (o->syms[mid].start <= addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  /* lo is the first symbol past addr; walk back over symbols starting <= addr.
   * Nested symbols are rare, so a short walk finds the innermost cover. */
  for (size_t i = lo, steps = 0; i > 0 && steps < 64; i--, steps++) {
    const struct sym *s = &o->syms[i - 1];

    if (addr < s->start + s->size || (s->size == 0 && addr == s->start))
      return s;
  }
  return NULL;
}

int ah_symbol_lookup(const void *addr, struct ah_symbol *out) {
  struct find_ctx ctx = {.addr = (uintptr_t)addr};
  const struct sym *s = NULL;
  struct object *o;

  if (addr == NULL)
    return 0;
  if (ah_symbol_registered(addr, out))
    return 1; /* a device variable hipcc registered: found in stripped programs too */
  dl_iterate_phdr(find_cb, &ctx);
  if (!ctx.found)
    return 0;
  pthread_mutex_lock(&lock);
  o = get_object(ctx.bias, ctx.path);
  if (o != NULL)
    s = search(o, (uintptr_t)addr);
  pthread_mutex_unlock(&lock);
  if (s == NULL)
    return 0;
  out->name = s->name;
  out->start = (const void *)s->start;
  out->size = s->size;
  return 1;
}

/* ---- readable names ----------------------------------------------------- */

typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);
static pthread_once_t demangle_once = PTHREAD_ONCE_INIT;
static demangle_fn demangle;

/* libanyhip is C; HIP programs are C++ and usually bring libstdc++ (or
 * libc++abi), whose demangler we borrow. A program that ended up not needing
 * the C++ library (the linker's --as-needed dropped it) gets it loaded here,
 * once, the first time a name is wanted. */
static void find_demangler(void) {
  static const char *const libs[] = {"libstdc++.so.6", "libc++abi.so.1"};
  void *lib;

  *(void **)&demangle = dlsym(RTLD_DEFAULT, "__cxa_demangle");
  for (size_t i = 0; demangle == NULL && i < sizeof(libs) / sizeof(libs[0]); i++) {
    lib = dlopen(libs[i], RTLD_LAZY | RTLD_LOCAL);
    if (lib != NULL)
      *(void **)&demangle = dlsym(lib, "__cxa_demangle");
  }
}

const char *ah_symbol_pretty(const void *addr, char *buf, size_t len) {
  struct ah_symbol s;
  char *pretty = NULL;
  int status = -1;
  size_t off;

  if (len == 0)
    return buf;
  if (!ah_symbol_lookup(addr, &s)) {
    snprintf(buf, len, "%p", addr);
    return buf;
  }
  pthread_once(&demangle_once, find_demangler);
  if (demangle != NULL && s.name[0] == '_' && s.name[1] == 'Z')
    pretty = demangle(s.name, NULL, NULL, &status);
  off = (size_t)((const char *)addr - (const char *)s.start);
  if (off != 0)
    snprintf(buf, len, "%s+0x%zx", status == 0 && pretty ? pretty : s.name, off);
  else
    snprintf(buf, len, "%s", status == 0 && pretty ? pretty : s.name);
  free(pretty);
  return buf;
}
