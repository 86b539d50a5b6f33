/* SPDX-License-Identifier: MIT */
/* Fiber init and switch for aarch64 (AAPCS64). A suspended fiber's stack
 * holds a 160-byte frame of its callee-saved registers: x19-x28, x29 (frame
 * pointer), x30 (where to resume) and d8-d15; the switch stores them, swaps
 * stack pointers and loads them. FPCR is not switched: every fiber of a
 * worker runs the same kernel in the same floating-point environment. */

        .text

/* void ah_fiber_switch(struct ah_fiber *from, struct ah_fiber *to) */
        .globl  ah_fiber_switch
        .hidden ah_fiber_switch
        .type   ah_fiber_switch, %function
        .p2align 4
ah_fiber_switch:
        .cfi_startproc
        sub     sp, sp, #160
        stp     x19, x20, [sp, #0]
        stp     x21, x22, [sp, #16]
        stp     x23, x24, [sp, #32]
        stp     x25, x26, [sp, #48]
        stp     x27, x28, [sp, #64]
        stp     x29, x30, [sp, #80]
        stp     d8, d9, [sp, #96]
        stp     d10, d11, [sp, #112]
        stp     d12, d13, [sp, #128]
        stp     d14, d15, [sp, #144]
        mov     x2, sp
        str     x2, [x0]
        ldr     x2, [x1]
        mov     sp, x2
        ldp     x19, x20, [sp, #0]
        ldp     x21, x22, [sp, #16]
        ldp     x23, x24, [sp, #32]
        ldp     x25, x26, [sp, #48]
        ldp     x27, x28, [sp, #64]
        ldp     x29, x30, [sp, #80]
        ldp     d8, d9, [sp, #96]
        ldp     d10, d11, [sp, #112]
        ldp     d12, d13, [sp, #128]
        ldp     d14, d15, [sp, #144]
        add     sp, sp, #160
        ret
        .cfi_endproc
        .size   ah_fiber_switch, .-ah_fiber_switch

/* void ah_fiber_init(struct ah_fiber *f, void *stack, size_t size,
 *                    void (*entry)(void *), void *arg)
 * Builds the frame ah_fiber_switch loads: x19 = entry, x20 = arg,
 * x30 = the trampoline, everything else zero; sp ends 16-byte aligned. */
        .globl  ah_fiber_init
        .hidden ah_fiber_init
        .type   ah_fiber_init, %function
        .p2align 4
ah_fiber_init:
        .cfi_startproc
        add     x5, x1, x2
        and     x5, x5, #~15
        sub     x5, x5, #160
        stp     x3, x4, [x5, #0]
        stp     xzr, xzr, [x5, #16]
        stp     xzr, xzr, [x5, #32]
        stp     xzr, xzr, [x5, #48]
        stp     xzr, xzr, [x5, #64]
        adr     x6, fiber_trampoline
        stp     xzr, x6, [x5, #80]
        stp     xzr, xzr, [x5, #96]
        stp     xzr, xzr, [x5, #112]
        stp     xzr, xzr, [x5, #128]
        stp     xzr, xzr, [x5, #144]
        str     x5, [x0]
        ret
        .cfi_endproc
        .size   ah_fiber_init, .-ah_fiber_init

/* First code of a new fiber: entry(arg). The outermost frame (x29 = 0,
 * return address undefined); entry never returns. */
        .type   fiber_trampoline, %function
        .p2align 4
fiber_trampoline:
        .cfi_startproc
        .cfi_undefined x30
        mov     x0, x20
        blr     x19
        brk     #0
        .cfi_endproc
        .size   fiber_trampoline, .-fiber_trampoline

        .section .note.GNU-stack,"",%progbits
