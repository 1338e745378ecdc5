/* SPDX-License-Identifier: MIT */
/*
 * Entry from QEMU's PVH loader (32-bit protected mode, paging off, EBX =
 * hvm_start_info) and the AP start-up trampoline. Both end in 64-bit mode
 * with 5-level paging (CR4.LA57: QEMU walks the nested page tables in the
 * host's mode, and the guest's 52-bit physical addresses, C-bit 51, need
 * five levels), the low 4 GiB identity-mapped with 2 MiB pages, NX on.
 * Before any C runs, FS base points at the CPU's block with its stack
 * canary at 0x28 (the linked libraries read %fs:0x28).
 */
#include "layout.h"

#define MSR_EFER 0xC0000080
#define MSR_FS_BASE 0xC0000100
#define EFER_LME (1 << 8)
#define EFER_NXE (1 << 11)
#define CR0_PE 1
#define CR0_PG 0x80000000
#define CR4_PAE 0x20
#define CR4_LA57 0x1000
#define SEL_CODE32 0x08
#define SEL_DATA 0x10
#define SEL_CODE64 0x18

/* XEN_ELFNOTE_PHYS32_ENTRY. QEMU 7.2 reads the descriptor as 8 bytes. */
	.section .note.pvh, "a", @note
	.balign 4
	.long 4
	.long 8
	.long 18
	.asciz "Xen"
	.balign 4
	.quad _start32

	.section .text.boot, "ax"
	.code32
	.global _start32
_start32:
	cli
	cld
	mov %ebx, %esi
	mov $__bss_start, %edi
	mov $__bss_end, %ecx
	sub %edi, %ecx
	shr $2, %ecx
	xor %eax, %eax
	rep stosl
	mov $boot_stack_top, %esp
	/* PML5[0] -> PML4; PML4[0] -> PDPT; PDPT[0..3] -> 4 PDs of 2 MiB
	 * pages. */
	mov $boot_pml4, %eax
	or $0x3, %eax
	mov %eax, boot_pml5
	mov $boot_pdpt, %eax
	or $0x3, %eax
	mov %eax, boot_pml4
	mov $boot_pd, %eax
	or $0x3, %eax
	mov $boot_pdpt, %edi
	mov $4, %ecx
1:	mov %eax, (%edi)
	add $0x1000, %eax
	add $8, %edi
	loop 1b
	mov $boot_pd, %edi
	mov $0x83, %eax		/* P | RW | PS */
	xor %edx, %edx
	mov $2048, %ecx
2:	mov %eax, (%edi)
	mov %edx, 4(%edi)
	add $0x200000, %eax
	adc $0, %edx
	add $8, %edi
	loop 2b
	mov $boot_pml5, %eax
	call enter_long_mode
	lgdt boot_gdt_ptr
	ljmp $SEL_CODE64, $start64

/* PAE and LA57, CR3 = %eax, EFER.LME|NXE, then paging. BSP and APs. */
enter_long_mode:
	mov %eax, %cr3
	mov %cr4, %eax
	or $(CR4_PAE | CR4_LA57), %eax
	mov %eax, %cr4
	mov $MSR_EFER, %ecx
	rdmsr
	or $(EFER_LME | EFER_NXE), %eax
	wrmsr
	mov %cr0, %eax
	or $CR0_PG, %eax
	mov %eax, %cr0
	ret

	.code64
	.macro LOAD_DATA_SEGMENTS
	mov $SEL_DATA, %ax
	mov %ax, %ds
	mov %ax, %es
	mov %ax, %ss
	xor %eax, %eax
	mov %ax, %fs
	mov %ax, %gs
	.endm

start64:
	LOAD_DATA_SEGMENTS
	mov $boot_stack_top, %rsp
	lea bsp_fs_block(%rip), %rdi
	call set_fs_block
	mov %esi, %edi
	call machine_main
3:	cli
	hlt
	jmp 3b

/* FS base = %rdi, canary at 0x28 from the TSC (it catches overflows of
 * the machine's own stacks; the machine has no secrets from itself). */
set_fs_block:
	mov %rdi, (%rdi)
	rdtsc
	shl $32, %rdx
	or %rax, %rdx
	movabs $0x9E3779B97F4A7C15, %rax
	imul %rax, %rdx
	mov %rdx, 0x28(%rdi)
	mov %rdi, %rax
	mov %rax, %rdx
	shr $32, %rdx
	mov $MSR_FS_BASE, %ecx
	wrmsr
	ret

ap_start64:
	LOAD_DATA_SEGMENTS
	mov ap_boot_stack(%rip), %rsp
	mov ap_boot_fs(%rip), %rdi
	call set_fs_block
	call machine_ap_main
4:	cli
	hlt
	jmp 4b

/* The AP trampoline, copied to MACHINE_TRAMPOLINE; the SIPI starts it in
 * real mode at CS = MACHINE_TRAMPOLINE >> 4, IP = 0. A section of its
 * own, whose bounds machine.ld gives cpus.c (ap_tramp_start and
 * ap_tramp_end): this file is the machine's top and names below it only
 * what it calls and the per-CPU blocks cpus.c fills for it. */
#define TRAMP(sym) (MACHINE_TRAMPOLINE + (sym) - tramp_base)
	.section .text.ap_tramp, "ax"
	.code16
tramp_base:
	cli
	cld
	xor %ax, %ax
	mov %ax, %ds
	lgdtl TRAMP(tramp_gdt_ptr)
	mov %cr0, %eax
	or $CR0_PE, %eax
	mov %eax, %cr0
	ljmpl $SEL_CODE32, $TRAMP(tramp_pm32)
	.code32
tramp_pm32:
	mov $SEL_DATA, %ax
	mov %ax, %ds
	mov %ax, %es
	mov %ax, %ss
	mov $TRAMP(tramp_stack_top), %esp
	mov $boot_pml5, %eax
	mov $enter_long_mode, %ecx
	call *%ecx
	lgdt boot_gdt_ptr
	ljmp $SEL_CODE64, $ap_start64
	.balign 8
tramp_gdt:
	.quad 0
	.quad 0x00CF9A000000FFFF
	.quad 0x00CF92000000FFFF
	.quad 0x00AF9A000000FFFF
tramp_gdt_ptr:
	.word 31
	.long TRAMP(tramp_gdt)
	.balign 16
	.fill 64, 1, 0
tramp_stack_top:

	.section .rodata
	.balign 8
boot_gdt:
	.quad 0
	.quad 0x00CF9B000000FFFF
	.quad 0x00CF93000000FFFF
	.quad 0x00AF9B000000FFFF
boot_gdt_ptr:
	.word 31
	.long boot_gdt

	.section .bss
	.balign 4096
	.global boot_pml5
boot_pml5:
	.skip 4096
boot_pml4:
	.skip 4096
boot_pdpt:
	.skip 4096
boot_pd:
	.skip 4 * 4096
	.balign 16
boot_stack:
	.skip 65536
boot_stack_top:

	.section .note.GNU-stack, "", @progbits
