/* SPDX-License-Identifier: MIT */
/*
 * Test guest entry points and exception handling.
 * guest_start: the boot vCPU, in 64-bit mode on the loader's page tables,
 * RDI = secrets page, RSI = CPU count. guest_ap_start: an AP, started from
 * a VMSA the guest built (RSP and RDI = its index set there).
 * Exceptions: a probe (probe_read/probe_write) arms probe_rip; a fault at
 * that RIP returns from the probe with RAX = vector + 1 (the handler finds
 * the frame by looking for probe_rip with and without an error code).
 * Any other #VC goes to guest_vc (vc.c): port I/O and CPUID through the
 * hypervisor, as an SNP guest must.
 */
	.section .text.entry, "ax"
	.global guest_start
guest_start:
	lea guest_stack_top(%rip), %rsp
	call guest_load_tables
	call guest_main
1:	hlt
	jmp 1b

	.text
	.global guest_ap_start
guest_ap_start:
	call guest_load_tables
	call guest_ap_main
2:	hlt
	jmp 2b

/* GDT and IDT; callee-saved registers are kept (RDI/RSI are arguments). */
guest_load_tables:
	lgdt gdt_ptr(%rip)
	lidt idt_ptr(%rip)
	mov $0x10, %ax
	mov %ax, %ds
	mov %ax, %es
	mov %ax, %ss
	pushq $0x08
	lea 3f(%rip), %rax
	push %rax
	lretq
3:	ret

/* int probe_read(uint64_t va) / probe_write(uint64_t va) */
	.global probe_read_raw, probe_write_raw
probe_read_raw:
	lea 5f(%rip), %rax
	mov %rax, probe_fixup(%rip)
	lea 4f(%rip), %rax
	mov %rax, probe_rip(%rip)
	xor %eax, %eax
4:	movb (%rdi), %cl
5:	movq $0, probe_rip(%rip)
	ret
probe_write_raw:
	lea 7f(%rip), %rax
	mov %rax, probe_fixup(%rip)
	lea 6f(%rip), %rax
	mov %rax, probe_rip(%rip)
	xor %eax, %eax
6:	movb $0x5A, (%rdi)
7:	movq $0, probe_rip(%rip)
	ret

/* int probe_insn_pvalidate(uint64_t va) / probe_insn_vmmcall(void) */
	.global probe_insn_pvalidate, probe_insn_vmmcall
probe_insn_pvalidate:
	lea 9f(%rip), %rax
	mov %rax, probe_fixup(%rip)
	lea 8f(%rip), %rax
	mov %rax, probe_rip(%rip)
	mov %rdi, %rax
	xor %ecx, %ecx
	mov $1, %edx
8:	.byte 0xF2, 0x0F, 0x01, 0xFF	/* pvalidate */
	xor %eax, %eax
9:	movq $0, probe_rip(%rip)
	ret
probe_insn_vmmcall:
	lea 11f(%rip), %rax
	mov %rax, probe_fixup(%rip)
	lea 10f(%rip), %rax
	mov %rax, probe_rip(%rip)
10:	vmmcall
	xor %eax, %eax
11:	movq $0, probe_rip(%rip)
	ret

/* int probe_xrstor(void *area) */
	.global probe_xrstor
probe_xrstor:
	lea 18f(%rip), %rax
	mov %rax, probe_fixup(%rip)
	lea 17f(%rip), %rax
	mov %rax, probe_rip(%rip)
	mov $3, %eax
	xor %edx, %edx
17:	xrstor64 (%rdi)
	xor %eax, %eax
18:	movq $0, probe_rip(%rip)
	ret

/* int probe_int3_stack(uint64_t rsp): INT3 with RSP = @rsp. The probe
 * matches the frame's RIP past the INT3, where a #BP returns. */
	.global probe_int3_stack
probe_int3_stack:
	lea 20f(%rip), %rax
	mov %rax, probe_fixup(%rip)
	lea 19f(%rip), %rax
	mov %rax, probe_rip(%rip)
	mov %rsp, %r11
	mov %rdi, %rsp
	int3
19:	xor %eax, %eax
20:	mov %r11, %rsp
	movq $0, probe_rip(%rip)
	ret

/* int probe_xsavec(void *area) */
	.global probe_xsavec
probe_xsavec:
	lea 22f(%rip), %rax
	mov %rax, probe_fixup(%rip)
	lea 21f(%rip), %rax
	mov %rax, probe_rip(%rip)
	mov $3, %eax
	xor %edx, %edx
21:	xsavec64 (%rdi)
	xor %eax, %eax
22:	movq $0, probe_rip(%rip)
	ret

/* int probe_user(uint64_t rip, uint64_t rsp, uint64_t probe, uint64_t arg):
 * IRETQ to CPL 3 at @rip on stack @rsp (user selectors, tests_user.c),
 * R8 = @arg; the probe is armed at @probe, and the handler returns here
 * at CPL 0 (probe_user_rsp). A stub that does not fault at @probe
 * reaches its HLT: #GP there, an unexpected exception. */
	.global probe_user
probe_user:
	push %rbx
	push %rbp
	push %r12
	push %r13
	push %r14
	push %r15
	lea 24f(%rip), %rax
	mov %rax, probe_fixup(%rip)
	mov %rdx, probe_rip(%rip)
	mov %rsp, probe_user_rsp(%rip)
	mov %rcx, %r8
	pushq $0x1B			/* SS: user data */
	push %rsi			/* RSP */
	pushfq
	pushq $0x23			/* CS: user code64 */
	push %rdi			/* RIP */
	iretq
24:	movq $0, probe_rip(%rip)
	movq $0, probe_user_rsp(%rip)
	mov $0x10, %ecx			/* IRET to CPL 3 nulled them */
	mov %ecx, %ds
	mov %ecx, %es
	pop %r15
	pop %r14
	pop %r13
	pop %r12
	pop %rbp
	pop %rbx
	ret

/* CPL 3 stubs for probe_user: R8 is the argument; *_insn the probe. */
	.global user_xsavec, user_xsavec_insn
user_xsavec:
	mov %r8, %rdi
	mov $3, %eax
	xor %edx, %edx
user_xsavec_insn:
	xsavec64 (%rdi)
	hlt
	.global user_rmpadjust, user_rmpadjust_insn
user_rmpadjust:
	mov %r8, %rax
	xor %ecx, %ecx
	mov $0x102, %edx		/* VMPL2, read */
user_rmpadjust_insn:
	.byte 0xF3, 0x0F, 0x01, 0xFE	/* rmpadjust */
	hlt
	.global user_invlpgb, user_invlpgb_insn
user_invlpgb:
	xor %eax, %eax
	xor %ecx, %ecx
	xor %edx, %edx
user_invlpgb_insn:
	.byte 0x0F, 0x01, 0xFE		/* invlpgb */
	hlt

/* uint32_t insn_rmpadjust(uint64_t va, uint64_t size, uint64_t attrs) */
	.global insn_rmpadjust
insn_rmpadjust:
	mov %rdi, %rax
	mov %rsi, %rcx
	.byte 0xF3, 0x0F, 0x01, 0xFE	/* rmpadjust */
	ret

	.macro EXC n
	.balign 16
exc\n:
	push $\n
	jmp exc_common
	.endm
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	EXC \n
	.endr

/* A user-mode probe (probe_user) returns to CPL 0: the frame at RBX
 * (RIP, CS, RFLAGS, RSP, SS; RIP already the fixup) gets the kernel's
 * selectors and probe_user's stack. Clobbers nothing else. */
probe_back_to_kernel:
	push %rax
	mov probe_user_rsp(%rip), %rax
	test %rax, %rax
	jz 23f
	mov %rax, 24(%rbx)		/* RSP */
	movq $0x08, 8(%rbx)		/* CS */
	movq $0x10, 32(%rbx)		/* SS */
23:	pop %rax
	ret

/* Stack: vector, [error code], RIP, CS, RFLAGS, RSP, SS. */
exc_common:
	push %rax
	push %rbx
	mov probe_rip(%rip), %rax
	test %rax, %rax
	jz 13f
	cmp %rax, 24(%rsp)
	je 12f
	cmp %rax, 32(%rsp)
	jne 13f
	mov 24(%rsp), %rbx		/* with an error code */
	mov %rbx, probe_error(%rip)
	mov probe_fixup(%rip), %rbx
	mov %rbx, 32(%rsp)
	lea 32(%rsp), %rbx
	call probe_back_to_kernel
	mov 16(%rsp), %rax
	inc %rax
	pop %rbx
	add $8, %rsp			/* saved RAX: replaced */
	add $16, %rsp			/* vector, error code */
	iretq
12:	movq $-1, probe_error(%rip)	/* no error code */
	mov probe_fixup(%rip), %rbx
	mov %rbx, 24(%rsp)
	lea 24(%rsp), %rbx
	call probe_back_to_kernel
	mov 16(%rsp), %rax
	inc %rax
	pop %rbx
	add $8, %rsp
	add $8, %rsp
	iretq
13:	cmpq $29, 16(%rsp)		/* #VC: the handler (vc.c) */
	jne 15f
	push %rcx
	push %rdx
	push %rsi
	push %rdi
	push %r8
	push %r9
	push %r10
	push %r11
	mov %rsp, %rdi			/* struct vc_frame */
	sub $8, %rsp			/* 16-byte aligned call */
	call guest_vc
	add $8, %rsp
	test %al, %al
	jz 16f
	pop %r11
	pop %r10
	pop %r9
	pop %r8
	pop %rdi
	pop %rsi
	pop %rdx
	pop %rcx
	pop %rbx
	pop %rax
	add $16, %rsp			/* vector, error code */
	iretq
16:	add $64, %rsp
15:	mov 16(%rsp), %rdi		/* vector */
	lea 24(%rsp), %rsi		/* the rest of the frame */
	call guest_unexpected_exception
14:	hlt
	jmp 14b

/* Interrupts 0x40-0x44 (tests_apic.c): guest_irq(vector), then IRET. */
	.macro IRQ n
	.balign 16
irq\n:
	push %rax
	mov $\n, %eax
	jmp irq_common
	.endm
	.irp n, 0x40,0x41,0x42,0x43,0x44
	IRQ \n
	.endr

irq_common:
	push %rcx
	push %rdx
	push %rsi
	push %rdi
	push %r8
	push %r9
	push %r10
	push %r11
	push %rbx
	mov %eax, %edi
	mov %rsp, %rbx			/* callee-saved: RSP back after */
	and $-16, %rsp
	call guest_irq
	mov %rbx, %rsp
	pop %rbx
	pop %r11
	pop %r10
	pop %r9
	pop %r8
	pop %rdi
	pop %rsi
	pop %rdx
	pop %rcx
	pop %rax
	iretq

	.section .rodata
	.balign 8
	.global guest_irq_table
guest_irq_table:
	.irp n, 0x40,0x41,0x42,0x43,0x44
	.quad irq\n
	.endr
	.global guest_exc_table
guest_exc_table:
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	.quad exc\n
	.endr
	.balign 8
gdt:
	.quad 0
	.quad 0x00AF9A000000FFFF	/* 0x08 code64 */
	.quad 0x00CF92000000FFFF	/* 0x10 data */
gdt_ptr:
	.word 23
	.quad gdt
idt_ptr:
	.word 0x45 * 16 - 1
	.quad guest_idt

	.bss
	.balign 16
	.global probe_rip, probe_fixup, probe_error, probe_user_rsp
probe_rip:
	.skip 8
probe_user_rsp:
	.skip 8
probe_fixup:
	.skip 8
probe_error:
	.skip 8
	.balign 4096
	.global guest_stack_top
	.skip 32768
guest_stack_top:

	.section .note.GNU-stack, "", @progbits
