#!/bin/bash
# SPDX-License-Identifier: MIT
# Before and after, in one run: the bench programs of two prebuilt directories
# (each with bench/bench_<name> and lib/, e.g. the same runtime with two builds
# of the kernel compiler), alternating program by program, R rounds, T anyhip
# workers and T OpenMP threads; PIN=1 also pins the process to cores 0..T-1.
#   T=2 R=6 PROGS="reduction stencil" bench/ab.sh old-dir new-dir
# Prints one row per run: the directory, then the program's own row.
[ $# -eq 2 ] || { echo "usage: bench/ab.sh <before-dir> <after-dir>" >&2; exit 1; }
T=${T:-2}
R=${R:-6}
for p in ${PROGS:-reduction stencil saxpy}; do
  for r in $(seq "$R"); do
    for side in "$1" "$2"; do
      pin=()
      [ -n "${PIN:-}" ] && pin=(taskset -c "0-$((T - 1))")
      ANYHIP_DEVICES=cpu ANYHIP_CPU_THREADS=$T OMP_NUM_THREADS=$T LD_LIBRARY_PATH=$side/lib \
        "${pin[@]}" timeout 120 "$side/bench/bench_$p" 2>&1 | grep '^|' | sed "s|^|$side |"
    done
  done
done
