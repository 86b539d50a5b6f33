#!/bin/sh
# SPDX-License-Identifier: MIT
# hipcc's CPU-pass compile time with the kernel compiler against without it
# (HIPCC_KERNEL_COMPILER=0), for every examples/*.hip at -O2, alternating per
# file so that load changes hit both sides alike (issue 14's limit: 1.5x).
#
#   scripts/compile-time.sh [build dir]      # default build/
#   HIPCC_KERNEL_COMPILER=/path/plugin.so scripts/compile-time.sh   # another plugin on the "with" side
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
hipcc=$build/bin/hipcc
[ -x "$hipcc" ] || { echo "compile-time.sh: no $hipcc (build first)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s%N; }
with=0 without=0
for f in "$root"/examples/*.hip; do
  s=$(now)
  "$hipcc" --offload-arch=cpu -O2 -I"$root/examples" -c "$f" -o "$tmp/a.o" 2>/dev/null
  m=$(now)
  HIPCC_KERNEL_COMPILER=0 "$hipcc" --offload-arch=cpu -O2 -I"$root/examples" -c "$f" -o "$tmp/b.o" 2>/dev/null
  e=$(now)
  with=$((with + (m - s) / 1000000))
  without=$((without + (e - m) / 1000000))
done
awk -v a="$with" -v b="$without" 'BEGIN { printf "with the kernel compiler: %.1f s; without: %.1f s; ratio %.2f\n", a / 1000, b / 1000, a / b }'
