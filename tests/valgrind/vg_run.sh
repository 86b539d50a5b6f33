#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs one test program under valgrind's memcheck for the `valgrind` ctest label.
#   vg_run.sh clean -- [VAR=VAL...] CMD...  passes when CMD passes and memcheck reports nothing
#   vg_run.sh report RE... -- CMD...        passes when memcheck reports errors and its output
#                                           matches every extended regex RE (a user's bug found)
# Exit 77 (skip) when valgrind is missing, or with the reason CMake puts in
# AH_VG_SKIP: anyhip built without <valgrind/valgrind.h> (its fiber stacks
# are then unknown to valgrind, which reports every stack switch), or a
# sanitizer build.
mode=$1
shift
pats=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  pats="$pats
$1"
  shift
done
[ "$1" = "--" ] && shift
# Leading NAME=VALUE words are set here: `valgrind env ...` would check env
# alone (valgrind does not follow exec without --trace-children).
while [ $# -gt 0 ]; do
  case $1 in
  [A-Za-z_]*=*) export "$1"; shift ;;
  *) break ;;
  esac
done
if ! command -v valgrind >/dev/null 2>&1; then
  echo "skipped: valgrind is not installed"
  exit 77
fi
if [ -n "$AH_VG_SKIP" ]; then
  echo "skipped: $AH_VG_SKIP"
  exit 77
fi
# 99: memcheck found errors (tells them apart from the program's own failure).
vg="valgrind --error-exitcode=99 --quiet"
case $mode in
clean)
  $vg "$@"
  rc=$?
  if [ $rc = 99 ]; then
    echo "FAILED: memcheck reported errors (above)"
    exit 1
  fi
  exit $rc
  ;;
report)
  out=$($vg "$@" 2>&1)
  rc=$?
  printf '%s\n' "$out"
  if [ $rc != 99 ]; then
    echo "FAILED: expected memcheck to report errors (exit 99), got exit $rc"
    exit 1
  fi
  fail=0
  while IFS= read -r p; do
    [ -z "$p" ] && continue
    if ! printf '%s\n' "$out" | grep -Eq -- "$p"; then
      echo "FAILED: memcheck's report does not match: $p"
      fail=1
    fi
  done <<PATS
$pats
PATS
  [ $fail = 0 ] && echo "passed: memcheck reported the bug"
  exit $fail
  ;;
*)
  echo "usage: vg_run.sh clean|report [RE...] -- CMD..." >&2
  exit 2
  ;;
esac
