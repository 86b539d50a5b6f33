/* SPDX-License-Identifier: MIT */
/* Every environment variable anyhip reads, read once at initialization
 * (docs/config.md lists them). Bad values are reported and replaced by the
 * default rather than failing the program. */
#include "internal.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ah_config ah_config = {.cpu_warp_size = 64, .cpu_devices = 1, .cpu_compiled = 1,
                             .cpu_avx2 = 1, .cpu_watchdog = 10};

static long env_long(const char *name, long def, long min, long max) {
  const char *s = getenv(name);
  char *end;
  long v;

  if (s == NULL || *s == '\0')
    return def;
  v = strtol(s, &end, 10);
  if (*end != '\0' || v < min || v > max) {
    fprintf(stderr, "anyhip: ignoring %s=%s (expected %ld..%ld)\n", name, s, min, max);
    return def;
  }
  return v;
}

/* A size such as 8G, 512M, 65536 (K, M, G, T: powers of 1024). 0 when
 * unset; a bad value is reported and means the default (0). */
static size_t env_size(const char *name) {
  const char *s = getenv(name);
  unsigned long long v;
  char *end;
  int shift = 0;

  if (s == NULL || *s == '\0')
    return 0;
  errno = 0;
  v = strtoull(s, &end, 10);
  switch (*end) {
  case 'k': case 'K': shift = 10; end++; break;
  case 'm': case 'M': shift = 20; end++; break;
  case 'g': case 'G': shift = 30; end++; break;
  case 't': case 'T': shift = 40; end++; break;
  default: break;
  }
  if (*end == 'B' || *end == 'b')
    end++;
  if (errno != 0 || end == s || *end != '\0' || *s == '-' || v == 0 ||
      v > (SIZE_MAX >> shift)) {
    fprintf(stderr, "anyhip: ignoring %s=%s (expected a size such as 8G or 512M)\n", name, s);
    return 0;
  }
  return (size_t)v << shift;
}

/* Seconds, fractions allowed, 0 to a day; a bad value means the default. */
static double env_seconds(const char *name, double def) {
  const char *s = getenv(name);
  char *end;
  double v;

  if (s == NULL || *s == '\0')
    return def;
  v = strtod(s, &end);
  if (end == s || *end != '\0' || !(v >= 0 && v <= 86400)) {
    fprintf(stderr, "anyhip: ignoring %s=%s (expected seconds, 0 to 86400)\n", name, s);
    return def;
  }
  return v;
}

/* ANYHIP_LOG: a comma-separated list of areas (api, cpu, nvidia, init) or "all". */
static unsigned parse_log(const char *s) {
  static const struct {
    const char *name;
    unsigned bit;
  } areas[] = {{"api", AH_LOG_API}, {"cpu", AH_LOG_CPU}, {"nvidia", AH_LOG_NVIDIA},
               {"init", AH_LOG_INIT}, {"all", ~0u}, {"1", ~0u}};
  unsigned bits = 0;

  while (s != NULL && *s != '\0') {
    size_t len = strcspn(s, ",");
    size_t i;

    for (i = 0; i < sizeof(areas) / sizeof(areas[0]); i++)
      if (strlen(areas[i].name) == len && strncmp(areas[i].name, s, len) == 0)
        break;
    if (i < sizeof(areas) / sizeof(areas[0]))
      bits |= areas[i].bit;
    else
      fprintf(stderr, "anyhip: ANYHIP_LOG: unknown area '%.*s'\n", (int)len, s);
    s += len;
    if (*s == ',')
      s++;
  }
  return bits;
}

void ah_config_load(void) {
  const char *devices = getenv("ANYHIP_DEVICES");
  const char *visible = getenv("HIP_VISIBLE_DEVICES");
  long warp;

  ah_config.devices = devices != NULL && *devices != '\0' ? devices : NULL;
  /* CUDA_VISIBLE_DEVICES is not read here: the CUDA driver applies it to
   * its own devices already, and filtering again would use wrong indices. */
  ah_config.visible = visible;
  ah_config.cpu_threads = (int)env_long("ANYHIP_CPU_THREADS", 0, 0, 4096);
  warp = env_long("ANYHIP_CPU_WARP_SIZE", 64, 32, 64);
  if (warp != 32 && warp != 64) {
    fprintf(stderr, "anyhip: ignoring ANYHIP_CPU_WARP_SIZE=%ld (32 or 64)\n", warp);
    warp = 64;
  }
  ah_config.cpu_warp_size = (int)warp;
  ah_config.cpu_devices = (int)env_long("ANYHIP_CPU_DEVICES", 1, 0, 64);
  ah_config.cpu_compiled = (int)env_long("ANYHIP_CPU_COMPILED", 1, 0, 1);
  ah_config.cpu_avx2 = (int)env_long("ANYHIP_CPU_AVX2", 1, 0, 1);
  ah_config.cpu_memory = env_size("ANYHIP_CPU_MEMORY");
  ah_config.cpu_watchdog = env_seconds("ANYHIP_CPU_WATCHDOG", 10);
  ah_config.log = parse_log(getenv("ANYHIP_LOG"));
  {
    const char *hf = getenv("ANYHIP_NVIDIA_HOST_FUNCS");

    ah_config.nvidia_driver_host_fns = hf != NULL && strcmp(hf, "driver") == 0;
  }
  ah_config.graph_native = (int)env_long("ANYHIP_GRAPH_NATIVE", 1, 0, 1);
  ah_config.cuda_lib = getenv("ANYHIP_CUDA_LIB");
  if (ah_config.cuda_lib == NULL || *ah_config.cuda_lib == '\0')
    ah_config.cuda_lib = "libcuda.so.1";
}
