#!/bin/sh
# SPDX-License-Identifier: MIT
# anyhip's rocm_agent_enumerator: one line per target this machine runs HIP
# code on, as ROCm's lists its agents. CMake's HIP language runs it (from
# <prefix>/bin) when CMAKE_HIP_ARCHITECTURES is not set, and makes each line an
# --offload-arch of hipcc: "cpu" (the CPU device, always there), then sm_NN for
# each NVIDIA GPU that nvidia-smi reports, when hipcc's NVIDIA pass has an nvcc
# (HIPCC_NVCC, else nvcc on PATH, in $CUDA_PATH/bin or /usr/local/cuda/bin,
# as hipcc looks). docs/install.md.
# Options of ROCm's (-t GPU, -name, ...) are accepted; the list is the same.
echo cpu
if [ "${HIPCC_NVCC+set}" = set ]; then # hipcc's rule: set, even empty, it decides
  nvcc=$HIPCC_NVCC
else
  nvcc=$(command -v nvcc 2>/dev/null) || nvcc=
  [ -z "$nvcc" ] && [ -n "${CUDA_PATH:-}" ] && [ -x "$CUDA_PATH/bin/nvcc" ] && nvcc=$CUDA_PATH/bin/nvcc
  [ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
fi
if [ -z "$nvcc" ] || [ "$nvcc" = none ]; then
  exit 0
fi
command -v nvidia-smi >/dev/null 2>&1 || exit 0
nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null |
  sed -n 's/^ *\([0-9][0-9]*\)\.\([0-9]\) *$/sm_\1\2/p' | sort -u
exit 0
