/* SPDX-License-Identifier: MIT */
/*
 * One world switch into the guest:
 *   void svm_run(uint64_t vmcb_pa, struct svm_gprs *gprs,
 *                uint64_t host_save_pa);
 * VMRUN loads and saves only RAX/RSP/RIP/RFLAGS, segments and control
 * state; the other GPRs are the wrapper's job, and FS/GS/TR/LDTR, the
 * syscall MSRs and KernelGSBase move with VMSAVE/VMLOAD. The host's own
 * FS base (its stack-canary block) is back before any C code runs.
 * Interrupts: called with IF=0. CLGI; STI lets a physical interrupt cause
 * an INTR exit instead of being taken in guest mode; after the exit IF is
 * cleared before STGI, so a pending interrupt stays pending for the caller.
 */
	.text
	.global svm_run
svm_run:
	push %rbx
	push %rbp
	push %r12
	push %r13
	push %r14
	push %r15
	push %rdx		/* 16(%rsp): host save area */
	push %rsi		/*  8(%rsp): gprs */
	push %rdi		/*  0(%rsp): VMCB */
	mov %rdx, %rax
	vmsave
	mov (%rsp), %rax
	vmload
	mov 8(%rsp), %rax
	mov 0(%rax), %rbx
	mov 8(%rax), %rcx
	mov 16(%rax), %rdx
	mov 24(%rax), %rbp
	mov 32(%rax), %rsi
	mov 40(%rax), %rdi
	mov 48(%rax), %r8
	mov 56(%rax), %r9
	mov 64(%rax), %r10
	mov 72(%rax), %r11
	mov 80(%rax), %r12
	mov 88(%rax), %r13
	mov 96(%rax), %r14
	mov 104(%rax), %r15
	mov (%rsp), %rax
	clgi
	sti
	vmrun
	/* #VMEXIT: RAX is the host's again (the VMCB address), GIF = 0. */
	mov 8(%rsp), %rax
	mov %rbx, 0(%rax)
	mov %rcx, 8(%rax)
	mov %rdx, 16(%rax)
	mov %rbp, 24(%rax)
	mov %rsi, 32(%rax)
	mov %rdi, 40(%rax)
	mov %r8, 48(%rax)
	mov %r9, 56(%rax)
	mov %r10, 64(%rax)
	mov %r11, 72(%rax)
	mov %r12, 80(%rax)
	mov %r13, 88(%rax)
	mov %r14, 96(%rax)
	mov %r15, 104(%rax)
	mov (%rsp), %rax
	vmsave
	mov 16(%rsp), %rax
	vmload
	cli
	stgi
	add $24, %rsp
	pop %r15
	pop %r14
	pop %r13
	pop %r12
	pop %rbp
	pop %rbx
	ret

	.section .note.GNU-stack, "", @progbits
