/* SPDX-License-Identifier: MIT */
#include "fwcfg.h"

#include "arch.h"

#define FW_CFG_PORT_SEL 0x510
#define FW_CFG_PORT_DATA 0x511
#define FW_CFG_SIGNATURE 0x0000
#define FW_CFG_NB_CPUS 0x0005

static void fwcfg_read(uint16_t key, void *buf, unsigned len)
{
	uint8_t *p = buf;
	unsigned i;

	outw(FW_CFG_PORT_SEL, key);
	for (i = 0; i < len; i++) {
		p[i] = inb(FW_CFG_PORT_DATA);
	}
}

bool fwcfg_present(void)
{
	char sig[4];

	fwcfg_read(FW_CFG_SIGNATURE, sig, sizeof(sig));
	return sig[0] == 'Q' && sig[1] == 'E' && sig[2] == 'M' && sig[3] == 'U';
}

unsigned fwcfg_cpu_count(void)
{
	uint8_t b[2];

	fwcfg_read(FW_CFG_NB_CPUS, b, sizeof(b));
	return (unsigned)b[0] | ((unsigned)b[1] << 8);
}
