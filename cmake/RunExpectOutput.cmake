# SPDX-License-Identifier: MIT
# Runs PROGRAM; fails unless it exits 0 (77 passes through as "skipped") and
# every line of EXPECTED appears in its standard output, in order.
execute_process(COMMAND ${PROGRAM} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(rc EQUAL 77)
  message(FATAL_ERROR "skipped: ${PROGRAM} exited 77")  # SKIP_REGULAR_EXPRESSION makes this a skip
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} exited with ${rc}")
endif()
# file(STRINGS) splits into a CMake list: a line with an unmatched '[' would
# swallow the lines after it, so expected lines stop before such a bracket.
file(STRINGS ${EXPECTED} lines)
set(rest "${out}")
foreach(line ${lines})
  string(FIND "${rest}" "${line}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "expected line not found (in order): ${line}")
  endif()
  string(LENGTH "${line}" len)
  math(EXPR next "${at} + ${len}")
  string(SUBSTRING "${rest}" ${next} -1 rest)
endforeach()
