/* SPDX-License-Identifier: MIT */
/* Fiber init and switch for x86-64 (System V ABI). A suspended fiber's stack
 * holds its callee-saved registers (rbp rbx r12-r15) under the address to
 * resume at; the switch pushes them, swaps stack pointers and pops. MXCSR and
 * the x87 control word are not switched: every fiber of a worker runs the
 * same kernel in the same floating-point environment. */

        .text

/* void ah_fiber_switch(struct ah_fiber *from, struct ah_fiber *to) */
        .globl  ah_fiber_switch
        .hidden ah_fiber_switch
        .type   ah_fiber_switch, @function
        .p2align 4
ah_fiber_switch:
        .cfi_startproc
        pushq   %rbp
        pushq   %rbx
        pushq   %r12
        pushq   %r13
        pushq   %r14
        pushq   %r15
        movq    %rsp, (%rdi)
        movq    (%rsi), %rsp
        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbx
        popq    %rbp
        ret
        .cfi_endproc
        .size   ah_fiber_switch, .-ah_fiber_switch

/* void ah_fiber_init(struct ah_fiber *f, void *stack, size_t size,
 *                    void (*entry)(void *), void *arg)
 * Builds the frame ah_fiber_switch pops: r15 r14 r13=arg r12=entry rbx rbp,
 * then the trampoline as return address, placed so that the trampoline runs
 * with a 16-byte aligned stack. */
        .globl  ah_fiber_init
        .hidden ah_fiber_init
        .type   ah_fiber_init, @function
        .p2align 4
ah_fiber_init:
        .cfi_startproc
        leaq    (%rsi,%rdx), %rax
        andq    $-16, %rax
        leaq    fiber_trampoline(%rip), %r9
        movq    %r9, -8(%rax)
        movq    $0, -16(%rax)
        movq    $0, -24(%rax)
        movq    %rcx, -32(%rax)
        movq    %r8, -40(%rax)
        movq    $0, -48(%rax)
        movq    $0, -56(%rax)
        subq    $56, %rax
        movq    %rax, (%rdi)
        ret
        .cfi_endproc
        .size   ah_fiber_init, .-ah_fiber_init

/* First code of a new fiber: entry(arg). Marked as the outermost frame so
 * that debuggers and unwinders stop here. entry never returns. */
        .type   fiber_trampoline, @function
        .p2align 4
fiber_trampoline:
        .cfi_startproc
        .cfi_undefined rip
        movq    %r13, %rdi
        callq   *%r12
        ud2
        .cfi_endproc
        .size   fiber_trampoline, .-fiber_trampoline

        .section .note.GNU-stack,"",@progbits
