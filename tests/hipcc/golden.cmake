# SPDX-License-Identifier: MIT
# One hipcc golden test: runs `hipcc ARGS` in WORKDIR with a fixed
# environment, replaces what depends on the machine (hipcc's path, the
# include and lib directories, the temporary directory) by <hipcc>,
# <include>, <lib>, <tmp>, and compares stdout then stderr, and the exit
# status, with GOLDEN (its last line). With AH_UPDATE_GOLDEN=1 in the
# environment (or -DUPDATE=ON) it rewrites GOLDEN instead.
# Inputs: HIPCC INCLUDE LIBDIR WORKDIR GOLDEN ACTUAL ARGS ('|'-separated);
# PLUGIN (optional): the kernel compiler is on, with this file as its plugin
# (printed <plugin>) and clang++-14 as its compiler; without it, it is off.
string(REPLACE "|" ";" args "${ARGS}")

# The plans must not depend on who runs them, nor on whether clang 14 is there.
if(PLUGIN)
  unset(ENV{HIPCC_CXX})
  set(ENV{HIPCC_KERNEL_COMPILER} ${PLUGIN})
  set(ENV{HIPCC_CLANG} clang++-14)
else()
  set(ENV{HIPCC_CXX} g++)
  set(ENV{HIPCC_KERNEL_COMPILER} 0)
  unset(ENV{HIPCC_CLANG})
endif()
set(ENV{HIPCC_CC} gcc)
set(ENV{HIPCC_NVCC} none)
set(ENV{HIP_COMPILE_CXX_AS_HIP} 1)
set(ENV{TMPDIR} /tmp)
unset(ENV{ANYHIP_PATH})
unset(ENV{HIP_PATH})
unset(ENV{CXX})
unset(ENV{CC})

execute_process(COMMAND ${HIPCC} ${args} WORKING_DIRECTORY ${WORKDIR}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(text "${out}${err}")

get_filename_component(real_hipcc ${HIPCC} REALPATH)
get_filename_component(real_lib ${LIBDIR} REALPATH)
get_filename_component(real_include ${INCLUDE} REALPATH)
if(PLUGIN)
  string(REPLACE "${PLUGIN}" "<plugin>" text "${text}")
endif()
foreach(pair "${real_hipcc}=<hipcc>" "${HIPCC}=<hipcc>" "${real_include}=<include>"
    "${INCLUDE}=<include>" "${real_lib}=<lib>" "${LIBDIR}=<lib>")
  string(REGEX REPLACE "=<([a-z]+)>$" "" from "${pair}")
  string(REGEX REPLACE "^.*=(<[a-z]+>)$" "\\1" to "${pair}")
  string(REPLACE "${from}" "${to}" text "${text}")
endforeach()
string(REPLACE "/tmp/hipcc-XXXXXX" "<tmp>" text "${text}")
string(APPEND text "exit status: ${rc}\n")

if(UPDATE OR "$ENV{AH_UPDATE_GOLDEN}" STREQUAL "1")
  file(WRITE ${GOLDEN} "${text}")
  message(STATUS "wrote ${GOLDEN}")
  return()
endif()
if(NOT EXISTS ${GOLDEN})
  message(FATAL_ERROR "no golden file ${GOLDEN}; output was:\n${text}")
endif()
file(READ ${GOLDEN} want)
if(NOT text STREQUAL want)
  file(WRITE ${ACTUAL} "${text}")
  execute_process(COMMAND diff -u ${GOLDEN} ${ACTUAL})
  message(FATAL_ERROR "hipcc's output differs from ${GOLDEN} (diff above, output in ${ACTUAL})")
endif()
