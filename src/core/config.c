/* SPDX-License-Identifier: MIT */
/* The core's environment variables, read once at initialization, and the
 * readers every backend uses for its own settings (each backend reads them
 * when it is probed; docs/config.md lists them all). Bad values are reported
 * and replaced by the default rather than failing the program. */
#include "internal.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ah_config ah_config;

long ah_env_long(const char *name, long def, long min, long max) {
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

size_t ah_env_size(const char *name) {
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

double ah_env_seconds(const char *name, double def) {
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

  ah_config.devices = devices != NULL && *devices != '\0' ? devices : NULL;
  /* CUDA_VISIBLE_DEVICES is not read here: the CUDA driver applies it to
   * its own devices already, and filtering again would use wrong indices. */
  ah_config.visible = visible;
  ah_config.log = parse_log(getenv("ANYHIP_LOG"));
  ah_config.graph_native = (int)ah_env_long("ANYHIP_GRAPH_NATIVE", 1, 0, 1);
}
