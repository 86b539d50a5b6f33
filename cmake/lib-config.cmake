# SPDX-License-Identifier: MIT
# Installed as <libdir>/cmake/hiprand/hiprand-config.cmake and
# <libdir>/cmake/hipcub/hipcub-config.cmake: find_package(hiprand) and
# find_package(hipcub) as with ROCm. Both load anyhip's hip package beside
# them, which defines hip::hiprand and hip::hipcub (docs/libraries.md).
include(CMakeFindDependencyMacro)
find_dependency(hip CONFIG PATHS "${CMAKE_CURRENT_LIST_DIR}/../hip" NO_DEFAULT_PATH)
get_filename_component(_ah_name "${CMAKE_CURRENT_LIST_FILE}" NAME)
string(REPLACE "-config.cmake" "" _ah_name "${_ah_name}")
if(NOT TARGET hip::${_ah_name})
  set(${_ah_name}_FOUND FALSE)
  set(${_ah_name}_NOT_FOUND_MESSAGE "anyhip was installed without hip::${_ah_name}")
else()
  set(${_ah_name}_LIBRARIES hip::${_ah_name})
  set(${_ah_name}_INCLUDE_DIRS "${hip_INCLUDE_DIR}")
endif()
unset(_ah_name)
