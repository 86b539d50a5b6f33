// SPDX-License-Identifier: MIT
// Surface objects: kernels read one array through surf*read and write another through
// surf*write (x in bytes, as HIP and CUDA address surfaces), for 1D, 2D, 3D, 1D layered
// and 2D layered arrays of float and of uchar4; the result is read back with hipMemcpy3D
// and compared with the host's computation. Then the boundary modes: reads outside the
// array give 0 (zero) or the edge element (clamp), writes outside are dropped (zero) or
// land on the edge (clamp).
#include "engine_test.h"

#include <vector>

enum Shape { S1D, S2D, S3D, S1DL, S2DL };
static const char *shape_name[] = {"1D", "2D", "3D", "1D layered", "2D layered"};

template <class T> __device__ T twice(T v);
template <> __device__ float twice(float v) { return 2.0f * v + 1.0f; }
template <> __device__ uchar4 twice(uchar4 v) {
  return make_uchar4(v.w, v.z, v.y, (unsigned char)(v.x + 1));
}

template <class T>
__global__ void transform(hipSurfaceObject_t in, hipSurfaceObject_t out, int shape, int w, int h,
                          int d) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
  if (x >= w || y >= h || z >= d)
    return;
  T v;
  int xb = x * (int)sizeof(T);
  switch (shape) {
  case S1D:
    surf1Dread(&v, in, xb);
    surf1Dwrite(twice(v), out, xb);
    break;
  case S2D:
    surf2Dread(&v, in, xb, y);
    surf2Dwrite(twice(v), out, xb, y);
    break;
  case S3D:
    surf3Dread(&v, in, xb, y, z);
    surf3Dwrite(twice(v), out, xb, y, z);
    break;
  case S1DL:
    surf1DLayeredread(&v, in, xb, z);
    surf1DLayeredwrite(twice(v), out, xb, z);
    break;
  default:
    surf2DLayeredread(&v, in, xb, y, z);
    surf2DLayeredwrite(twice(v), out, xb, y, z);
  }
}

static float host_twice(float v) { return 2.0f * v + 1.0f; }
static uchar4 host_twice(uchar4 v) { return make_uchar4(v.w, v.z, v.y, (unsigned char)(v.x + 1)); }
static bool eq(float a, float b) { return a == b; }
static bool eq(uchar4 a, uchar4 b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; }
static float make_value(int i, float *) { return 0.5f * (float)i - 7.0f; }
static uchar4 make_value(int i, uchar4 *) {
  return make_uchar4((unsigned char)i, (unsigned char)(3 * i), (unsigned char)(7 * i + 1), 200);
}

template <class T> static int check_shape(Shape sh) {
  const int W = 37, H = sh == S1D || sh == S1DL ? 1 : 5,
            D = sh == S3D || sh == S1DL || sh == S2DL ? 3 : 1;
  hipExtent ext = make_hipExtent(W, sh == S1D || sh == S1DL ? 0 : H,
                                 sh == S3D || sh == S1DL || sh == S2DL ? D : 0);
  unsigned flags = hipArraySurfaceLoadStore | (sh == S1DL || sh == S2DL ? hipArrayLayered : 0);
  hipChannelFormatDesc cd = hipCreateChannelDesc<T>();
  hipArray_t a = nullptr, b = nullptr;
  CHECK_HIP(hipMalloc3DArray(&a, &cd, ext, flags));
  CHECK_HIP(hipMalloc3DArray(&b, &cd, ext, flags));
  std::vector<T> host(W * H * D), back(W * H * D);
  for (int i = 0; i < W * H * D; i++)
    host[i] = make_value(i, (T *)nullptr);
  hipMemcpy3DParms p = {};
  p.srcPtr = make_hipPitchedPtr(host.data(), W * sizeof(T), W, H);
  p.dstArray = a;
  p.extent = make_hipExtent(W, H, D);
  p.kind = hipMemcpyHostToDevice;
  CHECK_HIP(hipMemcpy3D(&p));
  hipResourceDesc res = {};
  res.resType = hipResourceTypeArray;
  hipSurfaceObject_t sa = 0, sb = 0;
  res.res.array.array = a;
  CHECK_HIP(hipCreateSurfaceObject(&sa, &res));
  res.res.array.array = b;
  CHECK_HIP(hipCreateSurfaceObject(&sb, &res));
  transform<T><<<dim3(2, H, D), dim3(32)>>>(sa, sb, sh, W, H, D);
  CHECK_HIP(hipGetLastError());
  p = {};
  p.srcArray = b;
  p.dstPtr = make_hipPitchedPtr(back.data(), W * sizeof(T), W, H);
  p.extent = make_hipExtent(W, H, D);
  p.kind = hipMemcpyDeviceToHost;
  CHECK_HIP(hipMemcpy3D(&p));
  for (int i = 0; i < W * H * D; i++)
    if (!eq(back[i], host_twice(host[i]))) {
      fprintf(stderr, "%s (%zu-byte elements): element %d differs\n", shape_name[sh], sizeof(T), i);
      return AH_FAIL;
    }
  CHECK_HIP(hipDestroySurfaceObject(sa));
  CHECK_HIP(hipDestroySurfaceObject(sb));
  CHECK_HIP(hipFreeArray(a));
  CHECK_HIP(hipFreeArray(b));
  return AH_PASS;
}

// Reads at x = -1, 0, W - 1, W (elements) and y = -1 / H with each mode; writes past the
// right edge.
__global__ void bounds(hipSurfaceObject_t s, int w, int h, float *out) {
  int i = 0;
  for (int mode : {(int)hipBoundaryModeZero, (int)hipBoundaryModeClamp}) {
    hipSurfaceBoundaryMode m = (hipSurfaceBoundaryMode)mode;
    for (int x : {-1, 0, w - 1, w}) {
      float v = -99.0f;
      surf2Dread(&v, s, x * 4, 1, m);
      out[i++] = v;
    }
    float v = -99.0f;
    surf2Dread(&v, s, 4, h, m);
    out[i++] = v;
  }
  surf2Dwrite(1000.0f, s, w * 4, 0, hipBoundaryModeZero);  // dropped
  surf2Dwrite(2000.0f, s, w * 4, 2, hipBoundaryModeClamp); // lands on (w - 1, 2)
}

static int check_bounds() {
  const int W = 6, H = 4;
  hipChannelFormatDesc cd = hipCreateChannelDesc<float>();
  hipArray_t a = nullptr;
  CHECK_HIP(hipMallocArray(&a, &cd, W, H, hipArraySurfaceLoadStore));
  std::vector<float> host(W * H), back(W * H);
  for (int i = 0; i < W * H; i++)
    host[i] = 1.0f + i;
  CHECK_HIP(hipMemcpy2DToArray(a, 0, 0, host.data(), W * 4, W * 4, H, hipMemcpyHostToDevice));
  hipResourceDesc res = {};
  res.resType = hipResourceTypeArray;
  res.res.array.array = a;
  hipSurfaceObject_t s = 0;
  CHECK_HIP(hipCreateSurfaceObject(&s, &res));
  float *dout = nullptr;
  CHECK_HIP(hipMalloc(&dout, 10 * sizeof(float)));
  bounds<<<1, 1>>>(s, W, H, dout);
  float out[10];
  CHECK_HIP(hipMemcpy(out, dout, sizeof(out), hipMemcpyDeviceToHost));
  const float want[10] = {0, host[W], host[2 * W - 1], 0, 0,
                          host[W], host[W], host[2 * W - 1], host[2 * W - 1], host[(H - 1) * W + 1]};
  for (int i = 0; i < 10; i++)
    CHECK_NEAR(out[i], want[i], 0.0);
  CHECK_HIP(hipMemcpy2DFromArray(back.data(), W * 4, a, 0, 0, W * 4, H, hipMemcpyDeviceToHost));
  host[2 * W + W - 1] = 2000.0f;
  for (int i = 0; i < W * H; i++)
    CHECK_NEAR(back[i], host[i], 0.0);
  CHECK_HIP(hipDestroySurfaceObject(s));
  CHECK_HIP(hipFreeArray(a));
  CHECK_HIP(hipFree(dout));
  return AH_PASS;
}

int main() {
  for (int sh = S1D; sh <= S2DL; sh++)
    if (check_shape<float>((Shape)sh) != AH_PASS || check_shape<uchar4>((Shape)sh) != AH_PASS)
      return AH_FAIL;
  if (check_bounds() != AH_PASS)
    return AH_FAIL;
  printf("surface_rw: 5 shapes x 2 element types, and the boundary modes\n");
  return AH_PASS;
}
