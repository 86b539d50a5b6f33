/* SPDX-License-Identifier: MIT */
/* Registration of embedded device code with libanyhip. hipcc's NVIDIA pass
 * puts each source's `nvcc --fatbin` output in an .nv_fatbin section and emits
 * a constructor that calls __ahRegisterFatbin with it before main runs (or
 * when a shared library is opened later). The runtime keeps the pointer, so
 * the data must live as long as the program (it does: it is in the binary). */
#ifndef ANYHIP_REGISTER_H
#define ANYHIP_REGISTER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Registers one fatbin image (starting with the fatbin magic 0xBA55ED50), or
 * NUL-terminated PTX text (hiprtc's NVIDIA code). Safe before any HIP call and
 * from any thread; anything else is ignored. */
void __ahRegisterFatbin(const void *data, size_t size);

#ifdef __cplusplus
}
#endif

#endif
