/* SPDX-License-Identifier: MIT */
/* Streams and events as the core sees them: the objects behind hipStream_t
 * and hipEvent_t, each owning one backend queue or event. Destroyed objects
 * are kept (magic cleared) and reused only after many others, so a stale
 * handle is refused by ah_object_cast without ever reading freed memory.
 * hipStreamPerThread is a blocking stream per host thread and device, made on
 * first use and destroyed when the thread exits. Live events are listed so
 * that hipDeviceReset can destroy those of its device, as HIP does. */
#include "stream.h"

#include <stdlib.h>
#include <string.h>

_Thread_local int ah_in_host_fn;

/* HIP 6 names the legacy null stream explicitly; older headers lack it. */
#ifdef hipStreamLegacy
#define AH_STREAM_LEGACY hipStreamLegacy
#else
#define AH_STREAM_LEGACY ((hipStream_t)1)
#endif

/* A destroyed object is reused only once this many others died after it. */
#define AH_GRAVE_KEEP 64

/* A FIFO of destroyed objects of one type, oldest first. */
struct grave_link {
  struct grave_link *next;
};
struct grave {
  struct grave_link *head, *tail;
  unsigned n;
  size_t size, link_offset; /* the object's size and where its link sits */
};

struct stream_obj {
  struct ah_stream s; /* first: the handle points here */
  uint64_t id;        /* unique per creation; tells a reused object from the old one */
  struct grave_link grave;
};

struct event_obj {
  struct ah_event e;
  struct grave_link grave;
  struct event_obj *live_prev, *live_next; /* in live_events while the user holds it */
  int live;
};

static pthread_mutex_t grave_lock = PTHREAD_MUTEX_INITIALIZER;
static struct grave stream_grave = {.size = sizeof(struct stream_obj),
                                    .link_offset = offsetof(struct stream_obj, grave)};
static struct grave event_grave = {.size = sizeof(struct event_obj),
                                   .link_offset = offsetof(struct event_obj, grave)};
static atomic_uint_fast64_t next_stream_id = 1;

/* Every live event, for hipDeviceReset. A leaf lock: nothing is taken under it. */
static pthread_mutex_t events_lock = PTHREAD_MUTEX_INITIALIZER;
static struct event_obj *live_events;

/* A zeroed object: the oldest of g once enough died after it, else new memory. */
static void *grave_take(struct grave *g) {
  struct grave_link *l = NULL;
  void *o;

  pthread_mutex_lock(&grave_lock);
  if (g->n > AH_GRAVE_KEEP) {
    l = g->head;
    g->head = l->next;
    if (g->head == NULL)
      g->tail = NULL;
    g->n--;
  }
  pthread_mutex_unlock(&grave_lock);
  o = l != NULL ? (char *)l - g->link_offset : malloc(g->size);
  if (o != NULL)
    memset(o, 0, g->size);
  return o;
}

static void grave_put(struct grave *g, void *o) {
  struct grave_link *l = (struct grave_link *)((char *)o + g->link_offset);

  pthread_mutex_lock(&grave_lock);
  l->next = NULL;
  if (g->tail != NULL)
    g->tail->next = l;
  else
    g->head = l;
  g->tail = l;
  g->n++;
  pthread_mutex_unlock(&grave_lock);
}

/* ---- streams ---- */

hipError_t ah_stream_create(struct ah_device *dev, unsigned flags, int priority,
                            struct ah_stream **out) {
  struct stream_obj *o = grave_take(&stream_grave);
  hipError_t err;

  if (o == NULL)
    return hipErrorOutOfMemory;
  o->s.dev = dev;
  o->s.flags = flags;
  o->s.priority = priority;
  err = dev->backend->queue_create(dev, flags, priority, &o->s.queue);
  if (err != hipSuccess) {
    grave_put(&stream_grave, o);
    return err;
  }
  o->id = atomic_fetch_add(&next_stream_id, 1);
  err = ah_object_init(&o->s.obj, AH_KIND_STREAM);
  if (err != hipSuccess) {
    dev->backend->queue_destroy(dev, o->s.queue);
    grave_put(&stream_grave, o);
    return err;
  }
  pthread_mutex_lock(&dev->lock);
  o->s.next = dev->streams;
  dev->streams = &o->s;
  pthread_mutex_unlock(&dev->lock);
  *out = &o->s;
  return hipSuccess;
}

/* Clears the handle and hands the queue back; s must be unlinked already. */
static void stream_release(struct ah_stream *s) {
  struct ah_device *dev = s->dev;
  struct ah_queue *q = s->queue;

  ah_object_fini(&s->obj);
  s->queue = NULL;
  free(s->cu_mask);
  s->cu_mask = NULL;
  dev->backend->queue_destroy(dev, q);
  grave_put(&stream_grave, s);
}

uint32_t ah_cu_mask_words(const struct ah_device *dev) {
  return (uint32_t)((dev->props.multiProcessorCount + 31) / 32);
}

/* The mask of every compute unit of dev, in words[0..ah_cu_mask_words). */
static void full_mask(const struct ah_device *dev, uint32_t *words) {
  int n = dev->props.multiProcessorCount;

  for (uint32_t w = 0; w < ah_cu_mask_words(dev); w++)
    words[w] = n - 32 * (int)w >= 32 ? 0xffffffffu : (1u << (n - 32 * w)) - 1;
}

/* AMD's rules; hip-tests' hipStreamWithCUMask checks both. */
hipError_t ah_stream_create_cu_mask(struct ah_device *dev, const uint32_t *mask, uint32_t words,
                                    hipStream_t *out) {
  uint32_t n = ah_cu_mask_words(dev), any = 0, *m;
  struct ah_stream *s;
  hipError_t err;

  m = calloc(n > 0 ? n : 1, sizeof(*m));
  if (m == NULL)
    return hipErrorOutOfMemory;
  full_mask(dev, m);
  for (uint32_t w = 0; w < n; w++) {
    m[w] &= w < words ? mask[w] : 0;
    any |= m[w];
  }
  if (any == 0)
    full_mask(dev, m);
  if ((err = ah_stream_create(dev, hipStreamDefault, 0, &s)) != hipSuccess) {
    free(m);
    return err;
  }
  s->cu_mask = m;
  s->cu_mask_words = n;
  *out = (hipStream_t)s;
  return hipSuccess;
}

void ah_stream_get_cu_mask(const struct ah_stream *s, const struct ah_device *dev, uint32_t *out,
                           uint32_t words) {
  memset(out, 0, words * sizeof(*out));
  if (s != NULL && s->cu_mask != NULL)
    memcpy(out, s->cu_mask, s->cu_mask_words * sizeof(*out));
  else
    full_mask(dev, out);
}

hipError_t ah_stream_destroy(struct ah_stream *s) {
  struct ah_device *dev = s->dev;
  struct ah_stream **pp;

  pthread_mutex_lock(&dev->lock);
  for (pp = &dev->streams; *pp != NULL && *pp != s; pp = &(*pp)->next)
    ;
  if (*pp == NULL) {
    /* Another thread destroyed it first. */
    pthread_mutex_unlock(&dev->lock);
    return hipErrorContextIsDestroyed;
  }
  *pp = s->next;
  pthread_mutex_unlock(&dev->lock);
  stream_release(s);
  return hipSuccess;
}

void ah_streams_destroy_all(struct ah_device *dev) {
  struct ah_stream *list;

  pthread_mutex_lock(&dev->lock);
  list = dev->streams;
  dev->streams = NULL;
  pthread_mutex_unlock(&dev->lock);
  while (list != NULL) {
    struct ah_stream *next = list->next;

    stream_release(list);
    list = next;
  }
}

/* ---- the per-thread default stream ---- */

struct pt_slot {
  struct stream_obj *o;
  uint64_t id;
};

static pthread_key_t pt_key;
static pthread_once_t pt_once = PTHREAD_ONCE_INIT;
static _Thread_local struct pt_slot *pt_slots; /* one per device ordinal */

static int slot_live(const struct pt_slot *sl) {
  return sl->o != NULL && ah_object_cast(&sl->o->s, AH_KIND_STREAM) != NULL && sl->o->id == sl->id;
}

/* At thread exit: the thread's streams go, their queued work still runs. */
static void pt_exit(void *p) {
  struct pt_slot *slots = p;
  int n = ah_device_count();

  for (int i = 0; i < n; i++)
    if (slot_live(&slots[i]))
      ah_stream_destroy(&slots[i].o->s);
  free(slots);
}

static void pt_key_init(void) {
  pthread_key_create(&pt_key, pt_exit);
}

static hipError_t per_thread_stream(struct ah_stream **out) {
  struct ah_device *dev = ah_current_device();
  struct pt_slot *sl;
  struct ah_stream *s;
  hipError_t err;

  if (dev == NULL)
    return hipErrorNoDevice;
  if (pt_slots == NULL) {
    pthread_once(&pt_once, pt_key_init);
    pt_slots = calloc((size_t)ah_device_count(), sizeof(*pt_slots));
    if (pt_slots == NULL)
      return hipErrorOutOfMemory;
    pthread_setspecific(pt_key, pt_slots);
  }
  sl = &pt_slots[dev->ordinal];
  if (!slot_live(sl)) {
    /* First use, or hipDeviceReset destroyed it: make a new one. */
    err = ah_stream_create(dev, hipStreamDefault, 0, &s);
    if (err != hipSuccess)
      return err;
    sl->o = (struct stream_obj *)s;
    sl->id = sl->o->id;
  }
  *out = &sl->o->s;
  return hipSuccess;
}

hipError_t ah_stream_lookup(hipStream_t h, struct ah_stream **out) {
  struct ah_stream *s;

  if (h == NULL || h == AH_STREAM_LEGACY) {
    *out = NULL;
    return hipSuccess;
  }
  if (h == hipStreamPerThread)
    return per_thread_stream(out);
  s = ah_object_cast(h, AH_KIND_STREAM);
  if (s == NULL || ah_device_get(s->dev->ordinal) != s->dev)
    return hipErrorContextIsDestroyed;
  *out = s;
  return hipSuccess;
}

hipError_t ah_stream_resolve(hipStream_t h, struct ah_device **dev, struct ah_queue **queue) {
  struct ah_stream *s;
  hipError_t err = ah_stream_lookup(h, &s);

  if (err != hipSuccess)
    return err;
  if (s != NULL) {
    *dev = s->dev;
    *queue = s->queue;
    return hipSuccess;
  }
  *dev = ah_current_device();
  if (*dev == NULL)
    return hipErrorNoDevice;
  *queue = (*dev)->null_queue;
  return hipSuccess;
}

/* ---- events ---- */

/* Makes the core event around impl (a backend event made by the caller, or
 * NULL to make one). */
static hipError_t event_make(struct ah_device *dev, unsigned flags, struct ah_dev_event *impl,
                             struct ah_event **out) {
  struct event_obj *o = grave_take(&event_grave);
  hipError_t err;

  if (o == NULL)
    return hipErrorOutOfMemory;
  o->e.dev = dev;
  o->e.flags = flags;
  o->e.impl = impl;
  err = impl != NULL ? hipSuccess : dev->backend->event_create(dev, flags, &o->e.impl);
  if (err != hipSuccess) {
    grave_put(&event_grave, o);
    return err;
  }
  err = ah_object_init(&o->e.obj, AH_KIND_EVENT);
  if (err != hipSuccess) {
    if (impl == NULL)
      dev->backend->event_destroy(dev, o->e.impl);
    grave_put(&event_grave, o);
    return err;
  }
  pthread_mutex_lock(&events_lock);
  o->live = 1;
  o->live_prev = NULL;
  o->live_next = live_events;
  if (live_events != NULL)
    live_events->live_prev = o;
  live_events = o;
  pthread_mutex_unlock(&events_lock);
  *out = &o->e;
  return hipSuccess;
}

hipError_t ah_event_create(struct ah_device *dev, unsigned flags, struct ah_event **out) {
  return event_make(dev, flags, NULL, out);
}

hipError_t ah_event_adopt(struct ah_device *dev, unsigned flags, struct ah_dev_event *impl,
                          hipEvent_t *out) {
  struct ah_event *e;
  hipError_t err = event_make(dev, flags, impl, &e);

  if (err == hipSuccess)
    *out = (hipEvent_t)e;
  else
    dev->backend->event_destroy(dev, impl);
  return err;
}

/* events_lock held. */
static void event_unlink(struct event_obj *o) {
  if (o->live_prev != NULL)
    o->live_prev->live_next = o->live_next;
  else
    live_events = o->live_next;
  if (o->live_next != NULL)
    o->live_next->live_prev = o->live_prev;
  o->live_prev = o->live_next = NULL;
  o->live = 0;
}

/* Clears the handle and hands the backend event back; o is unlinked. */
static void event_release(struct event_obj *o) {
  struct ah_device *dev = o->e.dev;
  struct ah_dev_event *impl = o->e.impl;

  ah_object_fini(&o->e.obj);
  o->e.impl = NULL;
  ah_ipc_event_release(&o->e);
  dev->backend->event_destroy(dev, impl);
  grave_put(&event_grave, o);
}

hipError_t ah_event_destroy(struct ah_event *e) {
  struct event_obj *o = (struct event_obj *)e;

  pthread_mutex_lock(&events_lock);
  if (!o->live) {
    /* Another thread (or hipDeviceReset) destroyed it first. */
    pthread_mutex_unlock(&events_lock);
    return hipErrorContextIsDestroyed;
  }
  event_unlink(o);
  pthread_mutex_unlock(&events_lock);
  event_release(o);
  return hipSuccess;
}

void ah_events_destroy_all(struct ah_device *dev) {
  struct event_obj *list = NULL, *o, *next;

  pthread_mutex_lock(&events_lock);
  for (o = live_events; o != NULL; o = next) {
    next = o->live_next;
    if (o->e.dev != dev)
      continue;
    event_unlink(o);
    o->live_next = list;
    list = o;
  }
  pthread_mutex_unlock(&events_lock);
  for (o = list; o != NULL; o = next) {
    next = o->live_next;
    o->live_next = NULL;
    event_release(o);
  }
}

struct ah_event *ah_event_lookup(hipEvent_t h) {
  return ah_object_cast(h, AH_KIND_EVENT);
}
