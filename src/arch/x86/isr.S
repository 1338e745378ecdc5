/* SPDX-License-Identifier: MIT */
/*
 * Interrupt entry stubs. Every stub leaves the same frame, struct
 * trap_frame (trap.h), for arch_trap(), and returns with IRETQ to what
 * the handler left in it.
 */
	.macro STUB_NOERR n
	.balign 16
isr\n:
	push $0
	push $\n
	jmp isr_common
	.endm
	.macro STUB_ERR n
	.balign 16
isr\n:
	push $\n
	jmp isr_common
	.endm

	.text
	STUB_NOERR 0
	STUB_NOERR 1
	STUB_NOERR 2
	STUB_NOERR 3
	STUB_NOERR 4
	STUB_NOERR 5
	STUB_NOERR 6
	STUB_NOERR 7
	STUB_ERR 8
	STUB_NOERR 9
	STUB_ERR 10
	STUB_ERR 11
	STUB_ERR 12
	STUB_ERR 13
	STUB_ERR 14
	STUB_NOERR 15
	STUB_NOERR 16
	STUB_ERR 17
	STUB_NOERR 18
	STUB_NOERR 19
	STUB_NOERR 20
	STUB_ERR 21
	STUB_NOERR 22
	STUB_NOERR 23
	STUB_NOERR 24
	STUB_NOERR 25
	STUB_NOERR 26
	STUB_NOERR 27
	STUB_NOERR 28
	STUB_ERR 29
	STUB_ERR 30
	STUB_NOERR 31
	STUB_NOERR 240
	STUB_NOERR 255

isr_common:
	push %rax
	push %rbx
	push %rcx
	push %rdx
	push %rbp
	push %rsi
	push %rdi
	push %r8
	push %r9
	push %r10
	push %r11
	push %r12
	push %r13
	push %r14
	push %r15
	mov %rsp, %rdi
	cld
	call arch_trap
	pop %r15
	pop %r14
	pop %r13
	pop %r12
	pop %r11
	pop %r10
	pop %r9
	pop %r8
	pop %rdi
	pop %rsi
	pop %rbp
	pop %rdx
	pop %rcx
	pop %rbx
	pop %rax
	add $16, %rsp
	iretq

	.section .rodata
	.balign 8
	.global isr_exception_table, isr_wakeup, isr_spurious
isr_exception_table:
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	.quad isr\n
	.endr
isr_wakeup:
	.quad isr240
isr_spurious:
	.quad isr255

	.section .note.GNU-stack, "", @progbits
