# SPDX-License-Identifier: MIT
# ANYHIP_KERNEL_COMPILER (AUTO | ON | OFF): whether to build anyhip's kernel
# compiler, the LLVM 14 pass plugin in kernel-compiler/ that hipcc's CPU pass
# loads into clang++-14 (docs/hipcc.md). It needs LLVM 14's development files
# (Debian: llvm-14-dev) and clang++-14 (clang-14). AUTO builds it when both
# are found and otherwise says so once; ON fails the configure without them.
# Sets ANYHIP_KERNEL_COMPILER_FOUND, ANYHIP_CLANGXX and LLVM_* (LLVMConfig).
set(ANYHIP_KERNEL_COMPILER "AUTO" CACHE STRING "Build the kernel compiler (LLVM 14 plugin): AUTO | ON | OFF")
set_property(CACHE ANYHIP_KERNEL_COMPILER PROPERTY STRINGS AUTO ON OFF)
string(TOUPPER "${ANYHIP_KERNEL_COMPILER}" ah_kc_mode)
set(ANYHIP_KERNEL_COMPILER_FOUND OFF)

# The version line of a clang, or "" when `prog --version` says no clang 14.
function(ah_clang14_check prog out)
  execute_process(COMMAND ${prog} --version OUTPUT_VARIABLE v ERROR_QUIET RESULT_VARIABLE rc)
  if(rc EQUAL 0 AND v MATCHES "clang version 14\\.")
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
endfunction()

if(ah_kc_mode STREQUAL "OFF")
  return()
elseif(NOT ah_kc_mode MATCHES "^(AUTO|ON)$")
  message(FATAL_ERROR "ANYHIP_KERNEL_COMPILER must be AUTO, ON or OFF, not '${ANYHIP_KERNEL_COMPILER}'")
endif()

set(ah_kc_missing "")
find_package(LLVM 14 CONFIG QUIET
  HINTS /usr/lib/llvm-14/lib/cmake/llvm /usr/lib/llvm-14 /usr/local/opt/llvm@14)
if(NOT LLVM_FOUND OR NOT LLVM_VERSION_MAJOR EQUAL 14)
  # llvm-config-14 names the prefix when the CMake package is elsewhere.
  find_program(ah_llvm_config NAMES llvm-config-14)
  if(ah_llvm_config)
    execute_process(COMMAND ${ah_llvm_config} --cmakedir OUTPUT_VARIABLE ah_llvm_cmakedir
      OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    find_package(LLVM 14 CONFIG QUIET NO_DEFAULT_PATH PATHS ${ah_llvm_cmakedir})
  endif()
endif()
if(NOT LLVM_FOUND OR NOT LLVM_VERSION_MAJOR EQUAL 14)
  list(APPEND ah_kc_missing "LLVM 14 development files (llvm-14-dev)")
endif()

find_program(ANYHIP_CLANGXX NAMES clang++-14 clang++
  HINTS ${LLVM_TOOLS_BINARY_DIR} /usr/lib/llvm-14/bin
  DOC "clang++ 14: the compiler the kernel compiler plugin loads into")
if(ANYHIP_CLANGXX)
  ah_clang14_check(${ANYHIP_CLANGXX} ah_clang_ok)
  if(NOT ah_clang_ok)
    list(APPEND ah_kc_missing "clang++-14 (${ANYHIP_CLANGXX} is not clang 14)")
  endif()
else()
  list(APPEND ah_kc_missing "clang++-14 (clang-14)")
endif()

if(ah_kc_missing)
  list(JOIN ah_kc_missing ", " ah_kc_missing)
  if(ah_kc_mode STREQUAL "ON")
    message(FATAL_ERROR "ANYHIP_KERNEL_COMPILER=ON needs ${ah_kc_missing}")
  endif()
  message(STATUS "anyhip: kernel compiler not built (missing ${ah_kc_missing}); "
    "the CPU device runs kernels on its fiber engine")
  return()
endif()
set(ANYHIP_KERNEL_COMPILER_FOUND ON)
message(STATUS "anyhip: kernel compiler: LLVM ${LLVM_PACKAGE_VERSION} (${LLVM_DIR}), ${ANYHIP_CLANGXX}")
