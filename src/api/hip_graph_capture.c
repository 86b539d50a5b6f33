/* SPDX-License-Identifier: MIT */
/* HIP's stream capture entry points: beginning and ending a capture, the
 * calling thread's capture mode, what a capture holds, and changing the
 * nodes the next captured operation depends on. The capture itself (work
 * queued on a capturing stream becoming nodes) is in src/core/capture.c. */
#include "../core/graph.h"
#include "../core/stream.h"

#include <stdlib.h>
#include <string.h>

AH_EXPORT hipError_t hipStreamBeginCapture(hipStream_t stream, hipStreamCaptureMode mode) {
  struct ah_stream *s;

  AH_ENTER();
  AH_REQUIRE((unsigned)mode <= (unsigned)hipStreamCaptureModeRelaxed, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_stream_lookup(stream, &s));
  /* The null stream synchronizes with others: it cannot be captured. */
  AH_REQUIRE(s != NULL, hipErrorStreamCaptureUnsupported);
  AH_RETURN(ah_capture_begin(s->dev, s->queue, mode, NULL, NULL, 0));
}

/* Captures into an existing graph, after `dependencies` (nodes of it). Edge
 * data, if given, must be the default (all zero): edge types and ports are
 * for launches that anyhip does not have. */
AH_EXPORT hipError_t hipStreamBeginCaptureToGraph(hipStream_t stream, hipGraph_t graph,
                                                  const hipGraphNode_t *dependencies,
                                                  const hipGraphEdgeData *dependencyData,
                                                  size_t numDependencies,
                                                  hipStreamCaptureMode mode) {
  static const hipGraphEdgeData zero;
  struct ah_gnode **deps;
  struct ah_stream *s;
  struct ah_graph *g;
  hipError_t err;

  AH_ENTER();
  AH_REQUIRE((unsigned)mode <= (unsigned)hipStreamCaptureModeRelaxed, hipErrorInvalidValue);
  g = ah_graph_lookup(graph);
  AH_REQUIRE(g != NULL, hipErrorInvalidValue);
  for (size_t i = 0; dependencyData != NULL && i < numDependencies; i++)
    AH_REQUIRE(memcmp(&dependencyData[i], &zero, sizeof(zero)) == 0, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_stream_lookup(stream, &s));
  AH_REQUIRE(s != NULL, hipErrorStreamCaptureUnsupported);
  AH_REQUIRE_OK(ah_graph_resolve(g, dependencies, numDependencies, &deps));
  err = ah_capture_begin(s->dev, s->queue, mode, g, deps, numDependencies);
  free(deps);
  AH_RETURN(err);
}

/* The calling thread's mode for calls that are unsafe during capture:
 * Global (the default) is stopped by any Global capture, ThreadLocal only by
 * its own captures, Relaxed never. *mode gets the previous mode. */
AH_EXPORT hipError_t hipThreadExchangeStreamCaptureMode(hipStreamCaptureMode *mode) {
  AH_ENTER();
  AH_REQUIRE(mode != NULL, hipErrorInvalidValue);
  AH_REQUIRE((unsigned)*mode <= (unsigned)hipStreamCaptureModeRelaxed, hipErrorInvalidValue);
  *mode = ah_capture_exchange_mode(*mode);
  return hipSuccess;
}

AH_EXPORT hipError_t hipStreamEndCapture(hipStream_t stream, hipGraph_t *pGraph) {
  struct ah_graph *g;
  struct ah_stream *s;

  AH_ENTER();
  AH_REQUIRE(pGraph != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_stream_lookup(stream, &s));
  AH_REQUIRE(s != NULL, hipErrorIllegalState); /* the null stream never captures */
  *pGraph = NULL;
  AH_REQUIRE_OK(ah_capture_end(s->queue, &g));
  *pGraph = (hipGraph_t)g;
  return hipSuccess;
}

static hipError_t capture_info(hipStream_t stream, hipStreamCaptureStatus *status,
                               unsigned long long *id, hipGraph_t *graph,
                               const hipGraphNode_t **deps, size_t *ndeps) {
  struct ah_device *dev;
  struct ah_graph *g = NULL;
  struct ah_queue *q;
  hipError_t err;

  if (status == NULL)
    return hipErrorInvalidValue;
  err = ah_stream_resolve(stream, &dev, &q);
  if (err != hipSuccess)
    return err;
  err = ah_capture_info(dev, q, status, id, &g, (struct ah_gnode *const **)deps, ndeps);
  if (err == hipSuccess && graph != NULL && *status != hipStreamCaptureStatusNone)
    *graph = (hipGraph_t)g;
  return err;
}

AH_EXPORT hipError_t hipStreamIsCapturing(hipStream_t stream,
                                          hipStreamCaptureStatus *pCaptureStatus) {
  AH_ENTER();
  AH_RETURN(capture_info(stream, pCaptureStatus, NULL, NULL, NULL, NULL));
}

AH_EXPORT hipError_t hipStreamGetCaptureInfo(hipStream_t stream,
                                             hipStreamCaptureStatus *pCaptureStatus,
                                             unsigned long long *pId) {
  AH_ENTER();
  AH_RETURN(capture_info(stream, pCaptureStatus, pId, NULL, NULL, NULL));
}

AH_EXPORT hipError_t hipStreamGetCaptureInfo_v2(hipStream_t stream,
                                                hipStreamCaptureStatus *captureStatus_out,
                                                unsigned long long *id_out, hipGraph_t *graph_out,
                                                const hipGraphNode_t **dependencies_out,
                                                size_t *numDependencies_out) {
  AH_ENTER();
  AH_RETURN(capture_info(stream, captureStatus_out, id_out, graph_out, dependencies_out,
                         numDependencies_out));
}


/* The nodes the stream's next captured operation will depend on become
 * `dependencies` (hipStreamSetCaptureDependencies) or gain them
 * (hipStreamAddCaptureDependencies); each must be a node of the capture's
 * graph. */
AH_EXPORT hipError_t hipStreamUpdateCaptureDependencies(hipStream_t stream,
                                                        hipGraphNode_t *dependencies,
                                                        size_t numDependencies,
                                                        unsigned int flags) {
  struct ah_gnode **d = NULL;
  struct ah_device *dev;
  struct ah_queue *q;
  hipError_t err = hipSuccess;

  AH_ENTER();
  AH_REQUIRE(flags == hipStreamAddCaptureDependencies || flags == hipStreamSetCaptureDependencies,
             hipErrorInvalidValue);
  AH_REQUIRE(numDependencies == 0 || dependencies != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_stream_resolve(stream, &dev, &q));
  if (numDependencies != 0) {
    AH_REQUIRE(numDependencies <= SIZE_MAX / sizeof(*d), hipErrorInvalidValue);
    d = malloc(numDependencies * sizeof(*d));
    AH_REQUIRE(d != NULL, hipErrorOutOfMemory);
    for (size_t i = 0; i < numDependencies && err == hipSuccess; i++)
      if ((d[i] = ah_gnode_lookup(dependencies[i])) == NULL)
        err = hipErrorInvalidValue;
  }
  if (err == hipSuccess)
    err = ah_capture_update_deps(q, d, numDependencies, flags == hipStreamSetCaptureDependencies);
  free(d);
  AH_RETURN(err);
}
