#!/bin/sh
# SPDX-License-Identifier: MIT
# The GPU machine's check, in one command (docs/nvidia.md, "What ran where"):
# configures and builds anyhip with every test on the CPU device and on the
# NVIDIA GPUs, runs the whole suite once, then the CPU device's kernel and
# stress tests REPS times each with ANYHIP_CPU_THREADS=1, 2, 16 and 64
# (over-subscribed on a 16-core machine), and prints a summary table with the
# date, the GPU and the driver. Exits 0 only when nothing failed.
#
#   scripts/gpu-check.sh                  # build in build-gpu/, 20 repetitions
#   BUILD_DIR=b REPS=5 THREADS="1 16" JOBS=8 scripts/gpu-check.sh
#   SKIP_BUILD=1 scripts/gpu-check.sh     # reuse an earlier build
#
# Every ctest log is kept in $BUILD_DIR/gpu-check/. Without a GPU the NVIDIA
# tests skip (the summary says so): the script still checks the CPU device.
set -u

src=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$src/build-gpu}
reps=${REPS:-20}
threads=${THREADS:-"1 2 16 64"}
ncpu=$(nproc 2>/dev/null || echo 4)
jobs=${JOBS:-$ncpu}
logs=$build/gpu-check
# The CPU device's kernel tests (both engines) and its stress tests.
cpu_filter='^cpu(-fibers)?/(kernels/|api/stress_)'

gpu="none"
driver="none"
if command -v nvidia-smi >/dev/null 2>&1; then
  gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | sort | uniq -c |
        sed 's/^ *\([0-9]*\) /\1 x /' | paste -sd ';' -)
  driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1)
  [ -n "$gpu" ] || gpu="none"
  [ -n "$driver" ] || driver="none"
fi
nvcc_version="none"
if command -v nvcc >/dev/null 2>&1; then
  nvcc_version=$(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p' | head -n 1)
fi

mkdir -p "$logs" || exit 1
summary=$logs/summary.txt
: >"$summary"
status=0

# One row of the table from a ctest log: tests, failed, skipped, seconds.
row() { # name log seconds rc
  # "100% tests passed, 0 tests failed out of N" (CMake 3.25) or
  # "100% tests passed out of N" (newer CMake when nothing failed).
  total=$(sed -n 's/.*tests passed.* out of \([0-9]*\).*/\1/p' "$2" | tail -n 1)
  failed=$(sed -n 's/.*tests passed, \([0-9]*\) tests\{0,1\} failed out of.*/\1/p' "$2" | tail -n 1)
  [ -n "$failed" ] || { [ -n "$total" ] && failed=0; }
  # Each test that did not run is listed once, after "did not run:".
  skipped=$(sed -n '/tests did not run:/,/^$/p' "$2" | grep -c ' - ')
  [ -n "$total" ] || total="?"
  [ -n "$failed" ] || failed="?"
  if [ "$4" != 0 ] && [ "$failed" = 0 ]; then
    failed="? (ctest exit $4)"
  fi
  printf '| %-34s | %6s | %8s | %7s | %7ss |\n' "$1" "$total" "$failed" "$skipped" "$3" >>"$summary"
  if [ "$4" != 0 ] || [ "$failed" != 0 ]; then
    status=1
    grep -E '^ *[0-9]+ - .*\((Failed|Timeout|SEGFAULT|Subprocess aborted|Exception|Child aborted|ILLEGAL|BUS error|OTHER_FAULT)' "$2" |
      sed 's/^/    /' >>"$logs/failures.txt"
  fi
}

# run NAME [ENV=VALUE...] -- ctest args
run() {
  name=$1
  shift
  log=$logs/$(echo "$name" | tr -c 'A-Za-z0-9\n-' '_').log
  start=$(date +%s)
  env "$@" >"$log" 2>&1
  rc=$?
  row "$name" "$log" $(($(date +%s) - start)) $rc
  echo "gpu-check: $name: $(grep 'tests passed' "$log" | tail -n 1)"
}

if [ -z "${SKIP_BUILD:-}" ]; then
  echo "gpu-check: configuring $build"
  cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DANYHIP_TEST_DEVICES="cpu;nvidia" >"$logs/configure.log" 2>&1 ||
    { echo "gpu-check: configure failed ($logs/configure.log)"; exit 1; }
  echo "gpu-check: building with $jobs jobs"
  cmake --build "$build" -j "$jobs" >"$logs/build.log" 2>&1 ||
    { echo "gpu-check: build failed ($logs/build.log)"; exit 1; }
fi

: >"$logs/failures.txt"
echo "gpu-check: whole suite"
run "whole suite (cpu + nvidia)" ctest --test-dir "$build" -j "$jobs" --output-on-failure
run "nvidia only (-L nvidia)" ctest --test-dir "$build" -j "$jobs" -L nvidia --output-on-failure
for t in $threads; do
  echo "gpu-check: CPU kernel and stress tests, $reps times, ANYHIP_CPU_THREADS=$t"
  # Each test runs REPS times and stops at its first failure. Fewer jobs
  # with many workers: the tests themselves are what should be busy.
  j=$jobs
  [ "$t" -gt 16 ] && j=$(((jobs + 3) / 4))
  run "cpu x$reps, ANYHIP_CPU_THREADS=$t" ANYHIP_CPU_THREADS="$t" \
    ctest --test-dir "$build" -j "$j" -R "$cpu_filter" --repeat "until-fail:$reps" \
    --output-on-failure
done

{
  echo
  echo "anyhip gpu-check, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "GPU: $gpu; driver $driver; nvcc $nvcc_version; $ncpu CPU cores; $(uname -sr)"
  echo
  echo "| run                                | tests  | failed   | skipped | time     |"
  echo "| ---------------------------------- | ------ | -------- | ------- | -------- |"
  cat "$summary"
  if [ -s "$logs/failures.txt" ]; then
    echo
    echo "failed tests (logs in $logs):"
    cat "$logs/failures.txt"
  fi
} | tee "$logs/report.txt"
exit $status
