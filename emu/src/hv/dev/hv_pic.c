/* SPDX-License-Identifier: MIT */
#include "hv_pic.h"

#include "machine/machine.h"

#define ICW1 0x10u
#define ICW1_IC4 0x01u
#define ICW1_SINGLE 0x02u
#define OCW3_SELECT 0x08u

struct pic {
	uint8_t imr, elcr;
	uint8_t init; /* the next ICW expected: 2, 3, 4, or 0 (none) */
	bool icw4, single;
};

/* One pair for the VM: any vCPU reaches it, under the lock. */
static struct spinlock lock;
static struct pic pics[2] = {{.imr = 0xFF}, {.imr = 0xFF}};

static void command(struct pic *p, uint8_t v)
{
	if ((v & ICW1) != 0) {
		p->init = 2;
		p->icw4 = (v & ICW1_IC4) != 0;
		p->single = (v & ICW1_SINGLE) != 0;
		p->imr = 0;
	}
	/* OCW2 (EOI, rotation) and OCW3 (register select): nothing is ever
	 * pending or in service. */
}

static void data(struct pic *p, uint8_t v)
{
	switch (p->init) {
	case 2:
		p->init = p->single ? (p->icw4 ? 4 : 0) : 3;
		break;
	case 3:
		p->init = p->icw4 ? 4 : 0;
		break;
	case 4:
		p->init = 0;
		break;
	default:
		p->imr = v;
		break;
	}
}

bool hv_pic_io(uint16_t port, bool in, uint32_t *val)
{
	struct pic *p;
	bool cmd;

	switch (port) {
	case 0x20:
	case 0x21:
		p = &pics[0];
		break;
	case 0xA0:
	case 0xA1:
		p = &pics[1];
		break;
	case 0x4D0:
	case 0x4D1:
		spin_lock(&lock);
		if (in) {
			*val = pics[port - 0x4D0].elcr;
		} else {
			pics[port - 0x4D0].elcr = (uint8_t)*val;
		}
		spin_unlock(&lock);
		return true;
	default:
		return false;
	}
	cmd = (port & 1) == 0;
	spin_lock(&lock);
	if (in) {
		*val = cmd ? 0 : p->imr; /* IRR and ISR are empty */
	} else if (cmd) {
		command(p, (uint8_t)*val);
	} else {
		data(p, (uint8_t)*val);
	}
	spin_unlock(&lock);
	return true;
}
