# SPDX-License-Identifier: MIT
# anyhip_hip_executable(<name> SOURCES <files...> [FLAGS <hipcc flags...>] [DEPENDS <headers...>]
#                       [LIBS <-lname...>])  (LIBS after the sources, where the link wants them)
# Builds a HIP program with the hipcc of this build tree, the way a user would.
# The NVIDIA pass (nvcc) runs only when NVIDIA is among ANYHIP_TEST_DEVICES:
# it is slow, and useless where the programs will only run on the CPU.
if("nvidia" IN_LIST ANYHIP_TEST_DEVICES)
  set(ANYHIP_PROGRAM_OFFLOAD "")
else()
  set(ANYHIP_PROGRAM_OFFLOAD "--offload-arch=cpu")
endif()
# This build's hipcc as the build runs it (ANYHIP_HIPCC), and what such a
# command depends on: hipcc, libanyhip and, when built, the kernel compiler's
# plugin that hipcc's CPU pass loads. Without the kernel compiler, the
# configure said so once: the build's own compiles do not repeat hipcc's note.
set(ANYHIP_HIPCC $<TARGET_FILE:hipcc>)
set(ANYHIP_HIPCC_DEPENDS hipcc anyhip)
if(TARGET anyhip_kernel_compiler)
  list(APPEND ANYHIP_HIPCC_DEPENDS anyhip_kernel_compiler)
else()
  set(ANYHIP_HIPCC ${CMAKE_COMMAND} -E env HIPCC_KERNEL_COMPILER=0 $<TARGET_FILE:hipcc>)
endif()
function(anyhip_hip_executable name)
  cmake_parse_arguments(ARG "" "" "SOURCES;FLAGS;DEPENDS;LIBS" ${ARGN})
  list(PREPEND ARG_FLAGS ${ANYHIP_PROGRAM_OFFLOAD})
  set(out ${CMAKE_CURRENT_BINARY_DIR}/${name})
  set(srcs "")
  foreach(s ${ARG_SOURCES})
    get_filename_component(abs ${s} ABSOLUTE)
    list(APPEND srcs ${abs})
  endforeach()
  file(GLOB_RECURSE hip_headers CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/include/*.h
       ${PROJECT_SOURCE_DIR}/include/*.hpp)
  add_custom_command(OUTPUT ${out}
    COMMAND ${ANYHIP_HIPCC} ${ARG_FLAGS} -o ${out} ${srcs} ${ARG_LIBS}
    DEPENDS ${ANYHIP_HIPCC_DEPENDS} ${srcs} ${hip_headers} ${ARG_DEPENDS}
    COMMENT "hipcc ${name}"
    VERBATIM)
  add_custom_target(${name}_build ALL DEPENDS ${out})
endfunction()

# anyhip_add_device_test(<name> <command...>): one ctest entry per device in
# ANYHIP_TEST_DEVICES, named <device>/<name>, labelled by device; exit 77 = skip.
function(anyhip_add_device_test name)
  foreach(dev ${ANYHIP_TEST_DEVICES})
    add_test(NAME ${dev}/${name} COMMAND ${ARGN})
    set_tests_properties(${dev}/${name} PROPERTIES LABELS ${dev}
      ENVIRONMENT "ANYHIP_DEVICES=${dev}" SKIP_RETURN_CODE 77 TIMEOUT 300
      SKIP_REGULAR_EXPRESSION "skipped: ")
  endforeach()
endfunction()
