#!/bin/sh
# SPDX-License-Identifier: MIT
# The two-GPU check, in one command, on a machine with two or more NVIDIA
# GPUs (docs/nvidia.md, "What ran where"): builds anyhip with every test on
# the CPU device and the GPUs, runs the whole suite (the multi-device tests
# run instead of skipping), the multi-GPU examples with ANYHIP_DEVICES=nvidia
# and with ANYHIP_DEVICES=nvidia,cpu, and the peer-copy benchmark beside
# native CUDA, and prints the link type `nvidia-smi topo -m` reports.
#   scripts/multi-gpu-check.sh             # build in build-gpu/
#   BUILD_DIR=b JOBS=8 SKIP_BUILD=1 scripts/multi-gpu-check.sh
# Exits 0 only when nothing failed.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$src/build-gpu}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 4)}
status=0
ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
echo "multi-gpu-check: $ngpu GPUs"; nvidia-smi -L
[ "$ngpu" -ge 2 ] || { echo "multi-gpu-check: needs two NVIDIA GPUs"; exit 1; }
nvidia-smi topo -m

if [ -z "${SKIP_BUILD:-}" ]; then
  cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DANYHIP_TEST_DEVICES="cpu;nvidia" >/dev/null || exit 1
  cmake --build "$build" -j "$jobs" >"$build.build.log" 2>&1 ||
    { tail -30 "$build.build.log"; echo "multi-gpu-check: build failed"; exit 1; }
fi

echo "== whole suite"
ctest --test-dir "$build" -j "$jobs" --output-on-failure >"$build.ctest.log" 2>&1 || status=1
grep -E 'tests passed|\((Failed|Timeout|SEGFAULT|Subprocess aborted)' "$build.ctest.log"
echo "== tests that skip on one GPU, here:"
ctest --test-dir "$build" -N -L nvidia | grep -E 'device_|event_two|stream_get_device_multi|peer|Peer|p2p|multi' |
  sed 's/.*: //' | while read -r t; do
  grep -E "[0-9]+ - $t \(|Test +#[0-9]+: $t " "$build.ctest.log" | tail -n 1
done

echo "== multi-GPU examples"
for ex in "$build"/examples/multi_gpu_*; do
  case $(basename "$ex") in *.*) continue ;; esac # our own outputs
  [ -x "$ex" ] || continue
  for devs in nvidia nvidia,cpu; do
    if ANYHIP_DEVICES=$devs "$ex" >"$ex.$devs.out" 2>&1; then r=ok; else r=FAILED; status=1; fi
    echo "$(basename "$ex") ANYHIP_DEVICES=$devs: $r ($(grep -ciE 'device [0-9]|gpu [0-9]' "$ex.$devs.out") device lines)"
    [ $r = ok ] || tail -5 "$ex.$devs.out"
  done
done

echo "== peer copies, 256 MiB (anyhip / native CUDA)"
arch=sm_$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n 1 | tr -d .)
nvcc=${HIPCC_NVCC:-nvcc}
HIPCC_NVCC=$nvcc "$build/bin/hipcc" -O2 --offload-arch="$arch" -o "$build/peer_copy_anyhip" \
  "$src/bench/peer_copy.hip" || status=1
$nvcc -O2 -arch="$arch" -o "$build/peer_copy_native" "$src/bench/cuda/peer_copy.cu" || status=1
for rep in 1 2 3; do
  "$build/peer_copy_native" --gpu >"$build/peer_native.$rep" 2>&1 || status=1
  ANYHIP_DEVICES=nvidia "$build/peer_copy_anyhip" --gpu >"$build/peer_anyhip.$rep" 2>&1 || status=1
  paste "$build/peer_anyhip.$rep" "$build/peer_native.$rep" | awk -F'\t' -v rep=$rep \
    '$1 == "@gpu" { printf "%-34s anyhip %8.3f ms  native %8.3f ms  %.1f GB/s  ratio %.3f (run %d)\n", $2, $3, $7, $4 / $3 / 1e6, $3 / $7, rep }'
  grep -v '^@' "$build/peer_anyhip.$rep" | head -3
done
exit $status
