# SPDX-License-Identifier: MIT
# hipconfig agrees with hipcc and the headers: --version is the HIP version
# in include/hip/hip_version.h and the one hipcc --version reports; --platform,
# --compiler, --runtime print one word; --cpp_config holds the include path;
# --kernel-compiler prints an existing plugin or none; an unknown option
# fails. Inputs: HIPCC HIPCONFIG INCLUDE.
file(READ ${INCLUDE}/hip/hip_version.h h)
foreach(part MAJOR MINOR PATCH)
  string(REGEX MATCH "#define HIP_VERSION_${part} ([0-9]+)" m "${h}")
  set(${part} ${CMAKE_MATCH_1})
endforeach()
set(want "${MAJOR}.${MINOR}.${PATCH}")

execute_process(COMMAND ${HIPCONFIG} --version OUTPUT_VARIABLE v RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT v STREQUAL want)
  message(FATAL_ERROR "hipconfig --version printed '${v}' (exit ${rc}), expected '${want}'")
endif()
execute_process(COMMAND ${HIPCC} --version OUTPUT_VARIABLE hv)
if(NOT hv MATCHES "HIP version: ${want}\n")
  message(FATAL_ERROR "hipcc --version does not report HIP ${want}:\n${hv}")
endif()
foreach(opt --platform --compiler --runtime)
  execute_process(COMMAND ${HIPCONFIG} ${opt} OUTPUT_VARIABLE w RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT w MATCHES "^[a-z]+$")
    message(FATAL_ERROR "hipconfig ${opt} printed '${w}' (exit ${rc})")
  endif()
endforeach()
execute_process(COMMAND ${HIPCONFIG} --cpp_config OUTPUT_VARIABLE c)
get_filename_component(real_include ${INCLUDE} REALPATH)
string(FIND "${c}" "-I${INCLUDE}" at1)
string(FIND "${c}" "-I${real_include}" at2)
if(at1 EQUAL -1 AND at2 EQUAL -1)
  message(FATAL_ERROR "hipconfig --cpp_config lacks -I${INCLUDE}: '${c}'")
endif()
# --kernel-compiler: the plugin hipcc would load (an existing file), or none,
# and none when hipcc's switch is off.
execute_process(COMMAND ${HIPCONFIG} --kernel-compiler OUTPUT_VARIABLE kc RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT (kc STREQUAL "none" OR (kc MATCHES "anyhip-kernel-compiler\\.so$"
                                                  AND EXISTS "${kc}")))
  message(FATAL_ERROR "hipconfig --kernel-compiler printed '${kc}' (exit ${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env HIPCC_KERNEL_COMPILER=0
  ${HIPCONFIG} --kernel-compiler OUTPUT_VARIABLE kc)
if(NOT kc STREQUAL "none")
  message(FATAL_ERROR "hipconfig --kernel-compiler with HIPCC_KERNEL_COMPILER=0 printed '${kc}'")
endif()
execute_process(COMMAND ${HIPCONFIG} --no-such-option RESULT_VARIABLE rc
  OUTPUT_QUIET ERROR_QUIET)
if(rc EQUAL 0)
  message(FATAL_ERROR "hipconfig accepted an unknown option")
endif()
