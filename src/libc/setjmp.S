/* SPDX-License-Identifier: MIT */
/*
 * setjmp/longjmp with glibc's x86-64 jmp_buf layout (the archives allocate
 * struct __jmp_buf_tag themselves): rbx, rbp, r12-r15, rsp, return address
 * at 8-byte slots 0-7, then __mask_was_saved (always 0: no signals here).
 * libtpms' failure mode longjmps out of a failing command to its entry.
 * Unlike glibc, pointers are stored unmangled: nothing here is reachable
 * by an attacker who could overwrite a jmp_buf without already owning the
 * SVSM's memory.
 */
	.text

	.globl	_setjmp
	.type	_setjmp, @function
_setjmp:
	movq	%rbx, 0(%rdi)
	movq	%rbp, 8(%rdi)
	movq	%r12, 16(%rdi)
	movq	%r13, 24(%rdi)
	movq	%r14, 32(%rdi)
	movq	%r15, 40(%rdi)
	leaq	8(%rsp), %rdx		/* the caller's rsp after return */
	movq	%rdx, 48(%rdi)
	movq	(%rsp), %rdx		/* the return address */
	movq	%rdx, 56(%rdi)
	movl	$0, 64(%rdi)		/* __mask_was_saved */
	xorl	%eax, %eax
	ret
	.size	_setjmp, . - _setjmp

/* void _longjmp(jmp_buf env, int val): setjmp returns val (1 if 0). */
	.globl	_longjmp
	.type	_longjmp, @function
_longjmp:
	movl	%esi, %eax
	testl	%eax, %eax
	jnz	1f
	movl	$1, %eax
1:	movq	0(%rdi), %rbx
	movq	8(%rdi), %rbp
	movq	16(%rdi), %r12
	movq	24(%rdi), %r13
	movq	32(%rdi), %r14
	movq	40(%rdi), %r15
	movq	48(%rdi), %rsp
	jmpq	*56(%rdi)
	.size	_longjmp, . - _longjmp

/*
 * The fortified longjmp: jumping to a frame below the current stack
 * pointer means that frame has returned (glibc's check, without the
 * alternate signal stack case). That is a broken invariant: panic.
 */
	.globl	__longjmp_chk
	.type	__longjmp_chk, @function
__longjmp_chk:
	cmpq	%rsp, 48(%rdi)
	jb	2f
	jmp	_longjmp
2:	andq	$-16, %rsp
	call	libc_longjmp_bad
	ud2
	.size	__longjmp_chk, . - __longjmp_chk

	.section .note.GNU-stack, "", @progbits
