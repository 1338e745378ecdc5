/* SPDX-License-Identifier: MIT */
/* -fstack-protector's failure hook: a smashed SVSM stack is a broken
 * invariant (the canary is at %fs:0x28: emu_cpu.h, snp hw/fw_cpu.h). */
#include "svsm/check.h"

void __stack_chk_fail(void) __attribute__((noreturn));
void __stack_chk_fail(void)
{
	panic("stack smashing detected");
}
