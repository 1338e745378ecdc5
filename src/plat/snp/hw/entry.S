/* SPDX-License-Identifier: MIT */
/*
 * Entry of every SVSM CPU on snp. The VMSA (svsm/svsm_vmsa.h) starts the
 * CPU in 64-bit mode at VMPL0 on the page tables it names, interrupts
 * off, no IDT yet:
 *   RDI = 0: the boot CPU, from the IGVM image; RSI = its boot parameters;
 *            the image's boot page tables map the SVSM region (private).
 *   RDI != 0: an AP the boot CPU started (snp_aps.c): RDI is its
 *            struct snp_fw_cpu, RSP its stack, on the SVSM's own tables.
 * Before any C runs, FS base points at the CPU's block with a random
 * stack canary at 0x28 (-fstack-protector reads %fs:0x28). Nothing here
 * may raise #VC: no CPUID, no port I/O, only MSRs SEV-ES does not
 * intercept (FS base is part of the VMSA). bss is zero: the image's
 * pages are measured zero pages, and nothing here clears it (an AP must
 * not).
 */
#define MSR_FS_BASE 0xC0000100
#define MSR_GHCB 0xC0010130
/* GHCB MSR termination request, reason set 3 (csvsm), code 0 (panic). */
#define GHCB_TERM_PANIC (0x100 | (3 << 12) | (0 << 16))
#define RDRAND_RETRIES 10

	.section .text.boot, "ax"
	.code64
	.global _start
_start:
	cli
	cld
	test %rdi, %rdi
	jnz 1f
	lea boot_stack_top(%rip), %rsp
	mov %rsi, %rbx
	lea snp_bsp_fw_cpu(%rip), %rdi
	call set_fs_block
	mov %rbx, %rdi
	call snp_fw_main
	jmp stop
1:	mov %rdi, %rbx
	call set_fs_block
	mov %rbx, %rdi
	call snp_fw_ap_main
stop:	jmp terminate

/* FS base = %rdi (the block's self pointer at 0), canary from RDRAND.
 * No entropy: the VM stops (a predictable canary is not acceptable). */
set_fs_block:
	mov %rdi, (%rdi)
	mov $RDRAND_RETRIES, %ecx
2:	rdrand %rax
	jc 3f
	loop 2b
	jmp terminate
3:	mov %rax, 0x28(%rdi)
	mov %rdi, %rax
	mov %rdi, %rdx
	shr $32, %rdx
	mov $MSR_FS_BASE, %ecx
	wrmsr
	ret

/* The MSR protocol's termination: needs no GHCB page. */
terminate:
	mov $MSR_GHCB, %ecx
	mov $GHCB_TERM_PANIC, %eax
	xor %edx, %edx
	wrmsr
	rep; vmmcall
4:	cli
	hlt
	jmp 4b

	.section .bss
	.balign 16
boot_stack:
	.skip 65536	/* the vTPM's libraries start on it (tpm.md 3) */
boot_stack_top:

	.section .note.GNU-stack, "", @progbits
