// SPDX-License-Identifier: MIT
// HIP's integer intrinsics (__popc, __clz, __ffs, __brev, __byte_perm,
// __funnelshift_*, __mulhi, __mul64hi, __mul24, __hadd, __rhadd, __sad,
// __bitextract/__bitinsert, __lastbit, __fns32/64, min/max and friends) and
// the bit reinterpretations, evaluated in a kernel over edge and
// pseudo-random inputs and compared exactly with plain bit-by-bit C loops on
// the host.
#include "math_check.h"

#include <cstdint>

#define NOUT 40

__global__ void int_ops(const uint64_t *a, const uint64_t *b, const uint64_t *c, uint64_t *out,
                        int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  uint64_t x = a[i], y = b[i], z = c[i];
  unsigned int x32 = (unsigned int)x, y32 = (unsigned int)y, z32 = (unsigned int)z;
  uint64_t *o = out + (size_t)i * NOUT;
  o[0] = __popc(x32);
  o[1] = __popcll(x);
  o[2] = __clz((int)x32);
  o[3] = __clzll((long long)x);
  o[4] = __ffs((int)x32);
  o[5] = __ffsll((long long)x);
  o[6] = __brev(x32);
  o[7] = __brevll(x);
  o[8] = __byte_perm(x32, y32, z32);
  o[9] = __funnelshift_l(x32, y32, z32);
  o[10] = __funnelshift_lc(x32, y32, z32 & 63);
  o[11] = __funnelshift_r(x32, y32, z32);
  o[12] = __funnelshift_rc(x32, y32, z32 & 63);
  o[13] = (uint64_t)(int64_t)__mulhi((int)x32, (int)y32);
  o[14] = __umulhi(x32, y32);
  o[15] = (uint64_t)__mul64hi((long long)x, (long long)y);
  o[16] = __umul64hi(x, y);
  o[17] = (uint64_t)(int64_t)__mul24((int)x32, (int)y32);
  o[18] = __umul24(x32, y32);
  o[19] = (uint64_t)(int64_t)__hadd((int)x32, (int)y32);
  o[20] = (uint64_t)(int64_t)__rhadd((int)x32, (int)y32);
  o[21] = __uhadd(x32, y32);
  o[22] = __urhadd(x32, y32);
  o[23] = __sad((int)x32, (int)y32, z32);
  o[24] = __usad(x32, y32, z32);
  o[25] = __bitextract_u32(x32, y32 & 31, z32 & 31);
  o[26] = __bitextract_u64(x, y32 & 63, z32 & 63);
  o[27] = __bitinsert_u32(x32, y32, z32 & 31, (z32 >> 8) & 31);
  o[28] = __bitinsert_u64(x, y, z32 & 63, (z32 >> 8) & 63);
  o[29] = __lastbit_u32_u64(x & y);
  o[30] = __fns32(x32, z32 & 31, (int)(y32 % 9) - 4);
  o[31] = __fns64(x, z32 & 63, (int)(y32 % 9) - 4);
  o[32] = (uint64_t)(int64_t)min((int)x32, (int)y32) ^ ((uint64_t)max(x32, y32) << 32);
  o[33] = (uint64_t)min((long long)x, (long long)y) ^
          (uint64_t)max((unsigned long long)x, (unsigned long long)y);
  o[34] = (uint64_t)umin(x32, y32) + ((uint64_t)umax(x32, y32) << 32);
  o[35] = (uint64_t)llmin((long long)x, (long long)y) ^ ullmax(x, (unsigned long long)y);
  o[36] = (uint64_t)(uint32_t)__float_as_int(__int_as_float((int)x32)) ^
          ((uint64_t)__float_as_uint(__uint_as_float(y32)) << 32);
  o[37] = (uint64_t)__double_as_longlong(__longlong_as_double((long long)x));
  o[38] = (uint64_t)(uint32_t)__double2hiint(__longlong_as_double((long long)y)) ^
          ((uint64_t)(uint32_t)__double2loint(__longlong_as_double((long long)y)) << 32);
  o[39] = (uint64_t)__double_as_longlong(__hiloint2double((int)x32, (int)y32));
}

// ---- references: one bit at a time ----

static int bit(uint64_t v, int i) { return (int)((v >> i) & 1); }
static uint64_t popc(uint64_t v, int bits) {
  uint64_t n = 0;
  for (int i = 0; i < bits; i++)
    n += bit(v, i);
  return n;
}
static uint64_t clz(uint64_t v, int bits) {
  uint64_t n = 0;
  for (int i = bits - 1; i >= 0 && !bit(v, i); i--)
    n++;
  return n;
}
static uint64_t ffs(uint64_t v, int bits) {
  for (int i = 0; i < bits; i++)
    if (bit(v, i))
      return (uint64_t)i + 1;
  return 0;
}
static uint64_t brev(uint64_t v, int bits) {
  uint64_t r = 0;
  for (int i = 0; i < bits; i++)
    r |= (uint64_t)bit(v, i) << (bits - 1 - i);
  return r;
}
// The bytes of y:x numbered 0..7; selector nibble k picks result byte k.
static uint64_t byte_perm(uint32_t x, uint32_t y, uint32_t s) {
  uint8_t bytes[8];
  for (int k = 0; k < 4; k++) {
    bytes[k] = (uint8_t)(x >> (8 * k));
    bytes[4 + k] = (uint8_t)(y >> (8 * k));
  }
  uint32_t r = 0;
  for (int k = 0; k < 4; k++)
    r |= (uint32_t)bytes[(s >> (4 * k)) & 7] << (8 * k);
  return r;
}
// Bit i of the 64-bit hi:lo after shifting left by s (zeros come in).
static uint64_t funnel_l(uint32_t lo, uint32_t hi, unsigned s) {
  uint32_t r = 0;
  for (int i = 0; i < 32; i++) { // result bit i is bit 32 + i - s of hi:lo
    int src = 32 + i - (int)s;
    int b = src < 0 ? 0 : src < 32 ? bit(lo, src) : bit(hi, src - 32);
    r |= (uint32_t)b << i;
  }
  return r;
}
static uint64_t funnel_r(uint32_t lo, uint32_t hi, unsigned s) {
  uint32_t r = 0;
  for (int i = 0; i < 32; i++) { // result bit i is bit i + s of hi:lo
    int src = i + (int)s;
    int b = src < 32 ? bit(lo, src) : src < 64 ? bit(hi, src - 32) : 0;
    r |= (uint32_t)b << i;
  }
  return r;
}
// The high 64 bits of a 128-bit product, by schoolbook on 32-bit halves.
static uint64_t umul64hi(uint64_t a, uint64_t b) {
  uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
  uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
  uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
  return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}
static uint64_t mul64hi(int64_t a, int64_t b) {
  // Signed from unsigned: subtract b (or a) * 2^64 for each negative factor.
  uint64_t h = umul64hi((uint64_t)a, (uint64_t)b);
  if (a < 0)
    h -= (uint64_t)b;
  if (b < 0)
    h -= (uint64_t)a;
  return h;
}
static int64_t sext24(uint32_t v) {
  return (v & 0x800000) ? (int64_t)(v & 0xffffff) - 0x1000000 : v & 0xffffff;
}
static uint64_t extract(uint64_t v, int off, int width) {
  uint64_t r = 0;
  for (int i = 0; i < width && off + i < 64; i++)
    r |= (uint64_t)bit(v, off + i) << i;
  return r;
}
// __bitextract_u64 as AMD's device library computes it: a field past bit 63
// reads 0 below bit 64 and wraps round to bit 0 above (its shifts are mod 64).
static uint64_t extract64(uint64_t v, int off, int width) {
  uint64_t r = 0;
  if (off + width <= 64)
    return extract(v, off, width);
  for (int i = 64 - off; i < width; i++)
    r |= (uint64_t)bit(v, off + i - 64) << i;
  return r;
}
static uint64_t insert(uint64_t v, uint64_t ins, int off, int width, int bits) {
  for (int i = 0; i < width && off + i < bits; i++) {
    v &= ~((uint64_t)1 << (off + i));
    v |= (uint64_t)bit(ins, i) << (off + i);
  }
  return v;
}
static uint64_t fns(uint64_t mask, int bits, int base, int off) {
  if (off == 0)
    return bit(mask, base) ? (uint64_t)base : 0xffffffffu;
  int seen = 0;
  for (int i = base; i >= 0 && i < bits; i += off > 0 ? 1 : -1)
    if (bit(mask, i) && ++seen == (off > 0 ? off : -off))
      return (uint64_t)i;
  return 0xffffffffu;
}

static void reference(uint64_t x, uint64_t y, uint64_t z, uint64_t *o) {
  uint32_t x32 = (uint32_t)x, y32 = (uint32_t)y, z32 = (uint32_t)z;
  int32_t sx = (int32_t)x32, sy = (int32_t)y32;
  o[0] = popc(x32, 32);
  o[1] = popc(x, 64);
  o[2] = clz(x32, 32);
  o[3] = clz(x, 64);
  o[4] = ffs(x32, 32);
  o[5] = ffs(x, 64);
  o[6] = brev(x32, 32);
  o[7] = brev(x, 64);
  o[8] = byte_perm(x32, y32, z32);
  o[9] = funnel_l(x32, y32, z32 & 31);
  o[10] = funnel_l(x32, y32, (z32 & 63) > 32 ? 32 : z32 & 63);
  o[11] = funnel_r(x32, y32, z32 & 31);
  o[12] = funnel_r(x32, y32, (z32 & 63) > 32 ? 32 : z32 & 63);
  o[13] = (uint64_t)(int64_t)(int32_t)(((int64_t)sx * sy) >> 32);
  o[14] = ((uint64_t)x32 * y32) >> 32;
  o[15] = mul64hi((int64_t)x, (int64_t)y);
  o[16] = umul64hi(x, y);
  o[17] = (uint64_t)(int64_t)(int32_t)(uint32_t)(sext24(x32) * sext24(y32));
  o[18] = (uint32_t)((uint64_t)(x32 & 0xffffff) * (y32 & 0xffffff));
  o[19] = (uint64_t)(int64_t)(int32_t)(((int64_t)sx + sy) >> 1);
  o[20] = (uint64_t)(int64_t)(int32_t)(((int64_t)sx + sy + 1) >> 1);
  o[21] = ((uint64_t)x32 + y32) >> 1;
  o[22] = ((uint64_t)x32 + y32 + 1) >> 1;
  o[23] = (uint32_t)((uint64_t)(sx > sy ? (int64_t)sx - sy : (int64_t)sy - sx) + z32);
  o[24] = (uint32_t)((x32 > y32 ? x32 - y32 : y32 - x32) + z32);
  o[25] = extract(x32, y32 & 31, z32 & 31);
  o[26] = extract64(x, y32 & 63, z32 & 63);
  o[27] = insert(x32, y32, z32 & 31, (z32 >> 8) & 31, 32);
  o[28] = insert(x, y, z32 & 63, (z32 >> 8) & 63, 64);
  o[29] = (x & y) == 0 ? 0xffffffffu : ffs(x & y, 64) - 1;
  o[30] = fns(x32, 32, z32 & 31, (int)(y32 % 9) - 4);
  o[31] = fns(x, 64, z32 & 63, (int)(y32 % 9) - 4);
  o[32] = (uint64_t)(int64_t)(sx < sy ? sx : sy) ^ ((uint64_t)(x32 > y32 ? x32 : y32) << 32);
  o[33] = (uint64_t)((int64_t)x < (int64_t)y ? (int64_t)x : (int64_t)y) ^ (x > y ? x : y);
  o[34] = (uint64_t)(x32 < y32 ? x32 : y32) + ((uint64_t)(x32 > y32 ? x32 : y32) << 32);
  o[35] = (uint64_t)((int64_t)x < (int64_t)y ? (int64_t)x : (int64_t)y) ^ (x > y ? x : y);
  o[36] = (uint64_t)x32 ^ ((uint64_t)y32 << 32);
  o[37] = x;
  o[38] = (y >> 32) ^ ((y & 0xffffffffu) << 32);
  o[39] = ((uint64_t)x32 << 32) | y32;
}

int main() {
  MATH_REQUIRE_DEVICE();
  std::vector<uint64_t> a, b, c;
  const uint64_t edges[] = {0, 1, 2, 3, 0x80000000u, 0x7fffffffu, 0xffffffffu, 0x800000u,
                            0xffffffu, 1ull << 63, ~0ull, 0x8000000000000000ull | 1,
                            0x0123456789abcdefull, 0xfedcba9876543210ull};
  for (uint64_t x : edges)
    for (uint64_t y : edges)
      for (uint64_t z : {0ull, 1ull, 31ull, 32ull, 33ull, 0x3210ull, 0x7654ull, 0x1f1full}) {
        a.push_back(x);
        b.push_back(y);
        c.push_back(z);
      }
  uint64_t s = 0x243f6a8885a308d3ull;
  auto next = [&]() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  };
  for (int i = 0; i < 5000; i++) {
    a.push_back(next() >> (next() % 64));
    b.push_back(next() >> (next() % 64));
    c.push_back(next());
  }
  int n = (int)a.size();
  uint64_t *da, *db, *dc, *dout;
  MCHECK_HIP(hipMalloc(&da, n * sizeof(uint64_t)));
  MCHECK_HIP(hipMalloc(&db, n * sizeof(uint64_t)));
  MCHECK_HIP(hipMalloc(&dc, n * sizeof(uint64_t)));
  MCHECK_HIP(hipMalloc(&dout, (size_t)n * NOUT * sizeof(uint64_t)));
  MCHECK_HIP(hipMemcpy(da, a.data(), n * sizeof(uint64_t), hipMemcpyHostToDevice));
  MCHECK_HIP(hipMemcpy(db, b.data(), n * sizeof(uint64_t), hipMemcpyHostToDevice));
  MCHECK_HIP(hipMemcpy(dc, c.data(), n * sizeof(uint64_t), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(int_ops, dim3((n + 127) / 128), dim3(128), 0, 0, da, db, dc, dout, n);
  MCHECK_HIP(hipGetLastError());
  std::vector<uint64_t> out((size_t)n * NOUT);
  MCHECK_HIP(hipMemcpy(out.data(), dout, out.size() * sizeof(uint64_t), hipMemcpyDeviceToHost));
  const char *names[NOUT] = {
      "__popc", "__popcll", "__clz", "__clzll", "__ffs", "__ffsll", "__brev", "__brevll",
      "__byte_perm", "__funnelshift_l", "__funnelshift_lc", "__funnelshift_r", "__funnelshift_rc",
      "__mulhi", "__umulhi", "__mul64hi", "__umul64hi", "__mul24", "__umul24", "__hadd",
      "__rhadd", "__uhadd", "__urhadd", "__sad", "__usad", "__bitextract_u32",
      "__bitextract_u64", "__bitinsert_u32", "__bitinsert_u64", "__lastbit_u32_u64", "__fns32",
      "__fns64", "min/max(int, unsigned)", "min/max(long long, ull)", "umin/umax",
      "llmin/ullmax", "__int_as_float/__uint_as_float", "__longlong_as_double",
      "__double2hiint/loint", "__hiloint2double"};
  int bad[NOUT] = {0}, shown = 0;
  bool ok = true;
  for (int i = 0; i < n; i++) {
    uint64_t want[NOUT];
    reference(a[i], b[i], c[i], want);
    for (int k = 0; k < NOUT; k++)
      if (out[(size_t)i * NOUT + k] != want[k]) {
        bad[k]++;
        if (shown++ < 10)
          std::printf("FAIL %s(%#llx, %#llx, %#llx) = %#llx, want %#llx\n", names[k],
                      (unsigned long long)a[i], (unsigned long long)b[i],
                      (unsigned long long)c[i], (unsigned long long)out[(size_t)i * NOUT + k],
                      (unsigned long long)want[k]);
      }
  }
  for (int k = 0; k < NOUT; k++) {
    std::printf("%-4s %-32s %d inputs, %d wrong\n", bad[k] ? "FAIL" : "ok", names[k], n, bad[k]);
    ok &= bad[k] == 0;
  }
  MCHECK_HIP(hipFree(da));
  MCHECK_HIP(hipFree(db));
  MCHECK_HIP(hipFree(dc));
  MCHECK_HIP(hipFree(dout));
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? AH_PASS : AH_FAIL;
}
