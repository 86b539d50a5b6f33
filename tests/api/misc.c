/* SPDX-License-Identifier: MIT */
/* The smaller names of HIP 6.3 (include/hip/anyhip/common/misc_api.h):
 * peer attributes, valid devices, hipExtGetLastError, hipExtHostAlloc, the
 * deprecated context cache/shared-memory/peer functions, profiler control
 * over anyhip's trace file, and a stream's device. Each against what the
 * independent calls say (hipDeviceCanAccessPeer, hipGetDevice,
 * hipHostGetFlags, the trace file's lines). */
#define _GNU_SOURCE
#include "ah_test.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Two CPU devices, set before the first call; 0 for another device. */
static int two_cpus(void) {
  const char *d = getenv("ANYHIP_DEVICES");

  if (d != NULL && strcmp(d, "cpu") != 0)
    return 0;
  setenv("ANYHIP_DEVICES", "cpu", 1);
  setenv("ANYHIP_CPU_DEVICES", "2", 1);
  return 1;
}

AH_TEST(p2p_attribute) {
  int v = 7, n = 0, can = 0;

  two_cpus();
  CHECK_HIP(hipGetDeviceCount(&n));
  CHECK_ERR(hipDeviceGetP2PAttribute(NULL, hipDevP2PAttrAccessSupported, 0, 1),
            hipErrorInvalidValue);
  CHECK_ERR(hipDeviceGetP2PAttribute(&v, hipDevP2PAttrAccessSupported, 0, 0),
            hipErrorInvalidDevice);
  CHECK_ERR(hipDeviceGetP2PAttribute(&v, hipDevP2PAttrAccessSupported, -1, 0),
            hipErrorInvalidDevice);
  CHECK_ERR(hipDeviceGetP2PAttribute(&v, hipDevP2PAttrAccessSupported, 0, n),
            hipErrorInvalidDevice);
  if (n < 2)
    SKIP("one device: no pair to ask about");
  CHECK_ERR(hipDeviceGetP2PAttribute(&v, (hipDeviceP2PAttr)4, 0, 1), hipErrorInvalidValue);
  CHECK_EQ(v, 7); /* nothing written on failure */
  CHECK_HIP(hipDeviceCanAccessPeer(&can, 0, 1));
  CHECK_HIP(hipDeviceGetP2PAttribute(&v, hipDevP2PAttrAccessSupported, 0, 1));
  CHECK_EQ(v, can);
  if (can) {
    CHECK_HIP(hipDeviceGetP2PAttribute(&v, hipDevP2PAttrPerformanceRank, 0, 1));
    CHECK(v >= 0);
    CHECK_HIP(hipDeviceGetP2PAttribute(&v, hipDevP2PAttrNativeAtomicSupported, 1, 0));
    CHECK(v == 0 || v == 1);
    CHECK_HIP(hipDeviceGetP2PAttribute(&v, hipDevP2PAttrHipArrayAccessSupported, 1, 0));
    CHECK(v == 0 || v == 1);
  }
  return AH_PASS;
}

AH_TEST(set_valid_devices) {
  int list[3] = {1, 0, 1}, n = 0, d = -1;

  two_cpus();
  CHECK_HIP(hipGetDeviceCount(&n));
  CHECK_ERR(hipSetValidDevices(NULL, 1), hipErrorInvalidValue);
  CHECK_ERR(hipSetValidDevices(list, -1), hipErrorInvalidValue);
  CHECK_ERR(hipSetValidDevices(list, n + 1), hipErrorInvalidValue);
  list[0] = n;
  CHECK_ERR(hipSetValidDevices(list, 1), hipErrorInvalidDevice);
  CHECK_HIP(hipSetValidDevices(NULL, 0)); /* nothing to change */
  CHECK_HIP(hipGetDevice(&d));
  CHECK_EQ(d, 0);
  if (n < 2)
    SKIP("one device: no order to choose");
  list[0] = 1;
  CHECK_ERR(hipSetValidDevices(list, 3), hipErrorInvalidValue); /* more than there are */
  CHECK_HIP(hipSetValidDevices(list, 2)); /* 1, then 0 */
  CHECK_HIP(hipGetDevice(&d));
  CHECK_EQ(d, 1);
  {
    int dup[2] = {0, 0};

    CHECK_ERR(hipSetValidDevices(dup, 2), hipErrorInvalidValue);
  }
  CHECK_HIP(hipGetDevice(&d));
  CHECK_EQ(d, 1); /* a refused list changes nothing */
  return AH_PASS;
}

AH_TEST(ext_get_last_error) {
  CHECK_EQ(hipExtGetLastError(), hipSuccess);
  CHECK_ERR(hipMalloc(NULL, 16), hipErrorInvalidValue);
  CHECK_EQ(hipPeekAtLastError(), hipErrorInvalidValue);
  CHECK_EQ(hipExtGetLastError(), hipErrorInvalidValue);
  CHECK_EQ(hipExtGetLastError(), hipSuccess); /* read and cleared */
  CHECK_EQ(hipGetLastError(), hipSuccess);
  return AH_PASS;
}

AH_TEST(ext_host_alloc) {
  unsigned flags = 0;
  hipPointerAttribute_t at;
  int *p = NULL;

  CHECK_ERR(hipExtHostAlloc(NULL, 64, 0), hipErrorInvalidValue);
  CHECK_ERR(hipExtHostAlloc((void **)&p, 64, 0x8000), hipErrorInvalidValue); /* unknown flag */
  CHECK_HIP(hipExtHostAlloc((void **)&p, 0, 0));
  CHECK(p == NULL);
  CHECK_HIP(hipExtHostAlloc((void **)&p, 4096, hipHostMallocMapped | hipHostMallocPortable));
  CHECK(p != NULL);
  p[1000] = 42; /* host memory */
  CHECK_HIP(hipHostGetFlags(&flags, p));
  CHECK(flags & hipHostMallocMapped);
  CHECK_HIP(hipPointerGetAttributes(&at, p));
  CHECK_EQ(at.type, hipMemoryTypeHost);
  CHECK_HIP(hipHostFree(p));
  return AH_PASS;
}

AH_TEST(ctx_config_and_peers) {
  hipFuncCache_t cache = hipFuncCachePreferL1;
  hipSharedMemConfig smem = hipSharedMemBankSizeEightByte;
  hipCtx_t c0, c1;
  int n = 0, can = 0;
  void *p;

  two_cpus();
  CHECK_ERR(hipCtxGetCacheConfig(NULL), hipErrorInvalidValue);
  CHECK_HIP(hipCtxGetCacheConfig(&cache));
  CHECK_EQ(cache, hipFuncCachePreferNone);
  CHECK_ERR(hipCtxSetCacheConfig((hipFuncCache_t)9), hipErrorInvalidValue);
  CHECK_HIP(hipCtxSetCacheConfig(hipFuncCachePreferShared));
  CHECK_ERR(hipCtxGetSharedMemConfig(NULL), hipErrorInvalidValue);
  CHECK_HIP(hipCtxGetSharedMemConfig(&smem));
  CHECK_EQ(smem, hipSharedMemBankSizeFourByte);
  CHECK_ERR(hipCtxSetSharedMemConfig((hipSharedMemConfig)9), hipErrorInvalidValue);
  CHECK_HIP(hipCtxSetSharedMemConfig(hipSharedMemBankSizeDefault));
  CHECK_ERR(hipCtxEnablePeerAccess(NULL, 0), hipErrorInvalidContext);
  CHECK_ERR(hipCtxEnablePeerAccess((hipCtx_t)&n, 0), hipErrorInvalidContext);
  CHECK_ERR(hipCtxDisablePeerAccess(NULL), hipErrorInvalidContext);
  CHECK_HIP(hipDevicePrimaryCtxRetain(&c0, 0));
  CHECK_ERR(hipCtxEnablePeerAccess(c0, 0), hipErrorInvalidDevice); /* itself */
  CHECK_HIP(hipGetDeviceCount(&n));
  if (n < 2) {
    CHECK_HIP(hipDevicePrimaryCtxRelease(0));
    SKIP("one device: no peer");
  }
  CHECK_HIP(hipDeviceCanAccessPeer(&can, 0, 1));
  CHECK_HIP(hipDevicePrimaryCtxRetain(&c1, 1));
  CHECK_HIP(hipSetDevice(0));
  CHECK_ERR(hipCtxEnablePeerAccess(c1, 1), hipErrorInvalidValue);
  if (!can) {
    CHECK_ERR(hipCtxEnablePeerAccess(c1, 0), hipErrorPeerAccessUnsupported);
  } else {
    CHECK_ERR(hipCtxDisablePeerAccess(c1), hipErrorPeerAccessNotEnabled);
    CHECK_HIP(hipCtxEnablePeerAccess(c1, 0));
    /* The same grant as the device API's: enabling it there again is refused. */
    CHECK_ERR(hipDeviceEnablePeerAccess(1, 0), hipErrorPeerAccessAlreadyEnabled);
    CHECK_ERR(hipCtxEnablePeerAccess(c1, 0), hipErrorPeerAccessAlreadyEnabled);
    CHECK_HIP(hipMalloc(&p, 64));
    CHECK_HIP(hipCtxDisablePeerAccess(c1));
    CHECK_ERR(hipDeviceDisablePeerAccess(1), hipErrorPeerAccessNotEnabled);
    CHECK_HIP(hipFree(p));
  }
  CHECK_HIP(hipDevicePrimaryCtxRelease(1));
  CHECK_HIP(hipDevicePrimaryCtxRelease(0));
  return AH_PASS;
}

AH_TEST(stream_device_id) {
  hipStream_t s;
  int n = 0;

  two_cpus();
  CHECK_HIP(hipGetDeviceCount(&n));
  CHECK_EQ(hipGetStreamDeviceId(NULL), 0);
  CHECK_EQ(hipGetStreamDeviceId(hipStreamPerThread), 0);
  CHECK_EQ(hipGetStreamDeviceId((hipStream_t)&n), -1);
  CHECK_EQ(hipGetLastError(), hipErrorContextIsDestroyed); /* recorded: an unknown stream */
  if (n < 2)
    SKIP("one device");
  CHECK_HIP(hipSetDevice(1));
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_EQ(hipGetStreamDeviceId(NULL), 1); /* the current device's null stream */
  CHECK_HIP(hipSetDevice(0));
  CHECK_EQ(hipGetStreamDeviceId(s), 1);
  CHECK_EQ(hipGetStreamDeviceId(NULL), 0);
  CHECK_HIP(hipStreamDestroy(s));
  CHECK(hipApiName(0) != NULL && strcmp(hipApiName(0), "unknown") == 0);
  CHECK(strcmp(hipApiName(UINT32_MAX), "unknown") == 0);
  {
    /* ids are 1 + the position in tools/hip_api_6.3.txt; read it here */
    FILE *f = fopen(AH_SOURCE_DIR "/tools/hip_api_6.3.txt", "r");
    char line[256];
    uint32_t id = 0;

    CHECK(f != NULL);
    {
      while (fgets(line, sizeof(line), f) != NULL) {
        char *name = strchr(line, '\t');

        if (line[0] == '#' || name == NULL)
          continue;
        name[strcspn(name, "\n")] = '\0';
        id++;
        if (strcmp(hipApiName(id), name + 1) != 0) {
          fprintf(stderr, "id %u: %s, want %s\n", id, hipApiName(id), name + 1);
          fclose(f);
          return AH_FAIL;
        }
      }
      fclose(f);
      CHECK(id > 400);
      CHECK(strcmp(hipApiName(id + 1), "unknown") == 0);
    }
  }
  CHECK(hipKernelNameRef(NULL) == NULL);
  CHECK(hipKernelNameRefByPtr(NULL, NULL) == NULL);
  CHECK(hipKernelNameRefByPtr((const void *)&n, NULL) == NULL); /* no kernel */
  CHECK_EQ(hipGetLastError(), hipErrorInvalidDeviceFunction);
  return AH_PASS;
}

/* hipProfilerStop pauses ANYHIP_TRACE's recording and hipProfilerStart
 * resumes it. The trace file is opened when the library loads, so the test
 * runs itself again with ANYHIP_TRACE set and reads the file it wrote. */
AH_TEST(profiler_trace) {
  char path[] = "/tmp/anyhip-profiler-XXXXXX", line[512];
  int version = 0, fd, status = 0, before = 0, paused = 0, after = 0;
  pid_t pid;
  FILE *f;

  if (getenv("AH_PROFILER_CHILD") != NULL) { /* the run with the trace on */
    CHECK_HIP(hipDriverGetVersion(&version));
    CHECK_HIP(hipProfilerStop());
    CHECK_HIP(hipRuntimeGetVersion(&version)); /* not in the trace */
    CHECK_HIP(hipProfilerStart());
    CHECK_HIP(hipDeviceSynchronize());
    return AH_PASS;
  }
  /* Without a trace both are successful no-ops. */
  CHECK_HIP(hipProfilerStop());
  CHECK_HIP(hipProfilerStart());
  fd = mkstemp(path);
  CHECK(fd >= 0);
  close(fd);
  pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    setenv("ANYHIP_TRACE", path, 1);
    setenv("AH_PROFILER_CHILD", "1", 1);
    execl("/proc/self/exe", "ah_tests", "profiler_trace", (char *)NULL);
    _exit(127);
  }
  CHECK_EQ(waitpid(pid, &status, 0), pid);
  CHECK(WIFEXITED(status));
  CHECK_EQ(WEXITSTATUS(status), 0);
  f = fopen(path, "r");
  CHECK(f != NULL);
  while (fgets(line, sizeof(line), f) != NULL) {
    before += strstr(line, "\"hipDriverGetVersion\"") != NULL;
    paused += strstr(line, "\"hipRuntimeGetVersion\"") != NULL;
    after += strstr(line, "\"hipDeviceSynchronize\"") != NULL;
  }
  fclose(f);
  unlink(path);
  CHECK_EQ(before, 1);
  CHECK_EQ(paused, 0);
  CHECK_EQ(after, 1);
  return AH_PASS;
}

/* A batch: a wait on a pinned word holds the writes behind it until the
 * host stores the value; then the writes land in order. */
AH_TEST(stream_batch_memop) {
  hipStreamBatchMemOpParams ops[4], bad;
  hipStream_t s;
  uint32_t *flag;
  uint64_t *dev, back[2];
  int attr = 0;

  CHECK_HIP(hipDeviceGetAttribute(&attr, hipDeviceAttributeCanUseStreamWaitValue, 0));
  if (!attr)
    SKIP("the device has no stream memory operations");
  CHECK_EQ(sizeof(hipStreamBatchMemOpParams), 48u);
  CHECK_HIP(hipHostMalloc((void **)&flag, 64, 0));
  CHECK_HIP(hipMalloc((void **)&dev, 2 * sizeof(uint64_t)));
  CHECK_HIP(hipMemset(dev, 0, 2 * sizeof(uint64_t)));
  CHECK_HIP(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
  *flag = 0;
  memset(ops, 0, sizeof(ops));
  ops[0].waitValue.operation = hipStreamMemOpWaitValue32;
  ops[0].waitValue.address = flag;
  ops[0].waitValue.value = 5;
  ops[0].waitValue.flags = hipStreamWaitValueEq;
  ops[1].writeValue.operation = hipStreamMemOpWriteValue64;
  ops[1].writeValue.address = dev;
  ops[1].writeValue.value64 = 0x1122334455667788ull;
  ops[2].memoryBarrier.operation = hipStreamMemOpBarrier;
  ops[3].writeValue.operation = hipStreamMemOpWriteValue32;
  ops[3].writeValue.address = dev + 1;
  ops[3].writeValue.value = 0xcafe;
  /* Argument errors, none of which queues anything. */
  CHECK_ERR(hipStreamBatchMemOp(s, 4, NULL, 0), hipErrorInvalidValue);
  CHECK_ERR(hipStreamBatchMemOp(s, 0, ops, 0), hipErrorInvalidValue);
  CHECK_ERR(hipStreamBatchMemOp(s, 256, ops, 0), hipErrorInvalidValue);
  CHECK_ERR(hipStreamBatchMemOp(s, 4, ops, 1), hipErrorInvalidValue);
  bad = ops[3];
  bad.writeValue.address = (char *)dev + 2; /* misaligned */
  {
    hipStreamBatchMemOpParams two[2] = {ops[1], bad};

    CHECK_ERR(hipStreamBatchMemOp(s, 2, two, 0), hipErrorInvalidValue);
    two[1] = ops[3];
    two[1].writeValue.flags = 1;
    CHECK_ERR(hipStreamBatchMemOp(s, 2, two, 0), hipErrorInvalidValue);
    two[1] = ops[0];
    two[1].waitValue.flags = 9;
    CHECK_ERR(hipStreamBatchMemOp(s, 2, two, 0), hipErrorInvalidValue);
    two[1].waitValue.flags = 0;
    two[1].operation = (hipStreamBatchMemOpType)9;
    CHECK_ERR(hipStreamBatchMemOp(s, 2, two, 0), hipErrorInvalidValue);
    two[1] = ops[1];
    two[1].writeValue.address = &attr; /* not memory HIP knows */
    CHECK_ERR(hipStreamBatchMemOp(s, 2, two, 0), hipErrorInvalidValue);
  }
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipMemcpy(back, dev, sizeof(back), hipMemcpyDeviceToHost));
  CHECK_EQ(back[0], 0);
  /* The batch waits for the host. */
  CHECK_HIP(hipStreamBatchMemOp(s, 4, ops, 0));
  usleep(20000);
  CHECK_ERR(hipStreamQuery(s), hipErrorNotReady);
  __atomic_store_n(flag, 5, __ATOMIC_RELEASE);
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipMemcpy(back, dev, sizeof(back), hipMemcpyDeviceToHost));
  CHECK_EQ(back[0], 0x1122334455667788ull);
  CHECK_EQ(back[1], 0xcafe); /* the 32-bit write left the high half's zeros */
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipFree(dev));
  CHECK_HIP(hipHostFree(flag));
  return AH_PASS;
}

/* A batch node: the graph waits for the host's word, then writes; its
 * parameters read back, change, and change in an executable graph. */
AH_TEST(graph_batch_memop_node) {
  hipStreamBatchMemOpParams ops[2];
  hipBatchMemOpNodeParams np, back;
  hipGraphNode_t node, empty;
  hipGraphNodeType type;
  hipGraphExec_t x;
  hipGraph_t g;
  hipStream_t s;
  uint32_t *flag, *word;
  int attr = 0;

  CHECK_HIP(hipDeviceGetAttribute(&attr, hipDeviceAttributeCanUseStreamWaitValue, 0));
  if (!attr)
    SKIP("the device has no stream memory operations");
  CHECK_HIP(hipHostMalloc((void **)&flag, 64, 0));
  CHECK_HIP(hipHostMalloc((void **)&word, 64, 0));
  *flag = 0;
  word[0] = word[1] = 0;
  CHECK_HIP(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
  memset(ops, 0, sizeof(ops));
  ops[0].waitValue.operation = hipStreamMemOpWaitValue32;
  ops[0].waitValue.address = flag;
  ops[0].waitValue.value = 1;
  ops[0].waitValue.flags = hipStreamWaitValueGte;
  ops[1].writeValue.operation = hipStreamMemOpWriteValue32;
  ops[1].writeValue.address = word;
  ops[1].writeValue.value = 77;
  memset(&np, 0, sizeof(np));
  np.count = 2;
  np.paramArray = ops;
  CHECK_HIP(hipGraphCreate(&g, 0));
  CHECK_ERR(hipGraphAddBatchMemOpNode(NULL, g, NULL, 0, &np), hipErrorInvalidValue);
  CHECK_ERR(hipGraphAddBatchMemOpNode(&node, NULL, NULL, 0, &np), hipErrorInvalidValue);
  CHECK_ERR(hipGraphAddBatchMemOpNode(&node, g, NULL, 0, NULL), hipErrorInvalidValue);
  np.flags = 1;
  CHECK_ERR(hipGraphAddBatchMemOpNode(&node, g, NULL, 0, &np), hipErrorInvalidValue);
  np.flags = 0;
  np.count = 0;
  CHECK_ERR(hipGraphAddBatchMemOpNode(&node, g, NULL, 0, &np), hipErrorInvalidValue);
  np.count = 2;
  CHECK_HIP(hipGraphAddBatchMemOpNode(&node, g, NULL, 0, &np));
  ops[1].writeValue.value = 99; /* the node has its own copy */
  CHECK_HIP(hipGraphNodeGetType(node, &type));
  CHECK_EQ(type, hipGraphNodeTypeBatchMemOp);
  CHECK_HIP(hipGraphBatchMemOpNodeGetParams(node, &back));
  CHECK_EQ(back.count, 2);
  CHECK_EQ(back.paramArray[1].writeValue.value, 77);
  CHECK(back.paramArray != ops);
  CHECK_HIP(hipGraphAddEmptyNode(&empty, g, NULL, 0));
  CHECK_ERR(hipGraphBatchMemOpNodeGetParams(empty, &back), hipErrorInvalidValue);
  CHECK_ERR(hipGraphBatchMemOpNodeGetParams(node, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipGraphBatchMemOpNodeSetParams(empty, &np), hipErrorInvalidValue);
  CHECK_HIP(hipGraphInstantiate(&x, g, NULL, NULL, 0));
  /* Launch: held until the host writes the flag. */
  CHECK_HIP(hipGraphLaunch(x, s));
  usleep(20000);
  CHECK_ERR(hipStreamQuery(s), hipErrorNotReady);
  CHECK_EQ(__atomic_load_n(word, __ATOMIC_ACQUIRE), 0);
  __atomic_store_n(flag, 1, __ATOMIC_RELEASE);
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_EQ(word[0], 77);
  /* The node's new parameters (99) reach executable graphs made after;
   * the executable graph's own copy changes with the Exec call. */
  CHECK_HIP(hipGraphBatchMemOpNodeSetParams(node, &np));
  CHECK_HIP(hipGraphLaunch(x, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_EQ(word[0], 77);
  ops[1].writeValue.address = word + 1;
  ops[1].writeValue.value = 5;
  CHECK_ERR(hipGraphExecBatchMemOpNodeSetParams(x, empty, &np), hipErrorInvalidValue);
  CHECK_ERR(hipGraphExecBatchMemOpNodeSetParams(NULL, node, &np), hipErrorInvalidValue);
  CHECK_HIP(hipGraphExecBatchMemOpNodeSetParams(x, node, &np));
  CHECK_HIP(hipGraphLaunch(x, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_EQ(word[1], 5);
  CHECK_HIP(hipGraphExecDestroy(x));
  CHECK_HIP(hipGraphInstantiate(&x, g, NULL, NULL, 0));
  CHECK_HIP(hipGraphLaunch(x, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_EQ(word[0], 99); /* the node's parameters as set */
  CHECK_HIP(hipGraphExecDestroy(x));
  CHECK_HIP(hipGraphDestroy(g));
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipHostFree(flag));
  CHECK_HIP(hipHostFree(word));
  return AH_PASS;
}
