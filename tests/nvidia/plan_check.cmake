# SPDX-License-Identifier: MIT
# hipcc's NVIDIA pass as `hipcc -###` plans it (nothing runs, so no nvcc is
# needed): the targets each --offload-arch gives nvcc, the flags nvcc gets,
# the embedding steps, the CPU-only cases. Inputs: HIPCC SOURCE.
set(fake_nvcc /opt/fake-cuda/bin/nvcc)

# run(<out var> <HIPCC_NVCC value> args...)
function(run out nvcc)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env HIPCC_NVCC=${nvcc} HIPCC_CXX=g++ HIPCC_CC=gcc
    --unset=HIPCC_NVCC_FLAGS ${HIPCC} ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "hipcc ${ARGN} exited ${rc}:\n${o}${e}")
  endif()
  set(${out} "${o}${e}" PARENT_SCOPE)
endfunction()

function(expect text regex)
  string(REGEX MATCH "${regex}" m "${text}")
  if(m STREQUAL "")
    message(FATAL_ERROR "expected /${regex}/ in:\n${text}")
  endif()
endfunction()

function(refuse text regex)
  string(REGEX MATCH "${regex}" m "${text}")
  if(NOT m STREQUAL "")
    message(FATAL_ERROR "did not expect /${regex}/ in:\n${text}")
  endif()
endfunction()

# Default targets: sm_90 SASS + compute_90 PTX, the embedding steps, and with
# -c the embedding object merged into the requested object.
run(out ${fake_nvcc} "-###" -c ${SOURCE} -o app.o)
message("${out}")
expect("${out}" "--ah-target=nvidia [^\n]*-hip-nvidia\\.cu")
expect("${out}" "${fake_nvcc} --fatbin [^\n]*-gencode=arch=compute_90,code=sm_90 ")
expect("${out}" "-gencode=arch=compute_90,code=compute_90 ")
expect("${out}" "-D__HIP_PLATFORM_NVIDIA__=1 [^\n]*-DihipStream_t=CUstream_st")
expect("${out}" "-std=c\\+\\+17 ")
expect("${out}" "-include hip/hip_runtime.h -o [^ ]*-hip-nvidia\\.fatbin [^ ]*-hip-nvidia\\.cu\n")
expect("${out}" "hipcc-embed [^ ]*-hip-nvidia\\.fatbin")
expect("${out}" "gcc -fPIC -I[^ ]+ -c [^ ]*-hip-nvidia-embed\\.c -o [^ ]*-hip-nvidia-embed\\.o")
expect("${out}" "-r [^\n]*-hip-cpu\\.o [^\n]*-hip-nvidia-embed\\.o -o app\\.o")

# Named targets: SASS for each, PTX for the newest plain one only; the user's
# flags nvcc understands, and not the host-only ones.
run(out ${fake_nvcc} "-###" --offload-arch=sm_80,sm_90a --offload-arch=sm_86 -O2 -g
  -std=gnu++20 -I inc -DX=1 -Wall -fopenmp ${SOURCE} -o app)
message("${out}")
foreach(a 80 86)
  expect("${out}" "-gencode=arch=compute_${a},code=sm_${a} ")
endforeach()
expect("${out}" "-gencode=arch=compute_90a,code=sm_90a ")
expect("${out}" "-gencode=arch=compute_86,code=compute_86 ")
refuse("${out}" "code=compute_80 |code=compute_90a ")
expect("${out}" "nvcc --fatbin [^\n]*-I inc -DX=1 -O2 -std=c\\+\\+20 ")
refuse("${out}" "nvcc --fatbin [^\n]*(-Wall|-fopenmp|-g )")
refuse("${out}" "nvcc --fatbin [^\n]*-std=c\\+\\+17")

# CPU only: no nvcc step, whether asked for or for want of nvcc.
run(out ${fake_nvcc} "-###" --offload-arch=cpu ${SOURCE} -o app)
refuse("${out}" "nvcc|hipcc-embed")
run(out none "-###" ${SOURCE} -o app)
refuse("${out}" "nvcc|hipcc-embed")
run(out none "-###" --offload-arch=sm_90 ${SOURCE} -o app)
expect("${out}" "warning: the NVIDIA pass is not available")
refuse("${out}" "--fatbin|hipcc-embed")

# -fgpu-rdc: nvcc -rdc=true per source, the relocatable fatbin embedded for
# the device link (no registration), then one `nvcc --device-link --fatbin`
# over every object and archive of the link (an archive named first too,
# -lNAME found in a -L directory), SASS only, and its embedding registered.
file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/rdc_libs)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/rdc_libs/libdevfns.a "")
run(out ${fake_nvcc} "-###" -fgpu-rdc --offload-arch=sm_80,sm_90 libfirst.a ${SOURCE} prebuilt.o
  -L${CMAKE_CURRENT_BINARY_DIR}/rdc_libs -ldevfns -lm -o app)
message("${out}")
expect("${out}" "${fake_nvcc} --fatbin -rdc=true ")
expect("${out}" "hipcc-embed [^ ]*-hip-nvidia\\.fatbin [^\n]*__nv_relfatbin")
expect("${out}" "${fake_nvcc} --device-link --fatbin -gencode=arch=compute_80,code=sm_80 "
  "-gencode=arch=compute_90,code=sm_90 libfirst\\.a [^ ]+\\.o [^ ]*-hip-nvidia-embed\\.o "
  "prebuilt\\.o [^ ]*/rdc_libs/libdevfns\\.a -o [^ ]*app-hip-nvidia-dlink\\.fatbin\n")
refuse("${out}" "--device-link[^\n]*(code=compute_|-lm)")
expect("${out}" "hipcc-embed [^ ]*-hip-nvidia-dlink\\.fatbin [^\n]*__ahRegisterFatbin")
expect("${out}" "g\\+\\+ -Wl,--start-group libfirst\\.a [^\n]*-hip-nvidia-dlink\\.o -Wl,--end-group ")
# Without -fgpu-rdc: no -rdc, no device link; -fno-gpu-rdc undoes it.
run(out ${fake_nvcc} "-###" -fgpu-rdc -fno-gpu-rdc ${SOURCE} -o app)
refuse("${out}" "-rdc=true|--device-link|__nv_relfatbin")
# -c with -fgpu-rdc: the relocatable code merged into the object, no device link.
run(out ${fake_nvcc} "-###" -c -fgpu-rdc ${SOURCE} -o app.o)
expect("${out}" "-r [^\n]*-hip-cpu\\.o [^\n]*-hip-nvidia-embed\\.o -o app\\.o")
refuse("${out}" "--device-link")
# --emit-static-lib: one merged object per source, archived; no device link.
run(out ${fake_nvcc} "-###" --emit-static-lib -fgpu-rdc ${SOURCE} -o libx.a)
expect("${out}" "-r [^\n]*-hip-cpu\\.o [^\n]*-hip-nvidia-embed\\.o -o [^ ]+\\.o\n")
expect("${out}" "\nrm -f libx\\.a\nar rcs libx\\.a [^ ]+\\.o\n")
refuse("${out}" "--device-link|-lanyhip")
message("PASS")
