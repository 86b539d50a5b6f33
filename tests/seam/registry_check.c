/* SPDX-License-Identifier: MIT */
/* The backend seam's registration check (src/backends/registry.c,
 * ah_backend_missing) against made-up backend tables: a table with every
 * required op passes, one without any single required op is refused naming
 * that op, and optional ops that only work together are refused when only
 * some are set. The independent reference is AH_BACKEND_REQUIRED's list,
 * spelled out again here. Compiled with registry.c alone (no runtime). */
#include "registry.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Never called: only its address fills the ops (void (*)(void) is C's
 * generic function pointer type, cast to each op's). */
static void dummy(void) {
}

/* The made-up table registry.c finds as the build's one backend. */
struct ah_backend ah_backend_cpu;

#define SET(b, op) ((b).op = (__typeof__((b).op))dummy)

static void fill_required(struct ah_backend *b) {
  memset(b, 0, sizeof(*b));
  b->name = "cpu";
  SET(*b, probe);
  SET(*b, device_open);
  SET(*b, device_sync);
  SET(*b, mem_alloc);
  SET(*b, mem_free);
  SET(*b, queue_create);
  SET(*b, queue_destroy);
  SET(*b, submit);
  SET(*b, queue_sync);
  SET(*b, queue_query);
  SET(*b, event_create);
  SET(*b, event_destroy);
  SET(*b, event_record);
  SET(*b, event_query);
  SET(*b, event_sync);
  SET(*b, event_elapsed);
  SET(*b, queue_wait_event);
}

static int failures;

static void expect(const char *what, const char *got, const char *want) {
  if ((got == NULL) != (want == NULL) || (got != NULL && strcmp(got, want) != 0)) {
    fprintf(stderr, "FAIL %s: got %s, want %s\n", what, got ? got : "NULL", want ? want : "NULL");
    failures++;
  }
}

/* The required ops, by name and place in the table. */
#define R(op)                                                                                      \
  { #op, offsetof(struct ah_backend, op) }
static const struct {
  const char *name;
  size_t offset;
} required[] = {
    R(probe),         R(device_open),      R(device_sync),  R(mem_alloc),   R(mem_free),
    R(queue_create),  R(queue_destroy),    R(submit),       R(queue_sync),  R(queue_query),
    R(event_create),  R(event_destroy),    R(event_record), R(event_query), R(event_sync),
    R(event_elapsed), R(queue_wait_event),
};
#undef R

int main(void) {
  const size_t nrequired = sizeof(required) / sizeof(required[0]);
  struct ah_backend *b = &ah_backend_cpu;
  void (*none)(void) = NULL;

  fill_required(b);
  expect("complete table", ah_backend_missing(b), NULL);
  expect("lookup by name", ah_backend_find("cpu", 3) == b ? NULL : "not found", NULL);

  /* Each required op missing in turn is named (the table's other ops set). */
  for (size_t i = 0; i < nrequired; i++) {
    fill_required(b);
    memcpy((char *)b + required[i].offset, &none, sizeof(none));
    expect(required[i].name, ah_backend_missing(b), required[i].name);
  }

  /* Optional ops: any one alone is fine, except those that go together. */
  fill_required(b);
  SET(*b, mem_info);
  SET(*b, occupancy);
  SET(*b, graph_set_kernel);
  expect("independent optional ops", ah_backend_missing(b), NULL);
  SET(*b, ipc_mem_export);
  SET(*b, ipc_mem_open);
  expect("ipc_mem without close", ah_backend_missing(b),
         "ipc_mem_export, ipc_mem_open and ipc_mem_close together");
  SET(*b, ipc_mem_close);
  expect("ipc_mem trio", ah_backend_missing(b), NULL);
  SET(*b, ipc_event_open);
  expect("ipc_event_open alone", ah_backend_missing(b),
         "ipc_event_export and ipc_event_open together");
  SET(*b, ipc_event_export);
  SET(*b, graph_build);
  SET(*b, graph_launch);
  expect("graph_build without graph_destroy", ah_backend_missing(b),
         "graph_launch and graph_destroy with graph_build");
  SET(*b, graph_destroy);
  expect("ipc and graph ops", ah_backend_missing(b), NULL);
  SET(*b, array_create);
  expect("array_create without array_destroy", ah_backend_missing(b),
         "array_create and array_destroy together");
  SET(*b, array_destroy);
  expect("array pair", ah_backend_missing(b), NULL);
  SET(*b, mipmap_create);
  SET(*b, mipmap_level);
  expect("mipmaps without mipmap_destroy", ah_backend_missing(b),
         "mipmap_create, mipmap_level and mipmap_destroy together, with array_create");
  SET(*b, mipmap_destroy);
  expect("mipmap trio", ah_backend_missing(b), NULL);
  SET(*b, texture_create);
  SET(*b, texture_destroy);
  SET(*b, surface_create);
  expect("textures without surface_destroy", ah_backend_missing(b),
         "texture_create, texture_destroy, surface_create and surface_destroy together, "
         "with array_create");
  SET(*b, surface_destroy);
  expect("array and texture ops", ah_backend_missing(b), NULL);
  SET(*b, vmm_create);
  expect("vmm_create alone", ah_backend_missing(b), "the vmm_* ops together");
#define AH_VMM_SET(op) SET(*b, op);
  AH_BACKEND_VMM(AH_VMM_SET)
#undef AH_VMM_SET
  expect("vmm ops", ah_backend_missing(b), NULL);
  SET(*b, pool_export);
  expect("pool_export alone", ah_backend_missing(b), "the pool_* ops together");
#define AH_POOL_SET(op) SET(*b, op);
  AH_BACKEND_POOL(AH_POOL_SET)
#undef AH_POOL_SET
  expect("pool ops", ah_backend_missing(b), NULL);
  SET(*b, ext_sem_wait);
  expect("ext_sem_wait alone", ah_backend_missing(b), "the ext_* ops together");
#define AH_EXT_SET(op) SET(*b, op);
  AH_BACKEND_EXTERNAL(AH_EXT_SET)
#undef AH_EXT_SET
  expect("every op", ah_backend_missing(b), NULL);
  /* Mipmaps and texture objects of the device's own need its own arrays. */
  memcpy(&b->array_create, &none, sizeof(none));
  memcpy(&b->array_destroy, &none, sizeof(none));
  expect("mipmaps without arrays", ah_backend_missing(b),
         "mipmap_create, mipmap_level and mipmap_destroy together, with array_create");
  memcpy(&b->mipmap_create, &none, sizeof(none));
  memcpy(&b->mipmap_level, &none, sizeof(none));
  memcpy(&b->mipmap_destroy, &none, sizeof(none));
  expect("texture objects without arrays", ah_backend_missing(b),
         "texture_create, texture_destroy, surface_create and surface_destroy together, "
         "with array_create");

  if (failures == 0)
    printf("backend registration check: %zu required ops, each refused when missing\n", nrequired);
  return failures != 0;
}
