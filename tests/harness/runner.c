/* SPDX-License-Identifier: MIT */
/* The C API test runner: `ah_tests NAME` runs one test in this process,
 * `ah_tests --list` prints every name. Names come from tests/api/<area>.list
 * (AH_TEST_ENTRY(name) lines), the same lists CMake reads. */
#include "ah_test.h"

#define AH_TEST_ENTRY(name) int ah_test_##name(void);
#include "test_list.h"
#undef AH_TEST_ENTRY

static const struct {
  const char *name;
  int (*fn)(void);
} tests[] = {
#define AH_TEST_ENTRY(name) {#name, ah_test_##name},
#include "test_list.h"
#undef AH_TEST_ENTRY
};

int main(int argc, char **argv) {
  size_t n = sizeof(tests) / sizeof(tests[0]);

  if (argc == 2 && strcmp(argv[1], "--list") == 0) {
    for (size_t i = 0; i < n; i++)
      printf("%s\n", tests[i].name);
    return 0;
  }
  if (argc != 2) {
    fprintf(stderr, "usage: %s TEST | --list\n", argv[0]);
    return 2;
  }
  for (size_t i = 0; i < n; i++)
    if (strcmp(argv[1], tests[i].name) == 0)
      return tests[i].fn();
  fprintf(stderr, "no test named %s\n", argv[1]);
  return 2;
}
