// SPDX-License-Identifier: MIT
// Text that looks like a launch and is not: comments, strings, character
// literals, raw strings, `operator<<<`, digit separators; and a launch split
// by line continuations.
#include <ostream>

__global__ void k(int x) {}

// k<<<1, 1>>>(0) in a line comment \
   k<<<2, 2>>>(0) continued by a backslash
/* k<<<3, 3>>>(0) in a block comment */
template <typename T> struct Box { T v; };
template <typename T> std::ostream &operator<<(std::ostream &o, const Box<T> &b);
struct Printer {
  friend std::ostream &operator<<<int>(std::ostream &o, const Box<int> &b);
};

void host() {
  const char *s = "k<<<4, 4>>>(0) in a string \" still in it";
  const char *r = R"delim(k<<<5, 5>>>(0) )" in a raw string)delim";
  const char *u = u8R"(k<<<6, 6>>>(0))";
  char c = '<', d = '\'';
  int big = 1'000'000;
  k<<<1, \
      1>>>(big);
  k<<<2, 2>>>(s[0] + r[0] + u[0] + c + d);
}
