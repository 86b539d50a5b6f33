#!/bin/sh
# SPDX-License-Identifier: MIT
# The C++ compiler launcher that anyhip's CMake package (hip-config.cmake) puts
# on targets made by anyhip_add_executable()/anyhip_add_library(): it runs
# hipcc in place of the compiler CMake chose, with that compiler (and any
# launcher that was already set, such as ccache) as hipcc's host compiler.
# Usage: hipcc-launcher.sh HIPCC N [N launcher words] COMPILER ARGS...
hipcc=$1
n=$2
shift 2
cxx=
while [ "$n" -ge 0 ]; do
  cxx="$cxx${cxx:+ }$1"
  shift
  n=$((n - 1))
done
HIPCC_CXX=$cxx
export HIPCC_CXX
exec "$hipcc" "$@"
