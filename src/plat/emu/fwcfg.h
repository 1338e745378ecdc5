/* SPDX-License-Identifier: MIT */
/*
 * QEMU's fw_cfg interface (I/O ports 0x510/0x511). The emu platform trusts
 * QEMU: it is the machine, as the PSP and the CPU are on snp.
 */
#ifndef EMU_FWCFG_H
#define EMU_FWCFG_H

#include <stdbool.h>
#include <stdint.h>

bool fwcfg_present(void);
/** FW_CFG_NB_CPUS: how many CPUs QEMU gives (-smp). */
unsigned fwcfg_cpu_count(void);

#endif /* EMU_FWCFG_H */
