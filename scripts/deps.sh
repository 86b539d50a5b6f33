#!/bin/sh
# SPDX-License-Identifier: MIT
# Makes sure the build tools are present: a C/C++ compiler, make and CMake
# (3.25 or newer). Installs them with apt-get when run as root on Debian or
# Ubuntu; otherwise names the command to run. Nothing else is needed: the
# NVIDIA device loads the CUDA driver at run time when one is present.
missing=""
command -v cc >/dev/null 2>&1 || missing="$missing gcc"
command -v c++ >/dev/null 2>&1 || missing="$missing g++"
command -v cmake >/dev/null 2>&1 || missing="$missing cmake"
command -v make >/dev/null 2>&1 || missing="$missing make"
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "anyhip: installing$missing"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing && exit 0
fi
echo "anyhip needs:$missing — install them, e.g.: sudo apt-get install -y$missing" >&2
exit 1
