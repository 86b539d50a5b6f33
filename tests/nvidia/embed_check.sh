#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds a HIP program through hipcc's NVIDIA pass and checks the result:
# the fatbin sits in an .nv_fatbin section (with nvcc's .nvFatBinSegment
# record) and starts with the fatbin magic, the runtime registers it at
# start-up (ANYHIP_LOG=nvidia says so), the binary runs on the CPU device,
# and on an NVIDIA GPU when there is one. Skips (77) when nvcc is absent.
# usage: embed_check.sh HIPCC SOURCE WORKDIR
set -u
hipcc=$1 src=$2 work=$3
bin=$work/embed_saxpy

fail() {
  echo "FAIL: $*"
  exit 1
}

# nvcc as hipcc finds it (hipcc/nvidia_pass.c: ah_nvidia_find_nvcc).
nvcc=
if [ "${HIPCC_NVCC+set}" = set ]; then
  [ -n "$HIPCC_NVCC" ] && [ "$HIPCC_NVCC" != none ] && nvcc=$HIPCC_NVCC
elif command -v nvcc >/dev/null 2>&1; then
  nvcc=$(command -v nvcc)
elif [ -n "${CUDA_PATH:-}" ] && [ -x "$CUDA_PATH/bin/nvcc" ]; then
  nvcc=$CUDA_PATH/bin/nvcc
elif [ -x /usr/local/cuda/bin/nvcc ]; then
  nvcc=/usr/local/cuda/bin/nvcc
fi
if [ -z "$nvcc" ]; then
  echo "skipped: nvcc not found (PATH, CUDA_PATH, /usr/local/cuda): no NVIDIA pass to test"
  exit 77
fi
command -v readelf >/dev/null 2>&1 || fail "readelf (binutils) is needed"
mkdir -p "$work" || fail "cannot create $work"

echo "== build with $nvcc"
"$hipcc" -v -O2 -o "$bin" "$src" || fail "hipcc failed"

echo "== sections"
sections=$(readelf -S -W "$bin") || fail "readelf -S"
echo "$sections" | grep -E ' \.nv_fatbin |\.nvFatBinSegment'
echo "$sections" | grep -q ' \.nv_fatbin ' || fail "no .nv_fatbin section"
echo "$sections" | grep -q ' \.nvFatBinSegment ' || fail "no .nvFatBinSegment section"
magic=$(readelf -x .nv_fatbin "$bin" | grep -m1 '^  0x' | awk '{print $2}')
[ "$magic" = 50ed55ba ] || fail ".nv_fatbin does not start with the fatbin magic (got '$magic')"
echo "fatbin magic: $magic"
if command -v cuobjdump >/dev/null 2>&1; then
  cuobjdump -lelf -lptx "$bin" || fail "cuobjdump does not recognise the embedded device code"
fi

echo "== registration"
log=$(ANYHIP_LOG=nvidia ANYHIP_DEVICES=nvidia,cpu "$bin" 2>&1)
rc=$?
echo "$log"
[ $rc -eq 0 ] || fail "the program failed (exit $rc) with the default device order"
registered='\[NVIDIA\]: 1 embedded device image\(s\) registered \([1-9][0-9]* bytes\)'
echo "$log" | grep -Eq "$registered" || fail "no registration line in the log"

echo "== CPU device"
out=$(ANYHIP_DEVICES=cpu "$bin" 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] && echo "$out" | grep -q '^ok$' || fail "the program failed on the CPU device"

echo "== NVIDIA device"
out=$(ANYHIP_DEVICES=nvidia "$bin" 2>&1)
rc=$?
echo "$out"
case $rc in
0) echo "$out" | grep -q '^ok$' || fail "no ok on the NVIDIA device" ;;
77) echo "(no NVIDIA GPU here: that part is not checked)" ;;
*) fail "the program failed on the NVIDIA device (exit $rc)" ;;
esac
echo "PASS"
