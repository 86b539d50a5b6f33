# SPDX-License-Identifier: MIT
# The install/find_package test (cmake -P; tests/install/CMakeLists.txt passes
# the variables). Installs BUILD_DIR into WORK_DIR/stage, renames that to
# WORK_DIR/prefix so that nothing can lean on the path it was installed to, and
# builds and runs the consumer project against it three ways: the package's
# helpers with the usual compilers, hipcc as the C++ compiler, and pkg-config.
cmake_minimum_required(VERSION 3.20)

# hipcc and hipconfig must find the tree from their own place, not from these.
unset(ENV{ANYHIP_PATH})
unset(ENV{HIP_PATH})
unset(ENV{CMAKE_PREFIX_PATH})

set(stage ${WORK_DIR}/stage)
set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

# run(<name> <command...>): runs a command, stops the test if it fails, and
# leaves its output (stdout, then stderr) in the variable <name>.
function(run name)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    list(JOIN ARGN " " cmd)
    message(FATAL_ERROR "failed (${rc}): ${cmd}\n${out}${err}")
  endif()
  set(${name} "${out}${err}" PARENT_SCOPE)
endfunction()

# expect(<what> <text> <regex>): @P@ in the regex stands for the prefix, quoted.
string(REGEX REPLACE "([][+.*()^$?|\\])" "\\\\\\1" prefix_re "${prefix}")
function(expect what text pattern)
  string(REPLACE "@P@" "${prefix_re}" pattern "${pattern}")
  if(NOT text MATCHES "${pattern}")
    message(FATAL_ERROR "${what}: expected to match '${pattern}', got:\n${text}")
  endif()
endfunction()

# 1. Install, check the layout, move the tree. (Both install tests do; they
# hold the resource lock anyhip_install, since the build's manifest is shared.)
set(config_args "")
if(CONFIG)
  set(config_args --config ${CONFIG})
endif()
# cmake --install rewrites the build's install_manifest.txt: keep the user's.
set(manifest ${BUILD_DIR}/install_manifest.txt)
if(EXISTS ${manifest})
  file(RENAME ${manifest} ${WORK_DIR}/install_manifest.user)
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${stage} ${config_args}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(REMOVE ${manifest})
if(EXISTS ${WORK_DIR}/install_manifest.user)
  file(RENAME ${WORK_DIR}/install_manifest.user ${manifest})
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc}):\n${out}${err}")
endif()
foreach(f bin/hipcc bin/hipconfig bin/hipInfo include/hip/hip_runtime.h
    include/hip/hip_runtime_api.h include/hiprand/hiprand_kernel.h include/hiprand/hiprand.h
    include/hipcub/hipcub.hpp ${LIBDIR}/libhiprand.so ${LIBDIR}/cmake/hiprand/hiprand-config.cmake
    ${LIBDIR}/cmake/hipcub/hipcub-config.cmake ${LIBDIR}/libanyhip.so
    ${LIBDIR}/cmake/hip/hip-config.cmake
    ${LIBDIR}/cmake/hip/hip-config-version.cmake ${LIBDIR}/pkgconfig/anyhip.pc
    llvm/bin/clang++ bin/rocm_agent_enumerator lib/cmake/hip-lang/hip-lang-config.cmake)
  if(NOT EXISTS ${stage}/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()
file(RENAME ${stage} ${prefix})

# The HIP-language test stops after its own part (6.), below.
if(PART STREQUAL "hip_language")
  include(${CMAKE_CURRENT_LIST_DIR}/hip_language.cmake)
  return()
endif()

# 2. The installed programs find their tree where it is now.
run(out ${prefix}/bin/hipconfig --path)
expect("hipconfig --path" "${out}" "^@P@$")
run(out ${prefix}/bin/hipconfig --check)
run(out ${prefix}/bin/hipconfig --cpp_config)
expect("hipconfig --cpp_config" "${out}" "-I@P@/include")
run(out ${prefix}/bin/hipInfo)
expect("hipInfo" "${out}" "HIP [0-9]+\\.[0-9]+")
run(out ${prefix}/bin/hipcc "-###" -o app ${CONSUMER}/hip_app.hip)
expect("hipcc -###" "${out}" "-I@P@/include")

# 3. The consumer, with the usual compilers: hip::host for C, anyhip_add_*
# for HIP sources. The C++ compiler is a logging wrapper, to show that hipcc
# ran the compiler CMake chose; then again with a compiler launcher set (as
# ccache would be), which must stay in the chain.
set(log ${WORK_DIR}/cxx.log)
file(WRITE ${WORK_DIR}/cxx-wrap "#!/bin/sh\necho \"compiler: $*\" >> '${log}'\n"
  "exec '${CXX_COMPILER}' \"$@\"\n")
file(WRITE ${WORK_DIR}/launch-wrap "#!/bin/sh\necho \"launcher: $*\" >> '${log}'\nexec \"$@\"\n")
file(CHMOD ${WORK_DIR}/cxx-wrap ${WORK_DIR}/launch-wrap
  PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
set(gen_args -G ${GENERATOR})
if(MAKE_PROGRAM)
  list(APPEND gen_args -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
endif()
if(GPU_TARGETS)
  list(APPEND gen_args -DGPU_TARGETS=${GPU_TARGETS})
  set(ENV{HIPCC_NVCC} none) # hipcc as CMAKE_CXX_COMPILER also in CMake's checks
endif()

function(build_consumer dir)
  run(out ${CMAKE_COMMAND} -S ${CONSUMER} -B ${dir} ${gen_args} -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_PREFIX_PATH=${prefix} ${ARGN})
  expect("consumer configure" "${out}" "consumer: hip [0-9.]+ .* from @P@/")
  run(out ${CMAKE_COMMAND} --build ${dir})
  run(out ${dir}/host_app)
  expect("host_app" "${out}" "host_app: devices>=1 copy ok")
  run(out ${dir}/hip_app)
  expect("hip_app" "${out}" "^hip_app: block_sum ok saxpy ok")
  run(out ${dir}/rand_app)
  expect("rand_app" "${out}" "^rand_app: ok")
  if(NOT "-DCONSUMER_PLAIN_TARGETS=ON" IN_LIST ARGN) # the consumer makes it otherwise
    run(out ${dir}/findhip_app)
    expect("findhip_app" "${out}" "^findhip_app: block_sum ok saxpy ok")
  endif()
endfunction()

build_consumer(${WORK_DIR}/helpers -DCMAKE_CXX_COMPILER=${WORK_DIR}/cxx-wrap)
file(READ ${log} logged)
expect("compiler log" "${logged}" "compiler: [^\n]*vecops-hip-cpu\\.cpp")
expect("compiler log" "${logged}" "compiler: [^\n]*hip_app-hip-cpu\\.cpp")
file(REMOVE ${log})
build_consumer(${WORK_DIR}/helpers-launcher -DCMAKE_CXX_COMPILER=${WORK_DIR}/cxx-wrap
  -DCMAKE_CXX_COMPILER_LAUNCHER=${WORK_DIR}/launch-wrap)
file(READ ${log} logged)
expect("launcher log" "${logged}" "launcher: [^\n]*cxx-wrap [^\n]*hip_app-hip-cpu\\.cpp")
expect("launcher log" "${logged}" "compiler: [^\n]*hip_app-hip-cpu\\.cpp")

# 4. hipcc as the C++ compiler, plain targets linking hip::device (ROCm's way).
build_consumer(${WORK_DIR}/hipcc-cxx -DCMAKE_CXX_COMPILER=${prefix}/bin/hipcc
  -DCONSUMER_PLAIN_TARGETS=ON)

# 5. pkg-config, as a Makefile would use it.
find_program(PKG_CONFIG pkg-config)
if(PKG_CONFIG)
  set(ENV{PKG_CONFIG_PATH} ${prefix}/${LIBDIR}/pkgconfig)
  run(flags ${PKG_CONFIG} --cflags --libs anyhip)
  separate_arguments(flags UNIX_COMMAND "${flags}")
  run(out ${C_COMPILER} ${CONSUMER}/host_app.c ${flags} -Wl,-rpath,${prefix}/${LIBDIR}
    -o ${WORK_DIR}/host_app_pc)
  run(out ${WORK_DIR}/host_app_pc)
  expect("host_app (pkg-config)" "${out}" "host_app: devices>=1 copy ok")
else()
  message("pkg-config not found: its part was not tested")
endif()
message("install/find_package: ok")
