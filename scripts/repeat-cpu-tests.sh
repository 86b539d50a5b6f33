#!/bin/bash
# SPDX-License-Identifier: MIT
# The CPU device's kernel tests (both engines) and stress tests, REPS times at
# each worker count, from prebuilt binaries: for a machine with no compiler
# (the GPU machine), copy build/tests/kt_*, build/bin/ah_tests and build/lib
# (with clang's libomp.so.5) into one directory first:
#   mkdir -p carry/tests carry/bin carry/lib && cp build/tests/kt_* carry/tests/ &&
#   cp build/bin/ah_tests carry/bin/ && cp -P build/lib/lib*.so* carry/lib/
#   REPS=20 THREADS="1 2 16 64" MODES="1 0" P=16 scripts/repeat-cpu-tests.sh carry
# MODES: 1 block functions, 0 the fiber engine (ANYHIP_CPU_COMPILED). Prints
# each failure (its last lines) and a count per configuration; exits non-zero
# when anything failed.
dir=$(cd "${1:?usage: scripts/repeat-cpu-tests.sh <dir with tests/ bin/ lib/>}" && pwd) || exit 1
export LD_LIBRARY_PATH=$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} ANYHIP_DEVICES=cpu
reps=${REPS:-20}
total=0
one() { # threads compiled rep program [test]
  local log
  log=$(mktemp)
  ANYHIP_CPU_THREADS=$1 ANYHIP_CPU_COMPILED=$2 timeout 120 "$4" ${5:+"$5"} >"$log" 2>&1
  local rc=$?
  if [ $rc != 0 ] && [ $rc != 77 ]; then
    echo "FAIL threads=$1 compiled=$2 rep=$3 $(basename "$4") $5 rc=$rc"
    tail -3 "$log"
  fi
  rm -f "$log"
}
export -f one
stress=$("$dir/bin/ah_tests" --list 2>/dev/null | grep '^stress_')
for t in ${THREADS:-1 2 16 64}; do
  for mode in ${MODES:-1 0}; do
    out=$(for r in $(seq "$reps"); do
        for k in "$dir"/tests/kt_*; do echo "$t $mode $r $k"; done
        [ "$mode" = 1 ] && for s in $stress; do echo "$t $mode $r $dir/bin/ah_tests $s"; done
      done | xargs -P "${P:-8}" -L 1 bash -c 'one "$@"' _)
    n=$(printf '%s' "$out" | grep -c '^FAIL')
    printf '%s\n' "$out" | grep -A3 '^FAIL' | head -20
    echo "threads=$t compiled=$mode: $n failures in $reps reps of $(ls "$dir"/tests/kt_* | wc -l) kernel tests$([ "$mode" = 1 ] && echo " and $(echo $stress | wc -w) stress tests")"
    total=$((total + n))
  done
done
echo "total failures: $total"
[ "$total" = 0 ]
