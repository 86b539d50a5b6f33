/* SPDX-License-Identifier: MIT */
/* Initialization and the device table. On first use, every backend named by
 * ANYHIP_DEVICES (default: the order of backends.def, NVIDIA first) is probed,
 * HIP_VISIBLE_DEVICES filters the devices found by index as HIP does, and the
 * survivors are opened and numbered. The current device is per host thread.
 * A device's flags and limits are read and set here, under its lock. */
#include "device_ops.h"
#include "internal.h"
#include "../backends/registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AH_MAX_DEVICES 64

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
/* Written by the fork handler in a child (one thread), read by every entry point. */
static volatile hipError_t init_status = hipSuccess;
static struct ah_device devices[AH_MAX_DEVICES];
static int device_count;
static _Thread_local int current_ordinal;

struct candidate {
  const struct ah_backend *backend;
  int index;
};

/* Appends backend b's devices to list (none when b lacks a required op);
 * returns the new length. */
static int add_backend(const struct ah_backend *b, struct candidate *list, int n) {
  const char *missing = ah_backend_missing(b);
  int count;

  if (missing != NULL) { /* a backend bug: the core would call a NULL op */
    fprintf(stderr, "anyhip: backend %s lacks %s: not used\n", b->name, missing);
    return n;
  }
  count = b->probe();

  AH_LOG(INIT, "backend %s: %d device(s)", b->name, count);
  for (int i = 0; i < count && n < AH_MAX_DEVICES; i++)
    list[n++] = (struct candidate){b, i};
  return n;
}

/* The backends in ANYHIP_DEVICES order (each once), or all in default order. */
static int list_candidates(struct candidate *list) {
  const char *s = ah_config.devices;
  const struct ah_backend *seen[16];
  int nseen = 0, n = 0;

  if (s == NULL) {
    for (size_t i = 0; ah_backend_at(i) != NULL; i++)
      n = add_backend(ah_backend_at(i), list, n);
    return n;
  }
  while (*s != '\0') {
    size_t len = strcspn(s, ",");
    const struct ah_backend *b = ah_backend_find(s, len);
    int dup = 0;

    for (int i = 0; i < nseen; i++)
      dup |= seen[i] == b;
    if (b == NULL)
      fprintf(stderr, "anyhip: ANYHIP_DEVICES: no backend '%.*s' in this build\n", (int)len, s);
    else if (!dup && nseen < 16) {
      seen[nseen++] = b;
      n = add_backend(b, list, n);
    }
    s += len;
    if (*s == ',')
      s++;
  }
  return n;
}

/* HIP_VISIBLE_DEVICES: indices into the candidates; like HIP and CUDA, the
 * list ends at the first entry that is not a valid, unused index. */
static int filter_visible(struct candidate *list, int n) {
  struct candidate kept[AH_MAX_DEVICES];
  int used[AH_MAX_DEVICES] = {0};
  const char *s = ah_config.visible;
  int k = 0;

  if (s == NULL)
    return n;
  while (*s != '\0' && k < n) {
    char *end;
    long idx = strtol(s, &end, 10);

    if (end == s || idx < 0 || idx >= n || used[idx] || (*end != ',' && *end != '\0'))
      break;
    used[idx] = 1;
    kept[k++] = list[idx];
    s = *end == ',' ? end + 1 : end;
  }
  memcpy(list, kept, sizeof(kept[0]) * (size_t)k);
  return k;
}

/* A child forked after initialization has none of the parent's worker,
 * queue or driver threads, and locks they held may stay locked forever:
 * nothing of the runtime can work there. Every entry point of the child
 * returns hipErrorInitializationError instead (docs/semantics.md, "fork").
 * Runs in the child, which has one thread; only a store happens here. */
static void fork_child(void) {
  init_status = hipErrorInitializationError;
}

static void init_body(void) {
  struct candidate list[AH_MAX_DEVICES];
  int n;

  pthread_atfork(NULL, NULL, fork_child);
  ah_config_load();
  n = filter_visible(list, list_candidates(list));
  for (int i = 0; i < n; i++) {
    struct ah_device *dev = &devices[device_count];
    hipError_t err;

    memset(dev, 0, sizeof(*dev));
    dev->ordinal = device_count;
    dev->backend = list[i].backend;
    pthread_mutex_init(&dev->lock, NULL);
    err = dev->backend->device_open(list[i].index, dev);
    if (err != hipSuccess) {
      fprintf(stderr, "anyhip: cannot open %s device %d: %s\n", dev->backend->name,
              list[i].index, ah_error_name(err));
      pthread_mutex_destroy(&dev->lock);
      continue;
    }
    AH_LOG(INIT, "device %d: %s (%s)", device_count, dev->props.name, dev->backend->name);
    device_count++;
  }
  ah_alloc_publish_variables();
}

hipError_t ah_init_once(void) {
  pthread_once(&init_once, init_body);
  return init_status;
}

static int counted(enum ah_mem_kind kind) {
  return kind == AH_MEM_DEVICE || kind == AH_MEM_MANAGED;
}

hipError_t ah_device_mem_alloc(struct ah_device *dev, size_t bytes, enum ah_mem_kind kind,
                               unsigned flags, void **out) {
  size_t total = dev->props.totalGlobalMem;
  size_t used = atomic_load(&dev->mem_used);
  hipError_t err;

  if (counted(kind) && total != 0) {
    do {
      if (bytes > total - used)
        return hipErrorOutOfMemory;
    } while (!atomic_compare_exchange_weak(&dev->mem_used, &used, used + bytes));
  }
  err = dev->backend->mem_alloc(dev, bytes, kind, flags, out);
  if (err != hipSuccess && counted(kind) && total != 0)
    atomic_fetch_sub(&dev->mem_used, bytes);
  return err;
}

hipError_t ah_device_mem_free(struct ah_device *dev, void *ptr, size_t bytes,
                              enum ah_mem_kind kind) {
  hipError_t err = dev->backend->mem_free(dev, ptr, kind);

  if (counted(kind) && dev->props.totalGlobalMem != 0)
    atomic_fetch_sub(&dev->mem_used, bytes);
  return err;
}

int ah_device_count(void) {
  return device_count;
}

struct ah_device *ah_device_get(int ordinal) {
  return ordinal >= 0 && ordinal < device_count ? &devices[ordinal] : NULL;
}

struct ah_device *ah_current_device(void) {
  return ah_device_get(current_ordinal);
}

int ah_current_ordinal(void) {
  return current_ordinal;
}

void ah_set_current_ordinal(int ordinal) {
  current_ordinal = ordinal;
}

hipError_t ah_device_arg(int ordinal, struct ah_device **out) {
  if (ah_device_count() == 0)
    return hipErrorNoDevice;
  *out = ah_device_get(ordinal);
  return *out != NULL ? hipSuccess : hipErrorInvalidDevice;
}

unsigned ah_device_flags(struct ah_device *dev) {
  unsigned flags;

  pthread_mutex_lock(&dev->lock);
  flags = dev->flags;
  pthread_mutex_unlock(&dev->lock);
  return flags;
}

void ah_device_set_flags(struct ah_device *dev, unsigned flags) {
  pthread_mutex_lock(&dev->lock);
  dev->flags = flags;
  pthread_mutex_unlock(&dev->lock);
}

size_t ah_device_limit(struct ah_device *dev, hipLimit_t limit) {
  size_t v;

  pthread_mutex_lock(&dev->lock);
  v = dev->limits[limit];
  pthread_mutex_unlock(&dev->lock);
  return v;
}

hipError_t ah_device_set_limit(struct ah_device *dev, hipLimit_t limit, size_t value) {
  hipError_t err;

  pthread_mutex_lock(&dev->lock);
  err = ah_dev_set_limit(dev, limit, value);
  if (err == hipSuccess)
    dev->limits[limit] = value;
  pthread_mutex_unlock(&dev->lock);
  return err;
}

hipError_t ah_device_props(hipDeviceProp_t *prop, int deviceId) {
  struct ah_device *dev;
  hipError_t err;

  if (prop == NULL)
    return hipErrorInvalidValue;
  err = ah_device_arg(deviceId, &dev);
  if (err == hipSuccess) {
    *prop = dev->props;
    prop->memoryPoolsSupported = 1; /* the core's stream-ordered allocator, on any backend */
  }
  return err;
}

/* Scores each device by how many of the requested (nonzero) properties it
 * meets or exceeds, and picks the best; ties go to the lowest ordinal. */
hipError_t ah_device_choose(int *device, const hipDeviceProp_t *prop) {
  int best = 0, best_score = -1;

  if (device == NULL || prop == NULL)
    return hipErrorInvalidValue;
  if (ah_device_count() == 0)
    return hipErrorNoDevice;
  for (int i = 0; i < ah_device_count(); i++) {
    const hipDeviceProp_t *p = &ah_device_get(i)->props;
    int score = 0;

#define AH_AT_LEAST(f) score += prop->f != 0 && p->f >= prop->f
    AH_AT_LEAST(major);
    AH_AT_LEAST(totalGlobalMem);
    AH_AT_LEAST(sharedMemPerBlock);
    AH_AT_LEAST(regsPerBlock);
    AH_AT_LEAST(maxThreadsPerBlock);
    AH_AT_LEAST(totalConstMem);
    AH_AT_LEAST(multiProcessorCount);
    AH_AT_LEAST(maxThreadsPerMultiProcessor);
    AH_AT_LEAST(clockRate);
    AH_AT_LEAST(memoryClockRate);
    AH_AT_LEAST(memoryBusWidth);
    AH_AT_LEAST(l2CacheSize);
    AH_AT_LEAST(managedMemory);
    AH_AT_LEAST(cooperativeLaunch);
    AH_AT_LEAST(concurrentKernels);
    AH_AT_LEAST(canMapHostMemory);
    AH_AT_LEAST(integrated);
#undef AH_AT_LEAST
    score += prop->major != 0 && p->major == prop->major && p->minor >= prop->minor;
    score += prop->warpSize != 0 && p->warpSize == prop->warpSize;
    score += prop->name[0] != '\0' && strstr(p->name, prop->name) != NULL;
    score += prop->gcnArchName[0] != '\0' && strcmp(p->gcnArchName, prop->gcnArchName) == 0;
    if (score > best_score) {
      best = i;
      best_score = score;
    }
  }
  *device = best;
  return hipSuccess;
}
