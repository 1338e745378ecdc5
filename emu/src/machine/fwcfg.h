/* SPDX-License-Identifier: MIT */
/*
 * QEMU's fw_cfg (ports 0x510/0x511, DMA at 0x514): how the machine gets
 * its inputs, the way a host's loader would hand them over: the CPU count
 * and the files given with -fw_cfg name=opt/csvsm/...: the IGVM image
 * (Debian's QEMU has no IGVM loader) and the hypervisor's behaviour.
 * QEMU is the machine's trusted platform here, as the PSP and CPU are on
 * hardware; the files it carries are the host's, and checked as such.
 */
#ifndef MACHINE_FWCFG_H
#define MACHINE_FWCFG_H

#include <stdbool.h>
#include <stdint.h>

bool fwcfg_present(void);
unsigned fwcfg_cpu_count(void);
/** The size of file @name, false if there is none. */
bool fwcfg_file(const char *name, uint32_t *size, uint16_t *select);
/** Read @len bytes of item @select into @buf (by DMA). */
bool fwcfg_read_file(uint16_t select, void *buf, uint32_t len);

#endif /* MACHINE_FWCFG_H */
