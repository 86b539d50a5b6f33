/* SPDX-License-Identifier: MIT */
/* A device's reset (hipDeviceReset's work) and peer access between devices:
 * which device may reach which, and the grants hipDeviceEnablePeerAccess
 * made. No argument checks of the entry points here: src/api/hip_device.c. */
#include "device_ops.h"
#include "graph.h"
#include "stream.h"

/* peer_on[d] has bit p set when device d enabled access to device p. Devices
 * are numbered below 64 (the core's table size). */
#define AH_PEER_MAX 64
static uint64_t peer_on[AH_PEER_MAX];
static pthread_mutex_t peer_lock = PTHREAD_MUTEX_INITIALIZER;

/* Devices of one backend reach each other (the CPU's virtual devices share
 * one address space); a backend may say otherwise. Devices of different
 * backends never do. */
int ah_peer_can_access(struct ah_device *dev, struct ah_device *peer) {
  if (dev == peer || dev->backend != peer->backend || dev->ordinal >= AH_PEER_MAX ||
      peer->ordinal >= AH_PEER_MAX)
    return 0;
  return ah_dev_can_access_peer(dev, peer);
}

hipError_t ah_peer_enable(struct ah_device *dev, struct ah_device *peer) {
  uint64_t bit = (uint64_t)1 << peer->ordinal;
  hipError_t err;

  pthread_mutex_lock(&peer_lock);
  if (peer_on[dev->ordinal] & bit)
    err = hipErrorPeerAccessAlreadyEnabled;
  else
    err = ah_dev_peer_enable(dev, peer, 1);
  if (err == hipSuccess)
    peer_on[dev->ordinal] |= bit;
  pthread_mutex_unlock(&peer_lock);
  return err;
}

hipError_t ah_peer_disable(struct ah_device *dev, struct ah_device *peer) {
  uint64_t bit;
  hipError_t err;

  if (peer == dev || peer->ordinal >= AH_PEER_MAX)
    return hipErrorPeerAccessNotEnabled;
  bit = (uint64_t)1 << peer->ordinal;
  pthread_mutex_lock(&peer_lock);
  if (dev->ordinal >= AH_PEER_MAX || !(peer_on[dev->ordinal] & bit))
    err = hipErrorPeerAccessNotEnabled;
  else
    err = ah_dev_peer_enable(dev, peer, 0);
  if (err == hipSuccess)
    peer_on[dev->ordinal] &= ~bit;
  pthread_mutex_unlock(&peer_lock);
  return err;
}

/* dev's own grants go, and so do grants to dev. */
static void peer_forget(struct ah_device *dev) {
  if (dev->ordinal >= AH_PEER_MAX)
    return;
  pthread_mutex_lock(&peer_lock);
  peer_on[dev->ordinal] = 0;
  for (int i = 0; i < AH_PEER_MAX; i++)
    peer_on[i] &= ~((uint64_t)1 << dev->ordinal);
  pthread_mutex_unlock(&peer_lock);
}

hipError_t ah_device_reset(struct ah_device *dev) {
  hipError_t err;

  /* Other threads may be using what is freed below: wait until none is
   * inside the runtime, and keep new calls out until the reset is done. */
  ah_gate_close();
  ah_capture_drop_device(dev); /* captures of its streams end, their graphs discarded */
  (void)ah_dev_sync(dev);      /* a sticky fault is what reset clears */
  ah_streams_destroy_all(dev);
  ah_events_destroy_all(dev);
  ah_mempool_reset_device(dev); /* before the map: pool blocks are the pools' to free */
  ah_alloc_remove_device(dev, NULL);
  peer_forget(dev);
  pthread_mutex_lock(&dev->lock);
  dev->flags = 0;
  pthread_mutex_unlock(&dev->lock);
  err = ah_dev_reset(dev);
  ah_gate_open();
  return err;
}
