/* SPDX-License-Identifier: MIT */
/* External memory and semaphores (hipImportExternalMemory and friends), and
 * stream-ordered pools shared between two real processes on any device.
 * The references are independent of the runtime: the bytes of a memfd read
 * with pread, an eventfd's counter read with read(2), memory reached through
 * a second mapping (a VMM handle mapped again), and a child process's view
 * of the parent's pool memory. */
#define _GNU_SOURCE
#include "ah_test.h"
#include "fd_passing.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static int device_is_cpu(void) {
  hipDeviceProp_t p;

  return hipGetDeviceProperties(&p, 0) == hipSuccess && strcmp(p.gcnArchName, "cpu") == 0;
}

static hipExternalMemoryHandleDesc fd_desc(int fd, unsigned long long size) {
  hipExternalMemoryHandleDesc d;

  memset(&d, 0, sizeof(d));
  d.type = hipExternalMemoryHandleTypeOpaqueFd;
  d.handle.fd = fd;
  d.size = size;
  return d;
}

/* A memfd as external memory of the CPU device: the buffer is the file's
 * bytes, both ways; its range, flags and handles are checked. */
AH_TEST(external_memory_memfd) {
  const size_t size = 3 * 4096;
  hipExternalMemoryHandleDesc d;
  hipExternalMemoryBufferDesc bd;
  hipExternalMemory_t mem, mem2;
  unsigned char buf[5000], back[5000];
  int fd, keep, pipefd[2];
  unsigned char *p, *q;

  if (!device_is_cpu())
    SKIP("the CPU device's opaque descriptors (NVIDIA: external_memory_vmm)");
  fd = memfd_create("ext", MFD_CLOEXEC);
  CHECK(fd >= 0 && ftruncate(fd, (off_t)size) == 0);
  for (size_t i = 0; i < sizeof(buf); i++)
    buf[i] = (unsigned char)(i * 13 + 5);
  CHECK(pwrite(fd, buf, sizeof(buf), 4196) == (ssize_t)sizeof(buf));
  keep = dup(fd); /* the import takes fd over (CUDA's rule) */
  CHECK(keep >= 0);
  /* Refused: larger than the file, not a file, flags, no such type here. */
  d = fd_desc(fd, size + 1);
  CHECK_ERR(hipImportExternalMemory(&mem, &d), hipErrorInvalidValue);
  CHECK(pipe(pipefd) == 0);
  d = fd_desc(pipefd[0], 4096);
  CHECK_ERR(hipImportExternalMemory(&mem, &d), hipErrorInvalidValue);
  close(pipefd[0]);
  close(pipefd[1]);
  d = fd_desc(fd, size);
  d.flags = 2;
  CHECK_ERR(hipImportExternalMemory(&mem, &d), hipErrorInvalidValue);
  d.flags = 0;
  d.size = 0;
  CHECK_ERR(hipImportExternalMemory(&mem, &d), hipErrorInvalidValue);
  d = fd_desc(fd, size);
  d.type = hipExternalMemoryHandleTypeOpaqueWin32;
  CHECK_ERR(hipImportExternalMemory(&mem, &d), hipErrorNotSupported);
  d = fd_desc(fd, size);
  d.flags = hipExternalMemoryDedicated;
  CHECK_HIP(hipImportExternalMemory(&mem, &d));

  /* A buffer at an offset that is no page boundary. */
  memset(&bd, 0, sizeof(bd));
  bd.offset = 4196;
  bd.size = sizeof(buf);
  CHECK_ERR(hipExternalMemoryGetMappedBuffer(NULL, mem, &bd), hipErrorInvalidValue);
  CHECK_ERR(hipExternalMemoryGetMappedBuffer((void **)&p, mem, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipExternalMemoryGetMappedBuffer((void **)&p, &d, &bd), hipErrorInvalidValue);
  bd.flags = 1;
  CHECK_ERR(hipExternalMemoryGetMappedBuffer((void **)&p, mem, &bd), hipErrorInvalidValue);
  bd.flags = 0;
  bd.size = size - 4196 + 1; /* one byte past the end */
  CHECK_ERR(hipExternalMemoryGetMappedBuffer((void **)&p, mem, &bd), hipErrorInvalidValue);
  bd.size = 0;
  CHECK_ERR(hipExternalMemoryGetMappedBuffer((void **)&p, mem, &bd), hipErrorInvalidValue);
  bd.size = sizeof(buf);
  CHECK_HIP(hipExternalMemoryGetMappedBuffer((void **)&p, mem, &bd));
  CHECK_HIP(hipMemcpy(back, p, sizeof(back), hipMemcpyDeviceToHost));
  CHECK(memcmp(back, buf, sizeof(buf)) == 0);
  /* The device writes; the file has it. */
  CHECK_HIP(hipMemset(p + 10, 0xa7, 100));
  CHECK_HIP(hipDeviceSynchronize());
  CHECK(pread(keep, back, 120, 4196) == 120);
  for (int i = 0; i < 120; i++)
    CHECK_EQ(back[i], i >= 10 && i < 110 ? 0xa7 : buf[i]);
  /* The whole memory as a second buffer: the same bytes. */
  bd.offset = 0;
  bd.size = size;
  CHECK_HIP(hipExternalMemoryGetMappedBuffer((void **)&q, mem, &bd));
  CHECK(q != p);
  CHECK_EQ(q[4196 + 50], 0xa7);
  {
    hipPointerAttribute_t at;

    CHECK_HIP(hipPointerGetAttributes(&at, p));
    CHECK_EQ(at.type, hipMemoryTypeDevice);
  }
  /* Buffers outlive the handle and go with hipFree. */
  CHECK_HIP(hipDestroyExternalMemory(mem));
  CHECK_ERR(hipDestroyExternalMemory(mem), hipErrorInvalidValue);
  {
    void *none = &none;

    CHECK_ERR(hipExternalMemoryGetMappedBuffer(&none, mem, &bd), hipErrorInvalidValue);
    CHECK(none == NULL);
  }
  CHECK_HIP(hipMemset(q, 0x3c, 16));
  CHECK_HIP(hipDeviceSynchronize());
  CHECK(pread(keep, back, 16, 0) == 16);
  for (int i = 0; i < 16; i++)
    CHECK_EQ(back[i], 0x3c);
  CHECK_ERR(hipFree(p + 1), hipErrorInvalidValue);
  CHECK_HIP(hipFree(p));
  CHECK_ERR(hipFree(p), hipErrorInvalidValue);
  CHECK_HIP(hipFree(q));
  /* A second import of the same file (the caller's other descriptor). */
  d = fd_desc(keep, 4096);
  CHECK_HIP(hipImportExternalMemory(&mem2, &d));
  CHECK_HIP(hipDestroyExternalMemory(mem2)); /* closes keep */
  CHECK_ERR(hipExternalMemoryGetMappedMipmappedArray(NULL, mem2, NULL), hipErrorInvalidValue);
  return AH_PASS;
}

/* Mipmapped arrays over external memory are refused after the checks. */
AH_TEST(external_memory_mipmap_refused) {
  hipExternalMemoryMipmappedArrayDesc md;
  hipExternalMemoryHandleDesc d;
  hipExternalMemory_t mem;
  hipMipmappedArray_t mm;
  int fd;

  if (!device_is_cpu())
    SKIP("made from a memfd, which only the CPU device imports");
  fd = memfd_create("ext", MFD_CLOEXEC);
  CHECK(fd >= 0 && ftruncate(fd, 65536) == 0);
  d = fd_desc(fd, 65536);
  CHECK_HIP(hipImportExternalMemory(&mem, &d));
  memset(&md, 0, sizeof(md));
  md.formatDesc = hipCreateChannelDesc(32, 0, 0, 0, hipChannelFormatKindFloat);
  md.extent.width = 16;
  md.extent.height = 16;
  md.numLevels = 1;
  CHECK_ERR(hipExternalMemoryGetMappedMipmappedArray(NULL, mem, &md), hipErrorInvalidValue);
  CHECK_ERR(hipExternalMemoryGetMappedMipmappedArray(&mm, mem, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipExternalMemoryGetMappedMipmappedArray(&mm, &md, &md), hipErrorInvalidValue);
  md.numLevels = 0;
  CHECK_ERR(hipExternalMemoryGetMappedMipmappedArray(&mm, mem, &md), hipErrorInvalidValue);
  md.numLevels = 1;
  CHECK_ERR(hipExternalMemoryGetMappedMipmappedArray(&mm, mem, &md), hipErrorNotSupported);
  CHECK_HIP(hipDestroyExternalMemory(mem));
  return AH_PASS;
}

/* An eventfd as a semaphore of the CPU device: a wait holds the stream
 * until the host writes the eventfd; a signal adds 1 to its counter. */
AH_TEST(external_semaphore_eventfd) {
  hipExternalSemaphoreHandleDesc d;
  hipExternalSemaphoreSignalParams sp;
  hipExternalSemaphoreWaitParams wp;
  hipExternalSemaphore_t sem, bad;
  hipStream_t s;
  uint64_t v = 1;
  int efd, host, pipefd[2], *word;

  if (!device_is_cpu())
    SKIP("the CPU device's eventfd semaphores (NVIDIA: the driver's, from Vulkan)");
  memset(&d, 0, sizeof(d));
  memset(&sp, 0, sizeof(sp));
  memset(&wp, 0, sizeof(wp));
  CHECK(pipe(pipefd) == 0);
  d.type = hipExternalSemaphoreHandleTypeOpaqueFd;
  d.handle.fd = pipefd[0]; /* not an eventfd */
  CHECK_ERR(hipImportExternalSemaphore(&sem, &d), hipErrorInvalidValue);
  close(pipefd[0]);
  close(pipefd[1]);
  efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  CHECK(efd >= 0);
  d.handle.fd = efd;
  d.type = hipExternalSemaphoreHandleTypeTimelineSemaphoreFd;
  CHECK_ERR(hipImportExternalSemaphore(&sem, &d), hipErrorNotSupported);
  d.type = hipExternalSemaphoreHandleTypeD3D12Fence;
  CHECK_ERR(hipImportExternalSemaphore(&sem, &d), hipErrorNotSupported);
  d.type = hipExternalSemaphoreHandleTypeOpaqueFd;
  host = dup(efd); /* the host's own descriptor of the eventfd */
  CHECK(host >= 0);
  CHECK_HIP(hipImportExternalSemaphore(&sem, &d)); /* efd is the runtime's now */

  CHECK_HIP(hipStreamCreateWithFlags(&s, hipStreamNonBlocking)); /* the null stream runs on */
  CHECK_HIP(hipMalloc((void **)&word, sizeof(int)));
  CHECK_HIP(hipMemset(word, 0, sizeof(int)));
  bad = (hipExternalSemaphore_t)&d;
  CHECK_ERR(hipWaitExternalSemaphoresAsync(&bad, &wp, 1, s), hipErrorInvalidValue);
  CHECK_ERR(hipWaitExternalSemaphoresAsync(&sem, NULL, 1, s), hipErrorInvalidValue);
  CHECK_ERR(hipWaitExternalSemaphoresAsync(&sem, &wp, 1, (hipStream_t)&d), hipErrorInvalidHandle);
  /* The wait holds the set behind it. */
  CHECK_HIP(hipWaitExternalSemaphoresAsync(&sem, &wp, 1, s));
  CHECK_HIP(hipMemsetAsync(word, 0x11, sizeof(int), s));
  usleep(20000);
  CHECK_ERR(hipStreamQuery(s), hipErrorNotReady);
  {
    int seen;

    CHECK_HIP(hipMemcpy(&seen, word, sizeof(int), hipMemcpyDeviceToHost));
    CHECK_EQ(seen, 0);
  }
  /* The host signals the eventfd through a descriptor of its own. */
  {
    CHECK(write(host, &v, sizeof(v)) == sizeof(v));
    CHECK_HIP(hipStreamSynchronize(s));
    {
      int seen;

      CHECK_HIP(hipMemcpy(&seen, word, sizeof(int), hipMemcpyDeviceToHost));
      CHECK_EQ(seen, 0x11111111);
    }
    /* Two signals in stream order add 2 to the counter. */
    CHECK_HIP(hipSignalExternalSemaphoresAsync(&sem, &sp, 1, s));
    CHECK_HIP(hipSignalExternalSemaphoresAsync(&sem, &sp, 1, s));
    CHECK_HIP(hipStreamSynchronize(s));
    v = 0;
    CHECK(read(host, &v, sizeof(v)) == sizeof(v));
    CHECK_EQ(v, 2);
  }
  /* Nothing queued for no semaphores; a capturing stream refuses them. */
  CHECK_HIP(hipSignalExternalSemaphoresAsync(&sem, &sp, 0, s));
  {
    hipGraph_t g;

    CHECK_HIP(hipStreamBeginCapture(s, hipStreamCaptureModeRelaxed));
    CHECK_ERR(hipSignalExternalSemaphoresAsync(&sem, &sp, 1, s),
              hipErrorStreamCaptureUnsupported);
    CHECK_ERR(hipStreamEndCapture(s, &g), hipErrorStreamCaptureInvalidated);
  }
  CHECK_HIP(hipDestroyExternalSemaphore(sem));
  CHECK_ERR(hipDestroyExternalSemaphore(sem), hipErrorInvalidValue);
  CHECK_ERR(hipSignalExternalSemaphoresAsync(&sem, &sp, 1, s), hipErrorInvalidValue);
  CHECK_HIP(hipFree(word));
  CHECK_HIP(hipStreamDestroy(s));
  close(host);
  return AH_PASS;
}

/* A VMM allocation exported as a descriptor and imported as external
 * memory is the same memory: what is set through the buffer is read
 * through a mapping of the allocation. On both devices; a driver that
 * cannot import the descriptor skips with its answer. */
AH_TEST(external_memory_vmm) {
  hipMemAllocationProp prop;
  hipMemGenericAllocationHandle_t h;
  hipMemAccessDesc acc = {{hipMemLocationTypeDevice, 0}, hipMemAccessFlagsProtReadWrite};
  hipExternalMemoryHandleDesc d;
  hipExternalMemoryBufferDesc bd;
  hipExternalMemory_t mem;
  unsigned char back[256];
  unsigned char *buf, *va;
  size_t g;
  int fd = -1, v = 0;
  hipError_t e;

  CHECK_HIP(hipDeviceGetAttribute(&v, hipDeviceAttributeVirtualMemoryManagementSupported, 0));
  if (!v)
    SKIP("no virtual memory management on this device");
  memset(&prop, 0, sizeof(prop));
  prop.type = hipMemAllocationTypePinned;
  prop.requestedHandleType = hipMemHandleTypePosixFileDescriptor;
  prop.location.type = hipMemLocationTypeDevice;
  prop.location.id = 0;
  CHECK_HIP(hipMemGetAllocationGranularity(&g, &prop, hipMemAllocationGranularityMinimum));
  CHECK_HIP(hipMemCreate(&h, g, &prop, 0));
  CHECK_HIP(hipMemExportToShareableHandle(&fd, h, hipMemHandleTypePosixFileDescriptor, 0));
  d = fd_desc(fd, g);
  e = hipImportExternalMemory(&mem, &d);
  if (e != hipSuccess) {
    printf("hipImportExternalMemory of a VMM export: %s\n", hipGetErrorName(e));
    close(fd);
    CHECK_HIP(hipMemRelease(h));
    SKIP("the device does not import this descriptor");
  }
  memset(&bd, 0, sizeof(bd));
  bd.offset = 256;
  bd.size = 512;
  CHECK_HIP(hipExternalMemoryGetMappedBuffer((void **)&buf, mem, &bd));
  CHECK_HIP(hipMemset(buf, 0x5a, 512));
  CHECK_HIP(hipMemset(buf + 100, 0x17, 28));
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_HIP(hipMemAddressReserve((void **)&va, g, 0, NULL, 0));
  CHECK_HIP(hipMemMap(va, g, 0, h, 0));
  CHECK_HIP(hipMemSetAccess(va, g, &acc, 1));
  CHECK_HIP(hipMemcpy(back, va + 256, sizeof(back), hipMemcpyDeviceToHost));
  for (int i = 0; i < (int)sizeof(back); i++)
    CHECK_EQ(back[i], i >= 100 && i < 128 ? 0x17 : 0x5a);
  CHECK_HIP(hipFree(buf));
  CHECK_HIP(hipDestroyExternalMemory(mem));
  CHECK_HIP(hipMemUnmap(va, g));
  CHECK_HIP(hipMemAddressFree(va, g));
  CHECK_HIP(hipMemRelease(h));
  return AH_PASS;
}

/* ---- pools shared between processes, on any device -------------------------- */

#define POOL_BYTES 65536

/* The child starts the runtime only now (a runtime started before fork is
 * not the child's to use): it imports the pool and the pointer, checks the
 * parent's bytes, writes its own, frees its import and says so. Exit code:
 * the first failing step's number. */
static int pool_child(int sock, int in) {
  static unsigned char buf[POOL_BYTES];
  hipMemPoolPtrExportData data;
  hipMemPool_t imp;
  unsigned char *p;
  void *q;
  int fd, step = 0;
  char c = 1;

  alarm(60);
  fd = recv_fd(sock);
  if (fd < 0 || read(in, &data, sizeof(data)) != sizeof(data))
    return 1;
  if (hipMemPoolImportFromShareableHandle(&imp, (void *)(intptr_t)fd,
                                          hipMemHandleTypePosixFileDescriptor, 0) != hipSuccess)
    return 2;
  close(fd);
  if (hipMemPoolImportPointer((void **)&p, imp, &data) != hipSuccess)
    return 3;
  if (hipMemcpy(buf, p, POOL_BYTES, hipMemcpyDeviceToHost) != hipSuccess)
    return 4;
  for (int i = 0; i < POOL_BYTES; i++)
    if (buf[i] != (unsigned char)(i * 7 + 1))
      return 5;
  if (hipMemset(p + 1000, 0x6b, 3000) != hipSuccess || hipDeviceSynchronize() != hipSuccess)
    return 6;
  step = 7;
  if (hipMallocFromPoolAsync(&q, 64, imp, NULL) != hipErrorInvalidValue) /* only imports */
    return step;
  if (hipFree(p) != hipSuccess)
    return 8;
  if (hipMemPoolDestroy(imp) != hipSuccess)
    return 9;
  if (write(sock, &c, 1) != 1)
    return 10;
  return 0;
}

AH_TEST(ipc_pool_fork) {
  static unsigned char buf[POOL_BYTES];
  hipMemPoolProps props;
  hipMemPoolPtrExportData data;
  hipMemPool_t pool;
  int sv[2], to_child[2], status = 0, fd = -1;
  unsigned char *a;
  hipStream_t s;
  hipError_t e;
  pid_t pid;
  char c;

  /* fork before the runtime starts in this process. */
  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0 && pipe(to_child) == 0);
  pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    close(sv[0]);
    close(to_child[1]);
    _exit(pool_child(sv[1], to_child[0]));
  }
  close(sv[1]);
  close(to_child[0]);
  memset(&props, 0, sizeof(props));
  props.allocType = hipMemAllocationTypePinned;
  props.handleTypes = hipMemHandleTypePosixFileDescriptor;
  props.location.type = hipMemLocationTypeDevice;
  props.location.id = 0;
  CHECK_HIP(hipMemPoolCreate(&pool, &props));
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipMallocFromPoolAsync((void **)&a, POOL_BYTES, pool, s));
  for (int i = 0; i < POOL_BYTES; i++)
    buf[i] = (unsigned char)(i * 7 + 1);
  CHECK_HIP(hipMemcpyAsync(a, buf, POOL_BYTES, hipMemcpyHostToDevice, s));
  CHECK_HIP(hipStreamSynchronize(s));
  e = hipMemPoolExportToShareableHandle(&fd, pool, hipMemHandleTypePosixFileDescriptor, 0);
  if (e == hipErrorNotSupported) {
    close(sv[0]); /* the child sees no descriptor and exits */
    close(to_child[1]);
    waitpid(pid, &status, 0);
    CHECK_HIP(hipFreeAsync(a, s));
    CHECK_HIP(hipStreamSynchronize(s));
    CHECK_HIP(hipStreamDestroy(s));
    CHECK_HIP(hipMemPoolDestroy(pool));
    SKIP("no shareable pools on this device (driver without cuMemPool*, or no POSIX handles)");
  }
  CHECK_HIP(e);
  CHECK(fd >= 0);
  CHECK_HIP(hipMemPoolExportPointer(&data, a));
  CHECK(send_fd(sv[0], fd) == 0);
  CHECK(write(to_child[1], &data, sizeof(data)) == sizeof(data));
  if (read(sv[0], &c, 1) != 1)
    fprintf(stderr, "the child stopped early\n");
  CHECK_EQ(waitpid(pid, &status, 0), pid);
  CHECK(WIFEXITED(status));
  CHECK_EQ(WEXITSTATUS(status), 0);
  /* The child's bytes, and ours around them. */
  CHECK_HIP(hipMemcpy(buf, a, POOL_BYTES, hipMemcpyDeviceToHost));
  for (int i = 0; i < POOL_BYTES; i++)
    CHECK_EQ(buf[i], i >= 1000 && i < 4000 ? 0x6b : (unsigned char)(i * 7 + 1));
  CHECK_HIP(hipFreeAsync(a, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipMemPoolDestroy(pool));
  close(fd);
  close(sv[0]);
  close(to_child[1]);
  return AH_PASS;
}

/* External semaphore graph nodes on the CPU device's eventfds: a graph
 * waits for one semaphore and signals another; the parameters read back
 * and change. */
AH_TEST(graph_external_semaphore_nodes) {
  hipExternalSemaphoreHandleDesc d;
  hipExternalSemaphoreSignalParams sp[1];
  hipExternalSemaphoreWaitParams wp[1];
  hipExternalSemaphoreSignalNodeParams sn, sback;
  hipExternalSemaphoreWaitNodeParams wn, wback;
  hipExternalSemaphore_t in, out, bad = (hipExternalSemaphore_t)&d;
  hipGraphNode_t wnode, snode;
  hipGraphNodeType type;
  hipGraphExec_t x;
  hipGraph_t g;
  hipStream_t s;
  int in_fd, out_fd, in_host, out_host;
  uint64_t v = 1;

  if (!device_is_cpu())
    SKIP("the CPU device's eventfd semaphores");
  in_fd = eventfd(0, EFD_CLOEXEC);
  out_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  CHECK(in_fd >= 0 && out_fd >= 0);
  in_host = dup(in_fd);
  out_host = dup(out_fd);
  memset(&d, 0, sizeof(d));
  d.type = hipExternalSemaphoreHandleTypeOpaqueFd;
  d.handle.fd = in_fd;
  CHECK_HIP(hipImportExternalSemaphore(&in, &d));
  d.handle.fd = out_fd;
  CHECK_HIP(hipImportExternalSemaphore(&out, &d));
  memset(sp, 0, sizeof(sp));
  memset(wp, 0, sizeof(wp));
  CHECK_HIP(hipGraphCreate(&g, 0));
  wn.extSemArray = &in;
  wn.paramsArray = wp;
  wn.numExtSems = 1;
  sn.extSemArray = &out;
  sn.paramsArray = sp;
  sn.numExtSems = 1;
  CHECK_ERR(hipGraphAddExternalSemaphoresWaitNode(NULL, g, NULL, 0, &wn), hipErrorInvalidValue);
  CHECK_ERR(hipGraphAddExternalSemaphoresWaitNode(&wnode, g, NULL, 0, NULL), hipErrorInvalidValue);
  wn.numExtSems = 0;
  CHECK_ERR(hipGraphAddExternalSemaphoresWaitNode(&wnode, g, NULL, 0, &wn), hipErrorInvalidValue);
  wn.numExtSems = 1;
  wn.extSemArray = &bad;
  CHECK_ERR(hipGraphAddExternalSemaphoresWaitNode(&wnode, g, NULL, 0, &wn), hipErrorInvalidValue);
  wn.extSemArray = &in;
  CHECK_HIP(hipGraphAddExternalSemaphoresWaitNode(&wnode, g, NULL, 0, &wn));
  CHECK_HIP(hipGraphAddExternalSemaphoresSignalNode(&snode, g, &wnode, 1, &sn));
  CHECK_HIP(hipGraphNodeGetType(snode, &type));
  CHECK_EQ(type, hipGraphNodeTypeExtSemaphoreSignal);
  CHECK_HIP(hipGraphExternalSemaphoresWaitNodeGetParams(wnode, &wback));
  CHECK(wback.numExtSems == 1 && wback.extSemArray[0] == in && wback.paramsArray != wp);
  CHECK_ERR(hipGraphExternalSemaphoresSignalNodeGetParams(wnode, &sback), hipErrorInvalidValue);
  CHECK_HIP(hipGraphExternalSemaphoresSignalNodeGetParams(snode, &sback));
  CHECK(sback.numExtSems == 1 && sback.extSemArray[0] == out);
  CHECK_ERR(hipGraphExternalSemaphoresSignalNodeSetParams(wnode, &sn), hipErrorInvalidValue);
  CHECK_HIP(hipGraphExternalSemaphoresSignalNodeSetParams(snode, &sn));
  CHECK_HIP(hipGraphInstantiate(&x, g, NULL, NULL, 0));
  CHECK_HIP(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
  CHECK_HIP(hipGraphLaunch(x, s));
  usleep(20000);
  CHECK_ERR(hipStreamQuery(s), hipErrorNotReady); /* waiting for `in` */
  CHECK(read(out_host, &v, sizeof(v)) < 0);       /* not signalled yet */
  v = 1;
  CHECK(write(in_host, &v, sizeof(v)) == sizeof(v));
  CHECK_HIP(hipStreamSynchronize(s));
  v = 0;
  CHECK(read(out_host, &v, sizeof(v)) == sizeof(v));
  CHECK_EQ(v, 1);
  /* The executable graph's signal node now signals `in` instead: a second
   * launch's wait consumes what the first signal put there... so `in` is
   * signalled by the host first, then by the graph. */
  sn.extSemArray = &in;
  CHECK_ERR(hipGraphExecExternalSemaphoresSignalNodeSetParams(x, wnode, &sn),
            hipErrorInvalidValue);
  CHECK_HIP(hipGraphExecExternalSemaphoresSignalNodeSetParams(x, snode, &sn));
  wn.extSemArray = &in;
  CHECK_HIP(hipGraphExecExternalSemaphoresWaitNodeSetParams(x, wnode, &wn));
  v = 1;
  CHECK(write(in_host, &v, sizeof(v)) == sizeof(v));
  CHECK_HIP(hipGraphLaunch(x, s));
  CHECK_HIP(hipStreamSynchronize(s));
  v = 0;
  CHECK(read(in_host, &v, sizeof(v)) == sizeof(v)); /* the graph's signal */
  CHECK_EQ(v, 1);
  CHECK(read(out_host, &v, sizeof(v)) < 0);          /* `out` untouched */
  /* A semaphore destroyed since: the launch refuses the node. */
  CHECK_HIP(hipDestroyExternalSemaphore(in));
  CHECK_ERR(hipGraphLaunch(x, s), hipErrorInvalidValue);
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipGraphExecDestroy(x));
  CHECK_HIP(hipGraphDestroy(g));
  CHECK_HIP(hipDestroyExternalSemaphore(out));
  CHECK_HIP(hipStreamDestroy(s));
  close(in_host);
  close(out_host);
  return AH_PASS;
}
