// A malformed launch in a header: the error names the header and its line.
inline void launch_bad(int *d) {
  k<<<1, 64(d);
}
