/* SPDX-License-Identifier: MIT */
/*
 * The instructions that may fault on memory the SVSM does not control:
 * PVALIDATE and RMPADJUST (#GP on a bad operand), and copies to and from
 * guest pages (#VC when the page is not validated). Each faulting
 * instruction has an entry in .fixup_table (faulting RIP, recovery RIP);
 * the trap handler (hw/trap.c) resumes at the recovery point, which
 * returns the failure value. Nothing else in the SVSM may fault.
 *
 * System V arguments: rdi, rsi, rdx, rcx; result in eax.
 */
	.macro FIXUP insn, recover
	.pushsection .fixup_table, "a"
	.balign 8
	.quad \insn, \recover
	.popsection
	.endm

	.text
/* uint32_t snp_insn_pvalidate(va, size, validate, bool *unchanged):
 * EAX, or 1 (FAIL_INPUT) if it faulted; *unchanged = rFLAGS.CF. */
	.global snp_insn_pvalidate
snp_insn_pvalidate:
	mov %rcx, %r8
	mov %rdi, %rax
	mov %rsi, %rcx
1:	.byte 0xF2, 0x0F, 0x01, 0xFF	/* pvalidate */
	setc (%r8)
	ret
2:	movb $0, (%r8)
	mov $1, %eax
	ret
	FIXUP 1b, 2b

/* uint32_t snp_insn_rmpadjust(va, size, attrs): EAX, or 1 if it faulted. */
	.global snp_insn_rmpadjust
snp_insn_rmpadjust:
	mov %rdi, %rax
	mov %rsi, %rcx
1:	.byte 0xF3, 0x0F, 0x01, 0xFE	/* rmpadjust */
	ret
2:	mov $1, %eax
	ret
	FIXUP 1b, 2b

/* bool snp_insn_copy(dst, src, len): false if it faulted. */
	.global snp_insn_copy
snp_insn_copy:
	mov %rdx, %rcx
1:	rep movsb
	mov $1, %eax
	ret
2:	xor %eax, %eax
	ret
	FIXUP 1b, 2b

/* bool snp_insn_zero(dst, len): false if it faulted. */
	.global snp_insn_zero
snp_insn_zero:
	mov %rsi, %rcx
	xor %eax, %eax
1:	rep stosb
	mov $1, %eax
	ret
2:	xor %eax, %eax
	ret
	FIXUP 1b, 2b

/* bool snp_insn_xchg8(ptr, val, uint8_t *old): false if it faulted. */
	.global snp_insn_xchg8
snp_insn_xchg8:
	mov %esi, %eax
1:	xchg %al, (%rdi)
	mov %al, (%rdx)
	mov $1, %eax
	ret
2:	xor %eax, %eax
	ret
	FIXUP 1b, 2b

/* INVLPGB of every translation of this guest (RAX bit 3: include
 * global; no address, PCID or ASID given), then TLBSYNC: after RMPADJUST
 * reduced a lower VMPL's rights, no CPU may keep the old ones. */
	.global snp_insn_flush_all
snp_insn_flush_all:
	mov $0x8, %eax
	xor %ecx, %ecx
	xor %edx, %edx
	.byte 0x0F, 0x01, 0xFE	/* invlpgb */
	.byte 0x0F, 0x01, 0xFF	/* tlbsync */
	ret

	.section .note.GNU-stack, "", @progbits
