#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs a program under `gdb -batch` for the `debug` ctest label.
#   gdb_run.sh [-ex CMD]... [-re RE]... -- PROG [ARG...]
# gdb runs the -ex commands in order (break, run, print...); the test passes
# when gdb's output (the program's too) matches every extended regex RE
# (grep -E, one line each). After the commands gdb deletes the breakpoints
# and lets the program run to its end.
# Exit 77 (skip) when gdb is missing or cannot trace a process here
# (ptrace refused, as in some containers).
exs=""
pats=""
nl='
'
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case $1 in
  -ex) exs="$exs$2$nl"; shift 2 ;;
  -re) pats="$pats$2$nl"; shift 2 ;;
  *) echo "usage: gdb_run.sh [-ex CMD]... [-re RE]... -- PROG [ARG...]" >&2; exit 2 ;;
  esac
done
[ "$1" = "--" ] && shift
if ! command -v gdb >/dev/null 2>&1; then
  echo "skipped: gdb is not installed"
  exit 77
fi
cmds=$(mktemp "${TMPDIR:-/tmp}/gdb_run.XXXXXX") || exit 1
trap 'rm -f "$cmds"' EXIT
printf 'set pagination off\nset confirm off\n%sdelete\ncontinue\n' "$exs" >"$cmds"
out=$(gdb -batch -nx -x "$cmds" --args "$@" 2>&1)
printf '%s\n' "$out"
case $out in
*"ptrace: Operation not permitted"* | *"Could not trace the inferior"* | *"warning: Error disabling address space randomization: Operation not permitted"*"During startup program exited"*)
  echo "skipped: gdb cannot trace processes here (ptrace refused)"
  exit 77
  ;;
esac
fail=0
while IFS= read -r p; do
  [ -z "$p" ] && continue
  if ! printf '%s\n' "$out" | grep -Eq -- "$p"; then
    echo "FAILED: gdb's output does not match: $p"
    fail=1
  fi
done <<PATS
$pats
PATS
[ $fail = 0 ] && echo "passed: gdb stopped where expected"
exit $fail
