#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds and runs the benchmarks, writes a markdown table and prints it.
#   bench/run.sh <build-dir>            CPU table: anyhip on the chosen device (ANYHIP_DEVICES)
#                                       beside OpenMP -> bench/results.md
#   bench/run.sh <build-dir> --nvidia   GPU table: anyhip's NVIDIA build beside the same
#                                       sources built as native CUDA -> bench/results-nvidia.md
# Exits non-zero when a build fails, a benchmark fails (a wrong result included), or,
# with --nvidia, when nvcc or a GPU is missing. docs/performance.md explains the tables.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
programs=(saxpy reduction matmul transpose histogram stencil scan sort compact hipcub launch
  graph_launch memcpy peer_copy)
# BENCH_PROGRAMS="hipcub scan": only these (the table then has only their rows).
if [ -n "${BENCH_PROGRAMS:-}" ]; then
  read -r -a programs <<<"$BENCH_PROGRAMS"
fi

die() {
  echo "bench/run.sh: $*" >&2
  exit 1
}

[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: bench/run.sh <build-dir> [--nvidia]"
mode=cpu
if [ $# -eq 2 ]; then
  [ "$2" = --nvidia ] || die "unknown option '$2' (usage: bench/run.sh <build-dir> [--nvidia])"
  mode=nvidia
fi
mkdir -p "$1" || die "cannot create $1"
build=$(cd "$1" && pwd)
jobs=$(nproc 2>/dev/null || echo 2)

# Configures the build directory when it is new; turns the benchmarks on when
# it was configured without them.
configure() {
  [ -n "${BENCH_PREBUILT:-}" ] && return 0
  if [ ! -f "$build/CMakeCache.txt" ]; then
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null ||
      die "cmake configure of $build failed"
  elif [ "$mode" = cpu ] && grep -q '^ANYHIP_BUILD_BENCH:BOOL=OFF' "$build/CMakeCache.txt"; then
    echo "bench/run.sh: $build was configured without benchmarks; turning them on"
    cmake -DANYHIP_BUILD_BENCH=ON "$build" >/dev/null || die "cmake reconfigure failed"
  fi
}

machine() {
  local cpu
  cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
  # GNU nproc answers OMP_NUM_THREADS when it is set: the cores, not the threads.
  echo "${cpu:-unknown CPU}, $(env -u OMP_NUM_THREADS nproc) cores available, $(uname -sr)"
}

# The 1-minute load average: other work on the machine skews the timings.
load() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?"; }

# ---- CPU table -------------------------------------------------------------

run_cpu() {
  local status=0 p out rc rows="" costs=""
  configure
  [ -n "${BENCH_PREBUILT:-}" ] ||
    cmake --build "$build" --target bench_programs -j"$jobs" || die "building the benchmarks failed"
  local load0
  load0=$(load)
  for p in "${programs[@]}" engine_costs; do
    out=$("$build/bench/bench_$p" 2>&1)
    rc=$?
    echo "$out"
    if [ "$p" = engine_costs ]; then
      costs=$(grep '^| ' <<<"$out")
    elif grep -q '^| ' <<<"$out"; then
      rows+=$(grep '^| ' <<<"$out")$'\n'
    fi
    if [ $rc -ne 0 ]; then
      status=1
      rows+="| $p | FAILED (exit $rc) | | | $(grep -m1 '^FAILED' <<<"$out" | cut -c1-80) |"$'\n'
    fi
  done
  local threads=${ANYHIP_CPU_THREADS:-}
  [ -n "$threads" ] && [ "$threads" -gt 0 ] 2>/dev/null || threads=$(nproc)
  {
    echo "<!-- Written by bench/run.sh; do not edit. -->"
    echo "# Benchmarks: anyhip beside OpenMP"
    echo
    echo "\`bench/run.sh $1\` on $(date -u +%Y-%m-%d), $(machine)."
    echo "ANYHIP_DEVICES=${ANYHIP_DEVICES:-(default)};" \
      "$threads anyhip workers and $threads OpenMP threads."
    echo "Times are medians of 9 runs after warm-ups, anyhip and OpenMP alternating in 3 rounds;"
    echo "ratio = anyhip / OpenMP (lower is better). Load average before/after: $load0 / $(load)."
    echo
    echo "| benchmark | anyhip | OpenMP | ratio | device |"
    echo "| --- | --- | --- | --- | --- |"
    printf '%s' "$rows"
    if [ -n "$costs" ]; then
      echo
      echo "CPU engine costs (bench/engine_costs.hip):"
      echo
      echo "$costs"
    fi
  } >"$here/results.md"
  echo
  cat "$here/results.md"
  [ $status -eq 0 ] || echo "bench/run.sh: some benchmarks FAILED (see above)" >&2
  return $status
}

# ---- NVIDIA table ----------------------------------------------------------

find_nvcc() {
  if [ -n "${HIPCC_NVCC+x}" ]; then
    case "$HIPCC_NVCC" in "" | none) return 1 ;; esac
    echo "$HIPCC_NVCC"
    return 0
  fi
  local c
  for c in "$(command -v nvcc 2>/dev/null)" "${CUDA_PATH:+$CUDA_PATH/bin/nvcc}" \
    /usr/local/cuda/bin/nvcc; do
    [ -n "$c" ] && [ -x "$c" ] && echo "$c" && return 0
  done
  return 1
}

# Runs "name command... ;" jobs, $jobs at a time, each logged to $out/name.log;
# returns non-zero (after printing the logs of the failed ones) if any failed.
parallel_build() {
  local failed=0 name names=()
  while [ $# -gt 0 ]; do
    name=$1
    shift
    local cmd=()
    while [ $# -gt 0 ] && [ "$1" != ";" ]; do
      cmd+=("$1")
      shift
    done
    [ $# -gt 0 ] && shift
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    rm -f "$out/$name.rc"
    ( "${cmd[@]}" >"$out/$name.log" 2>&1; echo $? >"$out/$name.rc" ) &
    names+=("$name")
  done
  wait
  for name in "${names[@]}"; do
    if [ "$(cat "$out/$name.rc" 2>/dev/null)" != 0 ]; then
      echo "---- build of $name failed ($out/$name.log):" >&2
      tail -30 "$out/$name.log" >&2
      failed=1
    fi
  done
  return $failed
}

# Pairs the "@gpu<TAB>key<TAB>ms<TAB>bytes" lines of a native and an anyhip
# output into table rows: times, bandwidths, ratio anyhip/native, and the
# target (1.2 for launches, 1.5 for hipCUB's device-wide algorithms against
# CUB, issue 9's target, 1.05 for the rest). A key the native run lacks
# gives a "missing" row and exit status 1.
pair_rows() {
  awk -F'\t' '
    function t(ms) { return ms < 1 ? sprintf("%.2f us", ms * 1000) : sprintf("%.3f ms", ms) }
    FNR == NR { if ($1 == "@gpu") native[$2] = $3; next }
    $1 != "@gpu" { next }
    !($2 in native) { printf "| %s | missing in the native output | | | | |\n", $2; bad = 1; next }
    {
      r = $3 / native[$2]
      target = $2 ~ /^launch/ ? 1.2 : $2 ~ /^hipcub / ? 1.5 : 1.05
      bw = $4 > 0 ? sprintf(" (%.0f / %.0f GB/s)", $4 / $3 / 1e6, $4 / native[$2] / 1e6) : ""
      printf "| %s%s | %s | %s | %.3f | <= %s | %s |\n", $2, bw, t($3), t(native[$2]), r,
             target, r <= target ? "ok" : "MISSES"
    }
    END { exit bad }' "$1" "$2"
}

run_nvidia() {
  local nvcc arch out p status=0 gpu
  nvcc=$(find_nvcc) ||
    die "--nvidia needs nvcc (the CUDA toolkit): put it on PATH, or set CUDA_PATH or HIPCC_NVCC"
  if command -v nvidia-smi >/dev/null 2>&1; then
    gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
    [ -n "$gpu" ] || die "--nvidia needs an NVIDIA GPU: nvidia-smi lists none"
    if [ -z "${BENCH_CUDA_ARCH:-}" ]; then
      arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null |
        head -1 | tr -d ' .')
      [ -n "$arch" ] && BENCH_CUDA_ARCH=sm_$arch
    fi
  else
    ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1' ||
      die "--nvidia needs an NVIDIA GPU: no nvidia-smi and no libcuda.so.1"
    gpu="(nvidia-smi not found)"
  fi
  arch=${BENCH_CUDA_ARCH:-sm_90}
  echo "bench/run.sh: GPU $gpu, $arch, nvcc $nvcc"

  configure
  cmake --build "$build" --target anyhip hipcc -j"$jobs" || die "building anyhip and hipcc failed"
  out=$build/bench/nvidia
  mkdir -p "$out"
  local args=()
  for p in "${programs[@]}"; do
    args+=("anyhip_$p" env HIPCC_NVCC="$nvcc" "$build/bin/hipcc" -O2 -fopenmp
      "--offload-arch=$arch" -o "$out/anyhip_$p" "$here/$p.hip" ";")
    args+=("native_$p" "$nvcc" -O2 "-arch=$arch" -Xcompiler -fopenmp -o "$out/native_$p"
      "$here/cuda/$p.cu" -lgomp ";")
  done
  echo "bench/run.sh: building ${#programs[@]} programs twice (anyhip's NVIDIA pass, native nvcc)"
  parallel_build "${args[@]}" || die "building the GPU benchmarks failed (logs in $out)"

  local table="" rows p_status
  for p in "${programs[@]}"; do
    p_status=0
    "$out/native_$p" --gpu >"$out/native_$p.out" 2>&1 || p_status=$?
    ANYHIP_DEVICES=nvidia "$out/anyhip_$p" --gpu >"$out/anyhip_$p.out" 2>&1 || p_status=$?
    cat "$out/native_$p.out" "$out/anyhip_$p.out" | grep -v '^@' || true
    if [ $p_status -ne 0 ]; then
      status=1
      table+="| $p | FAILED (see $out/*_$p.out) | | | | |"$'\n'
      continue
    fi
    if ! grep -q '^@device' "$out/anyhip_$p.out" ||
      grep -q '^@device.anyhip CPU' "$out/anyhip_$p.out"; then
      die "anyhip's $p did not run on the GPU (ANYHIP_DEVICES=nvidia): see $out/anyhip_$p.out"
    fi
    rows=$(pair_rows "$out/native_$p.out" "$out/anyhip_$p.out") || status=1
    [ -z "$rows" ] || table+="$rows"$'\n'
  done
  {
    echo "<!-- Written by bench/run.sh --nvidia; do not edit. -->"
    echo "# Benchmarks: anyhip on an NVIDIA GPU beside native CUDA"
    echo
    echo "\`bench/run.sh $1 --nvidia\` on $(date -u +%Y-%m-%d): $gpu ($arch), $(machine)."
    echo "Kernels: event-timed medians of 20 runs; launches and copies: wall-clock medians"
    echo "(each copy is a hipMemcpy/cudaMemcpy followed by a device synchronize)."
    echo "Ratio = anyhip / native time."
    echo
    echo "| benchmark (anyhip / native bandwidth) | anyhip | native CUDA | ratio | target | |"
    echo "| --- | --- | --- | --- | --- | --- |"
    printf '%s' "$table"
  } >"$here/results-nvidia.md"
  echo
  cat "$here/results-nvidia.md"
  return $status
}

if [ "$mode" = cpu ]; then
  run_cpu "$1"
else
  run_nvidia "$1"
fi
