#!/bin/sh
# SPDX-License-Identifier: MIT
# Makes sure the build tools are present: a C/C++ compiler, make and CMake
# (3.25 or newer). Installs them with apt-get when run as root on Debian or
# Ubuntu; otherwise names the command to run. The NVIDIA device loads the
# CUDA driver at run time when one is present, so it needs nothing here.
# Optional, installed the same way but never required: clang 14 and LLVM 14's
# development files (the kernel compiler, the faster way the CPU device runs
# kernels: docs/hipcc.md) and clang's OpenMP runtime (for -fopenmp programs,
# such as the benchmarks, compiled by clang); Open MPI (the MPI examples and
# their tests, docs/mpi.md). Without them everything builds.
missing=""
command -v cc >/dev/null 2>&1 || missing="$missing gcc"
command -v c++ >/dev/null 2>&1 || missing="$missing g++"
command -v cmake >/dev/null 2>&1 || missing="$missing cmake"
command -v make >/dev/null 2>&1 || missing="$missing make"
optional=""
command -v clang++-14 >/dev/null 2>&1 || optional="$optional clang-14"
[ -f /usr/lib/llvm-14/lib/cmake/llvm/LLVMConfig.cmake ] || optional="$optional llvm-14-dev"
[ -f /usr/lib/llvm-14/lib/libomp.so ] || optional="$optional libomp-14-dev"
optional_mpi=""
command -v mpicxx >/dev/null 2>&1 || optional_mpi="$optional_mpi libopenmpi-dev"
command -v mpirun >/dev/null 2>&1 || optional_mpi="$optional_mpi openmpi-bin"
optional="$optional$optional_mpi"
[ -z "$missing$optional" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "anyhip: installing$missing$optional"
  apt-get update -qq
  if [ -n "$missing" ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing || missing_failed=1
  fi
  # One at a time: a release without LLVM 14 still gets the others.
  for p in $optional; do
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$p" ||
      echo "anyhip: optional $p not installed; going on without it" >&2
  done
  [ -z "$missing_failed" ] && exit 0
fi
optional_kc=""
for p in $optional; do
  case " $optional_mpi " in *" $p "*) ;; *) optional_kc="$optional_kc $p" ;; esac
done
if [ -n "$optional_kc" ]; then
  echo "anyhip: optional, for the kernel compiler (faster CPU-device kernels):$optional_kc —" \
    "e.g.: sudo apt-get install -y$optional_kc" >&2
fi
if [ -n "$optional_mpi" ]; then
  echo "anyhip: optional, for the MPI examples (docs/mpi.md):$optional_mpi —" \
    "e.g.: sudo apt-get install -y$optional_mpi" >&2
fi
if [ -n "$missing" ]; then
  echo "anyhip needs:$missing — install them, e.g.: sudo apt-get install -y$missing" >&2
  exit 1
fi
exit 0
