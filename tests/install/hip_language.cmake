# SPDX-License-Identifier: MIT
# Part 6 of tests/install/run.cmake, the install/hip_language test: the
# project in hip_language/, written for CMake's HIP language
# (project(... LANGUAGES CXX HIP), .hip sources, LANGUAGE HIP, CMAKE_HIP_*),
# configured, built and run against the moved install with no change to it:
#  a. the HIP compiler named, <prefix>/llvm/bin/clang++ (ROCm's
#     -DCMAKE_HIP_COMPILER=$ROCM_PATH/llvm/bin/clang++), architectures given;
#  b. nothing named, <prefix>/bin on PATH: CMake finds the compiler through
#     hipconfig --hipclangpath and the architectures through rocm_agent_enumerator.
# With an MPI, the allreduce example is built as a HIP-language target linking
# MPI::MPI_CXX and run by mpiexec with 2 ranks.
# run() and expect() come from run.cmake; @P@ in a pattern is the prefix.
if(CMAKE_VERSION VERSION_LESS 3.21)
  message(FATAL_ERROR "CMake ${CMAKE_VERSION} has no HIP language (3.21 or newer)")
endif()
# hipcc as clang++ compiles with a clang (CMake tells a HIP compiler's kind
# from its macros): without one this part cannot pass.
find_program(ah_clang NAMES clang++-14 clang++)
if(NOT ah_clang)
  message("install/hip_language: skipped: no clang++ on PATH (Debian: apt-get install clang-14),"
    " which CMake's HIP language needs as hipcc's compiler (docs/install.md)")
  return()
endif()

set(gen_args -G ${GENERATOR})
if(MAKE_PROGRAM)
  list(APPEND gen_args -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
endif()
if(GPU_TARGETS)
  set(ENV{HIPCC_NVCC} none) # rocm_agent_enumerator then lists cpu alone
  set(archs -DCMAKE_HIP_ARCHITECTURES=${GPU_TARGETS})
else()
  set(archs -DCMAKE_HIP_ARCHITECTURES=cpu)
endif()
set(project ${CMAKE_CURRENT_LIST_DIR}/hip_language)

function(build_hip_language dir)
  run(out ${CMAKE_COMMAND} -S ${project} -B ${dir} ${gen_args} -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_PREFIX_PATH=${prefix} ${ARGN})
  expect("hip_language configure" "${out}" "The HIP compiler identification is Clang")
  expect("hip_language configure" "${out}"
    "hip_language: compiler @P@/llvm/bin/clang\\+\\+ id Clang [0-9.]+; rocm root @P@;")
  set(configure_out "${out}")
  set(configure_out "${out}" PARENT_SCOPE)
  run(out ${CMAKE_COMMAND} --build ${dir} -- VERBOSE=1)
  # .hip by extension and the .cpp marked LANGUAGE HIP both went through it.
  expect("hip_language build" "${out}" "llvm/bin/clang\\+\\+ [^\n]*-x hip -c [^\n]*lang_vecops\\.hip")
  expect("hip_language build" "${out}" "llvm/bin/clang\\+\\+ [^\n]*-x hip -c [^\n]*lang_app\\.cpp")
  expect("hip_language build" "${out}" "-std=gnu\\+\\+17 [^\n]*lang_app\\.cpp")
  run(out ${dir}/lang_app)
  expect("lang_app" "${out}" "^lang_app: block_sum ok saxpy ok")
  run(out ${dir}/lang_host)
  expect("lang_host" "${out}" "^lang_host: devices>=1 saxpy ok")
  if(configure_out MATCHES "hip_language: MPI [^,]*, mpiexec ([^\n]+)")
    set(mpiexec "${CMAKE_MATCH_1}")
    set(ENV{OMPI_ALLOW_RUN_AS_ROOT} 1)
    set(ENV{OMPI_ALLOW_RUN_AS_ROOT_CONFIRM} 1)
    set(ENV{OMPI_MCA_btl_vader_single_copy_mechanism} none)
    run(out ${mpiexec} -n 2 ${dir}/lang_mpi)
    expect("lang_mpi" "${out}" "allreduce: 2 ranks .*: PASSED")
  else()
    message("install/hip_language: no MPI: the MPI target was not tested")
  endif()
endfunction()

# a. The compiler and the architectures named on the command line.
build_hip_language(${WORK_DIR}/hip-lang-named -DCMAKE_HIP_COMPILER=${prefix}/llvm/bin/clang++
  ${archs})
string(REPLACE "-DCMAKE_HIP_ARCHITECTURES=" "" want_archs "${archs}")
expect("hip_language architectures" "${configure_out}" "architectures '${want_archs}'")

# b. Nothing named: CMake's own search, with the install's bin/ on PATH.
set(ENV{PATH} "${prefix}/bin:$ENV{PATH}")
unset(ENV{HIPCXX})
build_hip_language(${WORK_DIR}/hip-lang-found)
expect("hip_language architectures" "${configure_out}" "architectures 'cpu[^']*'")
message("install/hip_language: ok")
