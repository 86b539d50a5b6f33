# SPDX-License-Identifier: MIT
# hipcc end to end: builds programs from e2e/ with hipcc and runs them.
#   CASE=run          vector_add.hip compiled and linked in one command (-v), run;
#                     hipcc's temporary directory must be gone afterwards
#   CASE=separate     -c for each file (HIP, C), a separate link, and the
#                     kernels in a -shared -fPIC library
#   CASE=diagnostics  a compile error names the user's file and line, the exit
#                     status is the compiler's, no temporary file is left
#   CASE=deduce       template kernels launched without template arguments
#                     (deduce.hip, built with -Wall -Wextra -Werror), run
#   CASE=deduce_error arguments that deduce nothing: anyhip's message and the
#                     user's line
#   CASE=kernel_compiler  with the kernel compiler (skipped without it): -v
#                     shows clang with -fpass-plugin and the macro, no note,
#                     the program runs; --no-kernel-compiler compiles without
#                     it and says nothing; a missing plugin gives exactly one
#                     note for two HIP sources
#   CASE=variables    device variables in a stripped program (-s), found
#                     through hipcc's registration; without it (stripped,
#                     -DANYHIP_NO_VARIABLE_REGISTRATION) they are not
#   CASE=input_safety an output path that is one of the inputs is refused
#                     (-o x.hip x.hip, -c -o x.hip x.hip) and the source is kept;
#                     an unterminated /* at the end of a file is an error
#   CASE=shared_size  a static __shared__ array over the device's 64 KiB is a
#                     compile error naming the user's line (a kernel's and a
#                     template's); arrays that fit compile and run
#   CASE=signals      SIGTERM or SIGINT to hipcc while its compiler runs (HIPCC_CXX
#                     is a script that starts a grandchild, as g++ starts cc1plus,
#                     and waits): hipcc dies of that signal, the compiler and its
#                     child are gone, no temporary file is left
#   CASE=long_line    300 errors on one 3 KB line (g++): no line of hipcc's
#                     stderr is over 1000 bytes (the source line is shown cut,
#                     not whole under every error), every error is reported
#   CASE=nvcc_errors  with nvcc (skipped without it; HIPCC_NVCC or the usual
#                     places): a syntax error is reported once, by the host
#                     compiler naming the user's file; nvcc does not run (no
#                     prepared -hip-nvidia.cu named, no "CPU devices only"
#                     warning). An error only nvcc finds (a host function
#                     called in a kernel) still gets nvcc's message and the
#                     warning, and the object builds
#   CASE=headers      launches and kernels in user headers (e2e/headers/), one
#                     command and separate compiles; the .d file names them
#   CASE=rdc          relocatable device code (e2e/rdc/): a __device__ function
#                     and variable of another source; without -fgpu-rdc the
#                     link fails naming the function; with it (one command,
#                     -c then a link, a static library named before the
#                     program, --relocatable-device-code=true) the program
#                     runs; a library of host code from --emit-static-lib
#                     links with the host compiler and -lanyhip; the refused
#                     flags and inputs name themselves
#   CASE=rdc_nvcc     with nvcc (skipped without it): the same builds through
#                     the NVIDIA pass (--offload-arch=sm_90): objects carry
#                     __nv_relfatbin, the program one linked .nv_fatbin;
#                     without -fgpu-rdc nvcc's unresolved symbol fails it
#   CASE=<dir>        e2e/<dir>/*.hip built together (-s), run (header_vars)
#   CASE=<name>       any other: e2e/<name>.hip built with -Wall -Wextra
#                     -Werror, run, PASSED expected (ggl_macro, spelling, ...)
# Inputs: HIPCC SRC WORK CASE.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/tmp)
set(ENV{TMPDIR} ${WORK}/tmp)

# Runs a command; fails the test unless it exits 0. Sets out/err in the caller.
function(must)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${WORK}
    RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "`${cmd}` exited with ${rc}\nstdout:\n${o}\nstderr:\n${e}")
  endif()
  set(out "${o}" PARENT_SCOPE)
  set(err "${e}" PARENT_SCOPE)
endfunction()

function(expect_passed program)
  must(${program})
  if(NOT out MATCHES "PASSED")
    message(FATAL_ERROR "${program} did not print PASSED:\n${out}")
  endif()
endfunction()

function(expect_no_temporaries)
  file(GLOB left ${WORK}/tmp/*)
  if(left)
    message(FATAL_ERROR "hipcc left temporary files behind: ${left}")
  endif()
endfunction()

if(CASE STREQUAL "run")
  must(${HIPCC} -v -O1 ${SRC}/vector_add.hip -o ${WORK}/vector_add)
  foreach(step "--ah-prepare" "-include hip/hip_runtime.h" "-lanyhip")
    if(NOT err MATCHES "${step}")
      message(FATAL_ERROR "hipcc -v did not print a step with '${step}':\n${err}")
    endif()
  endforeach()
  expect_no_temporaries()
  expect_passed(${WORK}/vector_add)
elseif(CASE STREQUAL "separate")
  must(${HIPCC} -c ${SRC}/kernels.hip -o ${WORK}/kernels.o)
  must(${HIPCC} -c ${SRC}/main_separate.hip)
  must(${HIPCC} -c ${SRC}/helper.c -o ${WORK}/helper.o)
  must(${HIPCC} ${WORK}/main_separate.o ${WORK}/kernels.o ${WORK}/helper.o -o ${WORK}/app)
  expect_passed(${WORK}/app)
  must(${HIPCC} -shared -fPIC ${SRC}/kernels.hip -o ${WORK}/libkernels.so)
  must(${HIPCC} ${SRC}/main_separate.hip ${WORK}/helper.o -L${WORK} -lkernels
    -Wl,-rpath,${WORK} -o ${WORK}/app_shared)
  expect_passed(${WORK}/app_shared)
  expect_no_temporaries()
elseif(CASE STREQUAL "diagnostics")
  execute_process(COMMAND ${HIPCC} -c ${SRC}/type_error.hip -o ${WORK}/type_error.o
    WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc ERROR_VARIABLE e)
  if(rc EQUAL 0)
    message(FATAL_ERROR "hipcc compiled type_error.hip")
  endif()
  if(NOT e MATCHES "type_error\\.hip:10:[0-9]+: error: .*undeclared_name")
    message(FATAL_ERROR "the error does not point at type_error.hip:10:\n${e}")
  endif()
  if(e MATCHES "hip-cpu\\.cpp")
    message(FATAL_ERROR "the error names hipcc's prepared file:\n${e}")
  endif()
  expect_no_temporaries()
elseif(CASE STREQUAL "deduce")
  must(${HIPCC} -Wall -Wextra -Werror -O1 ${SRC}/deduce.hip -o ${WORK}/deduce)
  expect_passed(${WORK}/deduce)
  expect_no_temporaries()
elseif(CASE STREQUAL "shared_size")
  must(${HIPCC} ${SRC}/shared_size.hip -o ${WORK}/shared_size)
  must(${WORK}/shared_size)
  foreach(def TOO_BIG:22 TEMPLATE_TOO_BIG:15)
    string(REPLACE ":" ";" parts ${def})
    list(GET parts 0 macro)
    list(GET parts 1 line)
    execute_process(COMMAND ${HIPCC} -D${macro} -c ${SRC}/shared_size.hip -o ${WORK}/x.o
      WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc ERROR_VARIABLE e)
    if(rc EQUAL 0)
      message(FATAL_ERROR "hipcc compiled shared_size.hip with -D${macro}")
    endif()
    foreach(want "shared_size\\.hip:${line}:"
        "__shared__ '(big|buf)' is larger than the device's shared memory per block")
      if(NOT e MATCHES "${want}")
        message(FATAL_ERROR "-D${macro}: the error does not say '${want}':\n${e}")
      endif()
    endforeach()
  endforeach()
elseif(CASE STREQUAL "deduce_error")
  execute_process(COMMAND ${HIPCC} -c ${SRC}/deduce_error.hip -o ${WORK}/deduce_error.o
    WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc ERROR_VARIABLE e)
  if(rc EQUAL 0)
    message(FATAL_ERROR "hipcc compiled deduce_error.hip")
  endif()
  foreach(want "deduce_error\\.hip:10:[0-9]+:"
      "do not deduce the template kernel's template arguments"
      "name them: k<T><<<grid, block>>>")
    if(NOT e MATCHES "${want}")
      message(FATAL_ERROR "the error does not say '${want}':\n${e}")
    endif()
  endforeach()
  expect_no_temporaries()
elseif(CASE STREQUAL "kernel_compiler")
  execute_process(COMMAND ${HIPCC} --ah-kernel-compiler OUTPUT_VARIABLE kc)
  if(kc MATCHES "^none")
    message("skipped: no kernel compiler: ${kc}")
    return()
  endif()
  must(${HIPCC} -v -O1 ${SRC}/vector_add.hip -o ${WORK}/vector_add)
  foreach(want "-fpass-plugin=[^ ]*anyhip-kernel-compiler\\.so" "-D__ANYHIP_KERNEL_COMPILER__=1")
    if(NOT err MATCHES "${want}")
      message(FATAL_ERROR "hipcc -v does not show '${want}':\n${err}")
    endif()
  endforeach()
  if(err MATCHES "note:")
    message(FATAL_ERROR "hipcc printed a note with the kernel compiler on:\n${err}")
  endif()
  expect_passed(${WORK}/vector_add)
  must(${HIPCC} -v --no-kernel-compiler -O1 ${SRC}/vector_add.hip -o ${WORK}/vector_add_off)
  if(err MATCHES "fpass-plugin|__ANYHIP_KERNEL_COMPILER__|note:")
    message(FATAL_ERROR "--no-kernel-compiler still used it, or printed a note:\n${err}")
  endif()
  expect_passed(${WORK}/vector_add_off)
  # Optimisations that change no result, seen in the compiler's debug lines.
  set(ENV{ANYHIP_KERNEL_COMPILER_DEBUG} 1)
  must(${HIPCC} --offload-arch=cpu -O2 -c ${SRC}/block_loop_opts.hip -o ${WORK}/block_loop_opts.o)
  unset(ENV{ANYHIP_KERNEL_COMPILER_DEBUG})
  foreach(want "tree_sum[^:]*: [0-9]+ thread loops split at a uniform bound"
               "warp_sums[^:]*: exchange arrays of 32-bit values"
               "warp0_sum[^:]*: [1-9][0-9]* thread loops split at a uniform bound"
               "warp0_sum[^:]*: block function, [0-9]+ split points, 1 uniform values kept once per block, [0-9]+ shuffles inline, [1-9][0-9]* loop values read again, [1-9][0-9]* regions in lane chunks, 1 halving shuffle loops, 1 count their live threads, [1-9][0-9]* write no pc, 1 masked copies"
               "warp_sums[^:]*: block function, .*, 0 halving shuffle loops, "
               "tree_sum[^:]*: block function, .*, 0 count their live threads, 1 write no pc, 0 masked copies"
               "stride_copy[^:]*: 1 grid-stride loops interchanged with their thread loops"
               "lambda_after_barrier[^:]*: block function, .*, 1 frame arrays"
               "eight_values[^:]*: block function, .*, 8 frame arrays")
    if(NOT err MATCHES "${want}")
      message(FATAL_ERROR "the kernel compiler's debug lines lack '${want}':\n${err}")
    endif()
  endforeach()
  # The same source gives the same object in every compile (eight_values'
  # frame arrays were once emitted in pointer-hash order).
  foreach(k 2 3)
    must(${HIPCC} --offload-arch=cpu -O2 -c ${SRC}/block_loop_opts.hip -o ${WORK}/block_loop_opts${k}.o)
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${WORK}/block_loop_opts.o
      ${WORK}/block_loop_opts${k}.o RESULT_VARIABLE same)
    if(NOT same EQUAL 0)
      message(FATAL_ERROR "two compiles of block_loop_opts.hip gave different objects")
    endif()
  endforeach()
  set(ENV{HIPCC_KERNEL_COMPILER} ${WORK}/no-such-plugin.so)
  must(${HIPCC} -c ${SRC}/kernels.hip ${SRC}/main_separate.hip)
  unset(ENV{HIPCC_KERNEL_COMPILER})
  string(REPLACE ";" "," e "${err}") # the note holds ';', a list separator
  string(REGEX MATCHALL "hipcc: note: [^\n]*\n" notes "${e}")
  list(LENGTH notes n)
  if(NOT n EQUAL 1 OR NOT err MATCHES "kernel compiler .*fiber engine")
    message(FATAL_ERROR "expected one note about the kernel compiler, got:\n${err}")
  endif()
  expect_no_temporaries()
elseif(CASE STREQUAL "variables")
  must(${HIPCC} -Wall -Wextra -Werror -s ${SRC}/variables.hip -o ${WORK}/variables)
  expect_passed(${WORK}/variables)
  must(${HIPCC} -s -DANYHIP_NO_VARIABLE_REGISTRATION ${SRC}/variables.hip -o ${WORK}/unregistered)
  execute_process(COMMAND ${WORK}/unregistered RESULT_VARIABLE rc OUTPUT_VARIABLE o)
  if(NOT rc EQUAL 3 OR NOT o MATCHES "UNREGISTERED")
    message(FATAL_ERROR "a stripped program without the registration found its device "
      "variables (exit ${rc}): the test would not see a missing registration\n${o}")
  endif()
  expect_no_temporaries()
elseif(CASE STREQUAL "input_safety")
  configure_file(${SRC}/vector_add.hip ${WORK}/x.hip COPYONLY)
  file(SHA256 ${WORK}/x.hip before)
  foreach(args "-o;x.hip;x.hip" "-c;-o;x.hip;x.hip" "-c;-o;./x.hip;x.hip")
    execute_process(COMMAND ${HIPCC} ${args} WORKING_DIRECTORY ${WORK}
      RESULT_VARIABLE rc ERROR_VARIABLE e)
    file(SHA256 ${WORK}/x.hip after)
    if(rc EQUAL 0 OR NOT after STREQUAL before)
      message(FATAL_ERROR "hipcc ${args} overwrote its input (exit ${rc}):\n${e}")
    endif()
    if(NOT e MATCHES "output file '[./]*x\\.hip' is the input file")
      message(FATAL_ERROR "hipcc ${args}: no clear error:\n${e}")
    endif()
  endforeach()
  file(WRITE ${WORK}/open_comment.hip "__global__ void k(int *p) { *p = 1; }\n/* never closed\n")
  execute_process(COMMAND ${HIPCC} -c open_comment.hip -o open_comment.o
    WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc ERROR_VARIABLE e)
  if(rc EQUAL 0 OR NOT e MATCHES "open_comment\\.hip:2:[0-9]+: .*unterminated comment")
    message(FATAL_ERROR "an unterminated /* was accepted (exit ${rc}):\n${e}")
  endif()
  expect_no_temporaries()
elseif(CASE STREQUAL "signals")
  file(WRITE ${WORK}/slowcxx.sh "#!/bin/sh
case \" $* \" in
*' -c '*) sleep 300 & echo $! > \"$AH_PIDS.grandchild\"; echo $$ > \"$AH_PIDS.child\"; wait ;;
*) exec g++ \"$@\" ;;
esac
")
  file(CHMOD ${WORK}/slowcxx.sh PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
  foreach(sig TERM INT)
    set(ENV{AH_PIDS} ${WORK}/${sig})
    # A shell's background job starts with SIGINT ignored (no job control),
    # and hipcc keeps an ignored signal ignored: env gives it back.
    execute_process(COMMAND sh -c "
HIPCC_CXX=${WORK}/slowcxx.sh HIPCC_KERNEL_COMPILER=0 env --default-signal=INT ${HIPCC} -c ${SRC}/vector_add.hip -o v.o &
h=$!
i=0
while [ ! -s ${WORK}/${sig}.child ] || [ ! -s ${WORK}/${sig}.grandchild ]; do
  i=$((i+1)); [ $i -gt 600 ] && { echo 'the compiler never started' >&2; kill -KILL $h; exit 2; }
  sleep 0.1
done
kill -${sig} $h
i=0
while kill -0 $h 2>/dev/null && ! grep -q 'State:.*Z' /proc/$h/status 2>/dev/null; do
  i=$((i+1)); [ $i -gt 100 ] && { echo 'hipcc did not end' >&2; kill -KILL $h; break; }
  sleep 0.1
done
wait $h
rc=$?
sleep 0.3
for p in $(cat ${WORK}/${sig}.child) $(cat ${WORK}/${sig}.grandchild); do
  # A zombie waiting for init to reap it has ended.
  if kill -0 $p 2>/dev/null && ! grep -q 'State:.*Z' /proc/$p/status 2>/dev/null; then
    echo \"process $p still runs\" >&2; kill -KILL $p; exit 3
  fi
done
echo \"rc=$rc\"
" WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
    if(sig STREQUAL "TERM")
      set(want "rc=143")
    else()
      set(want "rc=130")
    endif()
    if(NOT rc EQUAL 0 OR NOT o MATCHES "${want}")
      message(FATAL_ERROR "SIG${sig} to hipcc (exit ${rc}, want ${want}):\n${o}\n${e}")
    endif()
  endforeach()
  expect_no_temporaries()
elseif(CASE STREQUAL "long_line")
  set(line "__global__ void k(int *p) {")
  foreach(i RANGE 1 300)
    string(APPEND line " u${i};")
  endforeach()
  file(WRITE ${WORK}/long.hip "${line} }\n")
  set(ENV{HIPCC_KERNEL_COMPILER} 0) # g++, which shows the source line
  execute_process(COMMAND ${HIPCC} -c long.hip -o long.o WORKING_DIRECTORY ${WORK}
    RESULT_VARIABLE rc ERROR_VARIABLE e)
  string(LENGTH "${e}" n)
  string(REGEX MATCHALL "error: [^\n]*u[0-9]+" errors "${e}")
  list(LENGTH errors nerr)
  string(REPLACE ";" "," lines "${e}")
  string(REPLACE "\n" ";" lines "${lines}")
  set(longest 0)
  foreach(l IN LISTS lines)
    string(LENGTH "${l}" ln)
    if(ln GREATER longest)
      set(longest ${ln})
    endif()
  endforeach()
  if(rc EQUAL 0 OR nerr LESS 300 OR longest GREATER 1000)
    string(SUBSTRING "${e}" 0 3000 head)
    message(FATAL_ERROR
      "long line: exit ${rc}, ${nerr} errors, ${n} bytes, a line of ${longest}:\n${head}")
  endif()
  expect_no_temporaries()
elseif(CASE STREQUAL "rdc" OR CASE STREQUAL "rdc_nvcc")
  set(d ${SRC}/rdc)
  set(arch --offload-arch=cpu)
  if(CASE STREQUAL "rdc_nvcc")
    find_program(nvcc NAMES nvcc PATHS /usr/local/cuda/bin /opt/cuda/bin NO_CACHE)
    if(NOT nvcc)
      message("skipped: no nvcc")
      return()
    endif()
    set(ENV{HIPCC_NVCC} ${nvcc})
    set(arch --offload-arch=sm_90)
  endif()
  # Without -fgpu-rdc each source's device code stands alone, as in HIP.
  execute_process(COMMAND ${HIPCC} ${arch} ${d}/main.hip ${d}/devfns.hip -o nordc
    WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(rc EQUAL 0)
    message(FATAL_ERROR "a device function of another source linked without -fgpu-rdc")
  endif()
  if(CASE STREQUAL "rdc" AND NOT e MATCHES
      "undefined reference to `scaled\\.defined_in_another_source\\.needs_fgpu_rdc'")
    message(FATAL_ERROR "the link error does not name the function and -fgpu-rdc:\n${e}")
  endif()
  if(CASE STREQUAL "rdc_nvcc" AND NOT e MATCHES "Unresolved extern function '_Z6scaledi'")
    message(FATAL_ERROR "nvcc did not refuse the unresolved device function:\n${e}")
  endif()
  must(${HIPCC} ${arch} -fgpu-rdc ${d}/main.hip ${d}/devfns.hip -o one)
  must(${HIPCC} ${arch} --relocatable-device-code=true -c ${d}/devfns.hip -o devfns.o)
  must(${HIPCC} ${arch} -fgpu-rdc -c ${d}/main.hip -o main.o)
  must(${HIPCC} ${arch} -fgpu-rdc main.o devfns.o -o separate)
  must(${HIPCC} ${arch} -fgpu-rdc --emit-static-lib ${d}/devfns.hip -o libdevfns.a)
  must(${HIPCC} ${arch} -fgpu-rdc libdevfns.a ${d}/main.hip -o lib_first)
  must(${HIPCC} ${arch} -fgpu-rdc ${d}/main.hip -L. -ldevfns -o lib_flag)
  set(programs one separate lib_first lib_flag)
  if(CASE STREQUAL "rdc_nvcc")
    foreach(f devfns.o libdevfns.a)
      execute_process(COMMAND readelf -S -W ${f} WORKING_DIRECTORY ${WORK} OUTPUT_VARIABLE s)
      if(NOT s MATCHES "__nv_relfatbin" OR s MATCHES "\\.nv_fatbin ")
        message(FATAL_ERROR "${f}: no relocatable device code, or a registered fatbin:\n${s}")
      endif()
    endforeach()
    foreach(p one separate lib_first)
      execute_process(COMMAND readelf -S -W ${p} WORKING_DIRECTORY ${WORK} OUTPUT_VARIABLE s)
      if(NOT s MATCHES "\\.nv_fatbin ")
        message(FATAL_ERROR "${p}: no linked device code:\n${s}")
      endif()
    endforeach()
  endif()
  foreach(p ${programs})
    expect_passed(${WORK}/${p})
  endforeach()
  # --emit-static-lib of host code, linked by the host compiler and -lanyhip.
  file(WRITE ${WORK}/host_lib.hip "#include <hip/hip_runtime.h>\n"
    "__global__ void fill(int *p, int v) { p[threadIdx.x] = v + threadIdx.x; }\n"
    "int host_fill(int v) { int *d, h[64]; if (hipMalloc(&d, sizeof(h))) return -1;\n"
    "  fill<<<1, 64>>>(d, v); if (hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost)) return -1;\n"
    "  hipFree(d); int s = 0; for (int i = 0; i < 64; i++) s += h[i]; return s; }\n")
  file(WRITE ${WORK}/use.cpp "#include <cstdio>\nint host_fill(int);\n"
    "int main() { int s = host_fill(5); if (s != 64 * 5 + 2016) { printf(\"FAILED %d\\n\", s);"
    " return 1; } printf(\"PASSED\\n\"); return 0; }\n")
  must(${HIPCC} ${arch} --emit-static-lib host_lib.hip -o libhost.a)
  must(${HIPCC} ${arch} --emit-static-lib host_lib.hip -o libhost.a) # replaces it
  execute_process(COMMAND ar t libhost.a WORKING_DIRECTORY ${WORK} OUTPUT_VARIABLE members)
  string(REGEX MATCHALL "\\.o" objs "${members}")
  list(LENGTH objs nobjs)
  if(NOT nobjs EQUAL 1)
    message(FATAL_ERROR "libhost.a should hold one object:\n${members}")
  endif()
  get_filename_component(bindir ${HIPCC} DIRECTORY)
  get_filename_component(libdir ${bindir}/../lib ABSOLUTE)
  # The host compiler hipcc used (HIPCC_CXX: .ci/run's sanitizer pass names
  # g++ with the sanitizers, whose runtimes the library's objects need).
  set(cxx c++)
  if(DEFINED ENV{HIPCC_CXX})
    separate_arguments(cxx UNIX_COMMAND "$ENV{HIPCC_CXX}")
  endif()
  must(${cxx} use.cpp libhost.a -L${libdir} -lanyhip -Wl,-rpath,${libdir} -lpthread -o use_cxx)
  expect_passed(${WORK}/use_cxx)
  # What cannot be done says so.
  foreach(bad "--cuda-device-only|-c|host_lib.hip" "--emit-static-lib|libhost.a|use.cpp|-o|x.a")
    string(REPLACE "|" ";" bad "${bad}")
    execute_process(COMMAND ${HIPCC} ${arch} ${bad} WORKING_DIRECTORY ${WORK}
      RESULT_VARIABLE rc ERROR_VARIABLE e)
    list(GET bad 0 flag)
    if(rc EQUAL 0 OR NOT e MATCHES "hipcc: error: .*(${flag}|libhost\\.a)")
      message(FATAL_ERROR "hipcc ${bad}: no error naming it (${rc}):\n${e}")
    endif()
  endforeach()
  expect_no_temporaries()
elseif(CASE STREQUAL "nvcc_errors")
  find_program(nvcc NAMES nvcc PATHS /usr/local/cuda/bin /opt/cuda/bin NO_CACHE)
  if(NOT nvcc)
    message("skipped: no nvcc")
    return()
  endif()
  set(ENV{HIPCC_NVCC} ${nvcc})
  file(WRITE ${WORK}/syntax.hip
    "#include <hip/hip_runtime.h>\n__global__ void k(int *p) { p[0] = 1 }\n"
    "int main() { return 0; }\n")
  execute_process(COMMAND ${HIPCC} -c syntax.hip -o syntax.o WORKING_DIRECTORY ${WORK}
    RESULT_VARIABLE rc ERROR_VARIABLE e)
  string(REGEX MATCHALL "error:" errors "${e}")
  list(LENGTH errors nerr)
  if(rc EQUAL 0 OR NOT e MATCHES "syntax.hip:2:" OR e MATCHES "hip-nvidia" OR
     e MATCHES "CPU devices only" OR NOT nerr EQUAL 1)
    message(FATAL_ERROR "syntax error with nvcc: exit ${rc}, ${nerr} errors:\n${e}")
  endif()
  expect_no_temporaries()
  file(WRITE ${WORK}/device_only.hip
    "#include <hip/hip_runtime.h>\nint host_only(int x) { return x + 1; }\n"
    "__global__ void k(int *p) { p[0] = host_only(p[0]); }\n")
  execute_process(COMMAND ${HIPCC} -c device_only.hip -o device_only.o WORKING_DIRECTORY ${WORK}
    RESULT_VARIABLE rc ERROR_VARIABLE e)
  if(NOT rc EQUAL 0 OR NOT e MATCHES "host_only" OR NOT e MATCHES "CPU devices only" OR
     NOT EXISTS ${WORK}/device_only.o)
    message(FATAL_ERROR "device-only error with nvcc: exit ${rc}:\n${e}")
  endif()
  expect_no_temporaries()
elseif(CASE STREQUAL "headers")
  set(h ${SRC}/headers)
  must(${HIPCC} -Wall -Wextra -Werror -I${h}/inc ${h}/main.hip ${h}/other.hip -o ${WORK}/one)
  expect_passed(${WORK}/one)
  must(${HIPCC} -c -MD -I${h}/inc ${h}/main.hip -o ${WORK}/main.o)
  must(${HIPCC} -c ${h}/other.hip -o ${WORK}/other.o)
  must(${HIPCC} ${WORK}/main.o ${WORK}/other.o -o ${WORK}/two)
  expect_passed(${WORK}/two)
  file(READ ${WORK}/main.d deps)
  if(deps MATCHES "hip-cpu" OR NOT deps MATCHES "headers/launch.h")
    message(FATAL_ERROR "main.d names hipcc's copies, or not the headers:\n${deps}")
  endif()
  expect_no_temporaries()
elseif(IS_DIRECTORY ${SRC}/${CASE})
  # A program of several sources: e2e/<name>/*.hip, built stripped (so that
  # device variables are found through hipcc's registration) and run.
  file(GLOB srcs ${SRC}/${CASE}/*.hip)
  must(${HIPCC} -Wall -Wextra -Werror -s ${srcs} -o ${WORK}/${CASE})
  expect_passed(${WORK}/${CASE})
  expect_no_temporaries()
elseif(EXISTS ${SRC}/${CASE}.hip)
  # One program, built with warnings as errors and run.
  must(${HIPCC} -Wall -Wextra -Werror -O1 ${SRC}/${CASE}.hip -o ${WORK}/${CASE})
  expect_passed(${WORK}/${CASE})
  expect_no_temporaries()
else()
  message(FATAL_ERROR "unknown CASE '${CASE}'")
endif()
