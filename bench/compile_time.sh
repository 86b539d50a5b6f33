#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 14's compile-time measure: hipcc's CPU pass over every examples/*.hip
# (`hipcc --offload-arch=cpu -O2 -c`, one file after another), with the
# kernel compiler (clang 14 + the plugin) and without it
# (HIPCC_KERNEL_COMPILER=0: the prepared source through g++), the two
# alternating file by file in R rounds, since this kind of machine changes
# speed over minutes. Prints each file's times and ratio, then the totals.
#   bench/compile_time.sh [build-dir]      R=2 rounds by default
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
build=${1:-$root/build}
hipcc=$build/bin/hipcc
rounds=${R:-2}
[ -x "$hipcc" ] || { echo "bench/compile_time.sh: no hipcc at $hipcc (build first)" >&2; exit 1; }
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT

# Milliseconds one compile of $2 takes, with the environment in $1 ("" or a
# VAR=value); a failed compile ends the script.
compile_ms() {
  local t0 t1
  t0=$(date +%s%N)
  env $1 "$hipcc" --offload-arch=cpu -O2 -I"$root/examples" -c "$2" -o "$out/x.o" 2>"$out/err" ||
    { cat "$out/err" >&2; echo "bench/compile_time.sh: $2 did not compile" >&2; exit 1; }
  t1=$(date +%s%N)
  echo $(((t1 - t0) / 1000000))
}

total_on=0
total_off=0
printf '%-36s %10s %10s %6s\n' "example" "compiler" "g++" "ratio"
for f in "$root"/examples/*.hip; do
  on=0
  off=0
  for _ in $(seq "$rounds"); do
    on=$((on + $(compile_ms "" "$f")))
    off=$((off + $(compile_ms HIPCC_KERNEL_COMPILER=0 "$f")))
  done
  total_on=$((total_on + on))
  total_off=$((total_off + off))
  awk -v n="$(basename "$f")" -v a="$on" -v b="$off" -v r="$rounds" \
    'BEGIN { printf "%-36s %8.2f s %8.2f s %6.2f\n", n, a / r / 1000, b / r / 1000, a / b }'
done
awk -v a="$total_on" -v b="$total_off" -v r="$rounds" \
  'BEGIN { printf "%-36s %8.2f s %8.2f s %6.2f   (issue 14: at most 1.5)\n", "all", a / r / 1000, b / r / 1000, a / b }'
