# SPDX-License-Identifier: MIT
# Install rules of the package: a CMake package named hip (ROCm's name, so
# find_package(hip) finds anyhip: hip::host, hip::device, HIP_VERSION, ...),
# a pkg-config file, and run paths that keep the installed tree relocatable.
# Included at the end of the top-level CMakeLists.txt; docs/install.md is the
# user's side of it.
include(CMakePackageConfigHelpers)

# The package's version is the HIP version anyhip mirrors, as ROCm's package
# reports its HIP version. Unlike ROCm's (same major version only), any older
# request is accepted: find_package(hip 5.2) in a ROCm 5 project finds it.
file(STRINGS ${PROJECT_SOURCE_DIR}/include/hip/hip_version.h ah_version_lines
  REGEX "^#define HIP_VERSION_(MAJOR|MINOR|PATCH) ")
foreach(part MAJOR MINOR PATCH)
  string(REGEX REPLACE ".*HIP_VERSION_${part} +([0-9]+).*" "\\1" ah_hip_${part}
    "${ah_version_lines}")
endforeach()
set(ANYHIP_HIP_VERSION "${ah_hip_MAJOR}.${ah_hip_MINOR}.${ah_hip_PATCH}")
if(NOT ANYHIP_HIP_VERSION MATCHES "^[0-9]+\\.[0-9]+\\.[0-9]+$")
  message(FATAL_ERROR "cannot read the HIP version from include/hip/hip_version.h")
endif()

# Installed programs find libanyhip next to them ($ORIGIN), wherever the tree
# is moved; the build tree keeps its own absolute run path.
foreach(t hipInfo hipconfig hipcc)
  if(TARGET ${t})
    set_target_properties(${t} PROPERTIES INSTALL_RPATH "\$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
  endif()
endforeach()
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_BINDIR}"
   OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  message(WARNING "absolute CMAKE_INSTALL_*DIR: the installed tree will not be relocatable")
endif()

# The real file and soname of libanyhip, as src/CMakeLists.txt names them.
get_target_property(ah_lib_version anyhip VERSION)
get_target_property(ah_lib_soversion anyhip SOVERSION)
set(ah_lib_base ${CMAKE_SHARED_LIBRARY_PREFIX}anyhip${CMAKE_SHARED_LIBRARY_SUFFIX})
set(ANYHIP_LIB_FILE ${ah_lib_base}.${ah_lib_version})
set(ANYHIP_LIB_SONAME ${ah_lib_base}.${ah_lib_soversion})

set(ah_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/hip)
set(ah_pkg_dir ${CMAKE_BINARY_DIR}/package)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/hip-config.cmake.in
  ${ah_pkg_dir}/hip-config.cmake
  INSTALL_DESTINATION ${ah_cmake_dir}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(${ah_pkg_dir}/hip-config-version.cmake
  VERSION ${ANYHIP_HIP_VERSION} COMPATIBILITY AnyNewerVersion)
install(FILES ${ah_pkg_dir}/hip-config.cmake ${ah_pkg_dir}/hip-config-version.cmake
  DESTINATION ${ah_cmake_dir})
install(PROGRAMS ${PROJECT_SOURCE_DIR}/cmake/hipcc-launcher.sh DESTINATION ${ah_cmake_dir})
# find_package(hiprand) and find_package(hipcub), as with ROCm: each loads
# the hip package, which defines hip::hiprand and hip::hipcub.
foreach(ah_lib hiprand hipcub)
  install(FILES ${PROJECT_SOURCE_DIR}/cmake/lib-config.cmake
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/${ah_lib} RENAME ${ah_lib}-config.cmake)
endforeach()

# pkg-config: relative to the .pc file, so the tree stays relocatable.
file(RELATIVE_PATH ah_pc_to_prefix ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig
  ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" ah_pc_to_prefix "${ah_pc_to_prefix}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/anyhip.pc.in ${ah_pkg_dir}/anyhip.pc @ONLY)
install(FILES ${ah_pkg_dir}/anyhip.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# CMake's HIP language (enable_language(HIP)): CMake wants a clang++ as the
# HIP compiler, refuses any path with "hipcc" in it, asks it for the ROCm root
# (-v -print-targets) and loads <root>/lib/cmake/hip-lang. So the install has
# hipcc under ROCm's name for it, <prefix>/llvm/bin/clang++ (a relative link:
# the tree stays relocatable; hipconfig --hipclangpath prints that directory,
# where CMake looks first), the hip-lang package under lib/ (CMake looks
# nowhere else, whatever the libdir), and rocm_agent_enumerator, which CMake
# runs for the default CMAKE_HIP_ARCHITECTURES. docs/install.md.
if(TARGET hipcc)
  file(RELATIVE_PATH ah_llvm_to_bin ${CMAKE_INSTALL_PREFIX}/llvm/bin
    ${CMAKE_INSTALL_FULL_BINDIR})
  file(MAKE_DIRECTORY ${ah_pkg_dir}/llvm/bin)
  file(CREATE_LINK ${ah_llvm_to_bin}/hipcc ${ah_pkg_dir}/llvm/bin/clang++ SYMBOLIC)
  install(FILES ${ah_pkg_dir}/llvm/bin/clang++ DESTINATION llvm/bin)
  install(PROGRAMS ${PROJECT_SOURCE_DIR}/cmake/rocm_agent_enumerator.sh
    DESTINATION ${CMAKE_INSTALL_BINDIR} RENAME rocm_agent_enumerator)
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/hip-lang-config.cmake.in
  ${ah_pkg_dir}/hip-lang-config.cmake
  INSTALL_DESTINATION lib/cmake/hip-lang
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR)
write_basic_package_version_file(${ah_pkg_dir}/hip-lang-config-version.cmake
  VERSION ${ANYHIP_HIP_VERSION} COMPATIBILITY AnyNewerVersion)
install(FILES ${ah_pkg_dir}/hip-lang-config.cmake ${ah_pkg_dir}/hip-lang-config-version.cmake
  DESTINATION lib/cmake/hip-lang)
