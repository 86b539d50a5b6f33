#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# How the CPU table scales with the worker count: runs every program of
# bench/run.sh's CPU table, and engine_costs, once per thread count T with
# ANYHIP_CPU_THREADS=T and OMP_NUM_THREADS=T (anyhip's workers and OpenMP's
# threads alike), and writes bench/scaling.md.
#   bench/scaling.sh <build-dir> [T...]     default T: 1 2 4 8 16
# A T above the cores available is run but marked: its numbers measure
# oversubscription. Exits non-zero when the build or a benchmark fails.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")

die() {
  echo "bench/scaling.sh: $*" >&2
  exit 1
}

[ $# -ge 1 ] || die "usage: bench/scaling.sh <build-dir> [threads...]"
mkdir -p "$1" || die "cannot create $1"
build=$(cd "$1" && pwd)
shift
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(1 2 4 8 16)
for t in "${counts[@]}"; do
  [ "$t" -gt 0 ] 2>/dev/null || die "'$t' is not a thread count"
done
# The program list is run.sh's, so that both tables have the same rows.
# The list may span lines: from `programs=(` to the closing parenthesis.
read -r -a programs <<<"$(sed -n '/^programs=(/,/)/p' "$here/run.sh" | tr '\n' ' ' |
  sed 's/^programs=(\([^)]*\)).*/\1/')"
[ ${#programs[@]} -gt 0 ] || die "cannot read the program list from bench/run.sh"
cores=$(env -u OMP_NUM_THREADS nproc 2>/dev/null || echo 1) # nproc answers OMP_NUM_THREADS

# BENCH_PREBUILT=1: run the programs already in <build-dir>/bench (built on
# another machine, e.g. one with the kernel compiler) without building.
if [ -n "${BENCH_PREBUILT:-}" ]; then
  :
elif [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null ||
    die "cmake configure of $build failed"
elif grep -q '^ANYHIP_BUILD_BENCH:BOOL=OFF' "$build/CMakeCache.txt"; then
  cmake -DANYHIP_BUILD_BENCH=ON "$build" >/dev/null || die "cmake reconfigure failed"
fi
[ -n "${BENCH_PREBUILT:-}" ] ||
  cmake --build "$build" --target bench_programs -j"$cores" || die "building the benchmarks failed"

out=$build/bench/scaling
mkdir -p "$out"
rows=$out/rows.tsv # T, kind (bench | cost | failed), name, then anyhip, OpenMP, ratio or ns
: >"$rows"
status=0
load0=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?")
for t in "${counts[@]}"; do
  for p in "${programs[@]}" engine_costs; do
    echo "bench/scaling.sh: $t threads: $p"
    rc=0
    ANYHIP_CPU_THREADS=$t OMP_NUM_THREADS=$t "$build/bench/bench_$p" >"$out/${p}_$t.out" 2>&1 ||
      rc=$?
    if [ $rc -ne 0 ]; then
      status=1
      printf '%s\tfailed\t%s\n' "$t" "$p" >>"$rows"
      grep -m1 '^FAILED' "$out/${p}_$t.out" >&2 || echo "$p exited $rc" >&2
      continue
    fi
    kind=bench
    [ "$p" = engine_costs ] && kind=cost
    # "| name | a | b | c | ... |" -> "T<TAB>kind<TAB>name<TAB>a<TAB>b<TAB>c"
    awk -F' *\\| *' -v t="$t" -v kind="$kind" '
      /^\| / && $2 !~ /^(---|engine cost)/ { printf "%s\t%s\t%s\t%s\t%s\t%s\n", t, kind, $2, $3, $4, $5 }
    ' "$out/${p}_$t.out" >>"$rows"
  done
done

# Tables: one column per thread count; speedups against the first count.
tables=$(awk -F'\t' -v cores="$cores" -v list="${counts[*]}" '
  function ms(s, v, u) {           # "8.10 ms" / "36.6 us" -> milliseconds
    split(s, v, " ")
    return v[2] == "us" ? v[1] / 1000 : v[2] == "s" ? v[1] * 1000 : v[1]
  }
  function head(title, first,   i, line, sep) {
    line = "| " title; sep = "| ---"
    for (i = first; i <= nt; i++) {
      line = line " | " T[i] (T[i] > cores ? " (oversubscribed)" : "")
      sep = sep " | ---"
    }
    print line " |"; print sep " |"
  }
  BEGIN { nt = split(list, T, " ") }
  $2 == "failed" { failed[$1, $3] = 1; next }
  {
    key = $2 SUBSEP $3
    if (!(key in seen)) { seen[key] = 1; order[$2, ++n[$2]] = $3 }
    a[$1, $2, $3] = $4; b[$1, $2, $3] = $5; r[$1, $2, $3] = $6
  }
  END {
    head("anyhip / OpenMP (ratio), threads:", 1)
    for (k = 1; k <= n["bench"]; k++) {
      name = order["bench", k]; line = "| " name
      for (i = 1; i <= nt; i++) {
        t = T[i]
        if ((t, "bench", name) in a)
          line = line " | " a[t, "bench", name] " / " b[t, "bench", name] " (" r[t, "bench", name] ")"
        else
          line = line " | -"
      }
      print line " |"
    }
    if (nt > 1) {
      print ""
      print "Speedup over " T[1] " thread" (T[1] > 1 ? "s" : "") ", anyhip / OpenMP:"
      print ""
      head("benchmark, threads:", 2)
      for (k = 1; k <= n["bench"]; k++) {
        name = order["bench", k]; line = "| " name
        for (i = 2; i <= nt; i++) {
          t = T[i]; t1 = T[1]
          if ((t, "bench", name) in a && (t1, "bench", name) in a)
            line = line sprintf(" | %.2fx / %.2fx",
              ms(a[t1, "bench", name]) / ms(a[t, "bench", name]),
              ms(b[t1, "bench", name]) / ms(b[t, "bench", name]))
          else
            line = line " | -"
        }
        print line " |"
      }
    }
    if (n["cost"] > 0) {
      print ""
      print "CPU engine costs (bench/engine_costs.hip), ns of one worker per unit; a cost that"
      print "stays flat as the workers grow scales perfectly:"
      print ""
      head("engine cost, threads:", 1)
      for (k = 1; k <= n["cost"]; k++) {
        name = order["cost", k]; line = "| " name
        for (i = 1; i <= nt; i++) {
          if ((T[i], "cost", name) in a)
            line = line " | " a[T[i], "cost", name]
          else
            line = line " | -"
        }
        print line " |"
      }
    }
    nf = 0
    for (f in failed) nf++
    if (nf > 0) {
      print ""
      line = "FAILED:"
      for (f in failed) { split(f, x, SUBSEP); line = line " " x[2] " (" x[1] " threads)" }
      print line
    }
  }' "$rows")

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
{
  echo "<!-- Written by bench/scaling.sh; do not edit. -->"
  echo "# Benchmarks: scaling with the worker count"
  echo
  echo "\`bench/scaling.sh $(basename "$build") ${counts[*]}\` on $(date -u +%Y-%m-%d)," \
    "${cpu:-unknown CPU}, $cores cores available, $(uname -sr)."
  echo "ANYHIP_DEVICES=${ANYHIP_DEVICES:-(default)}; at each thread count T, ANYHIP_CPU_THREADS=T"
  echo "and OMP_NUM_THREADS=T. Each cell: medians of 9 runs as in bench/results.md;"
  echo "ratio = anyhip / OpenMP. Load average before/after: $load0 /" \
    "$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?")."
  echo
  printf '%s\n' "$tables"
} >"$here/scaling.md"
echo
cat "$here/scaling.md"
[ $status -eq 0 ] || echo "bench/scaling.sh: some benchmarks FAILED (see above)" >&2
exit $status
