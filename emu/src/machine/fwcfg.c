/* SPDX-License-Identifier: MIT */
#include "fwcfg.h"

#include "svsm/std.h"

#include "arch.h"
#include "machine.h"

#define PORT_SEL 0x510
#define PORT_DATA 0x511
#define PORT_DMA_HI 0x514
#define PORT_DMA_LO 0x518
#define KEY_SIGNATURE 0x0000
#define KEY_ID 0x0001
#define KEY_NB_CPUS 0x0005
#define KEY_FILE_DIR 0x0019
#define ID_DMA 0x2u
#define DMA_ERROR 0x1u
#define DMA_READ 0x2u
#define DMA_SELECT 0x8u

struct fw_cfg_dma {
	uint32_t control, length;
	uint64_t address;
} __attribute__((packed, aligned(16)));

static void read_bytes(uint16_t key, void *buf, unsigned len)
{
	uint8_t *p = buf;
	unsigned i;

	outw(PORT_SEL, key);
	for (i = 0; i < len; i++) {
		p[i] = inb(PORT_DATA);
	}
}

static void more_bytes(void *buf, unsigned len)
{
	uint8_t *p = buf;
	unsigned i;

	for (i = 0; i < len; i++) {
		p[i] = inb(PORT_DATA);
	}
}

static uint32_t be32(uint32_t v)
{
	return __builtin_bswap32(v);
}

bool fwcfg_present(void)
{
	char sig[4];

	read_bytes(KEY_SIGNATURE, sig, sizeof(sig));
	return sig[0] == 'Q' && sig[1] == 'E' && sig[2] == 'M' && sig[3] == 'U';
}

unsigned fwcfg_cpu_count(void)
{
	uint8_t b[2];

	read_bytes(KEY_NB_CPUS, b, sizeof(b));
	return (unsigned)b[0] | ((unsigned)b[1] << 8);
}

bool fwcfg_file(const char *name, uint32_t *size, uint16_t *select)
{
	uint32_t count, i;

	read_bytes(KEY_FILE_DIR, &count, sizeof(count));
	count = be32(count);
	for (i = 0; i < count && i < 4096; i++) {
		struct {
			uint32_t size;
			uint16_t select, reserved;
			char name[56];
		} e;

		more_bytes(&e, sizeof(e));
		e.name[55] = '\0';
		if (str_eq(e.name, name)) {
			*size = be32(e.size);
			*select = __builtin_bswap16(e.select);
			return true;
		}
	}
	return false;
}

bool fwcfg_read_file(uint16_t select, void *buf, uint32_t len)
{
	static struct fw_cfg_dma dma;
	uint32_t id;
	uint64_t pa = (uint64_t)&dma;

	read_bytes(KEY_ID, &id, sizeof(id));
	if ((id & ID_DMA) == 0) {
		read_bytes(select, buf, len); /* slow, but there */
		return true;
	}
	dma.control = be32(((uint32_t)select << 16) | DMA_SELECT | DMA_READ);
	dma.length = be32(len);
	dma.address = __builtin_bswap64((uint64_t)buf);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	__asm__ volatile("outl %0, %1" ::"a"(be32((uint32_t)(pa >> 32))),
			 "Nd"((uint16_t)PORT_DMA_HI));
	__asm__ volatile("outl %0, %1" ::"a"(be32((uint32_t)pa)),
			 "Nd"((uint16_t)PORT_DMA_LO)
			 : "memory");
	while ((be32(__atomic_load_n(&dma.control, __ATOMIC_ACQUIRE)) &
		~DMA_ERROR) != 0) {
		cpu_relax();
	}
	return (be32(dma.control) & DMA_ERROR) == 0;
}
