#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds ROCm's unit suite (github.com/ROCm/hip-tests, catch/unit/<area>) with anyhip's hipcc, with
# no edits to the suite, and runs it on the CPU device. Prints sources compiled / total, the
# compile failures grouped by their first error, and test cases passed / failed / skipped.
# docs/conformance.md has the last measured numbers and the reasons for what still fails.
#
#   scripts/hip-tests.sh <hip-tests checkout> [build dir]     (default: build/hip-tests)
#
# Environment: HIPCC (default build/bin/hipcc), JOBS (parallel compiles and runs, default 2),
# AREAS (space-separated, default: the 16 areas of issue 13, texture and surface), ONLY (a regular expression over
# area/source), STAGE (all, build, run, or report: the last run's summary again), FORCE=1
# (rebuild sources that built before; by default only new, changed or failed sources are
# compiled again), CASE_TIMEOUT (seconds per test case, default 60; a case past it while JOBS > 1
# runs once more alone at the end unless RERUN_ALONE=0), COMPILE_TIMEOUT (seconds
# per compile, default 600), HIPCC_FLAGS (added to every compile). Needs python3 (as the
# suite's own CMake build does) and cpp (for the exclusion list).
set -e
if [ $# -lt 1 ] || [ ! -d "$1" ]; then
  echo "usage: $0 <hip-tests checkout> [build dir]" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=${2:-$root/build/hip-tests}
hipcc=${HIPCC:-$root/build/bin/hipcc}
if [ ! -x "$hipcc" ]; then
  echo "$0: no hipcc at $hipcc (build anyhip first, or set HIPCC)" >&2
  exit 2
fi
exec python3 "$here/hip_tests.py" "$1" "$out" "$hipcc"
