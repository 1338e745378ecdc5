/* SPDX-License-Identifier: MIT */
/*
 * The hypervisor's DMA into guest memory on emu (emu/src/hv/hv_dma.c, under
 * the SVSM's block device model): shared pages only, all or nothing, no
 * C-bit address, nothing outside guest memory. emu's files are not part
 * of the hosted build; this one depends on nothing of the machine's.
 */
#include "abi/snp.h"

#include "../../emu/src/hv/hv_dma.c"
#include "../framework/test.h"

#define PAGES 512u /* 2 MiB of guest memory from GPA 0 */
#define C_MASK (1ull << 51)

static struct rmp_entry entries[PAGES];
static struct rmp rmp;
static uint8_t host[PAGES * DMA_PAGE];

static uint8_t *map(uint64_t gpa, uint64_t len)
{
	if (gpa >= sizeof(host) || len > sizeof(host) - gpa) {
		return NULL;
	}
	return host + gpa;
}

static void fresh(void)
{
	rmp_init(&rmp, entries, PAGES); /* every page shared */
	memset(host, 0x5A, sizeof(host));
}

TEST(emu_hv_dma, shared_pages_both_ways)
{
	uint8_t buf[6000], back[6000];

	fresh();
	memset(buf, 0xC3, sizeof(buf));
	/* Across a page boundary. */
	ASSERT_TRUE(
		hv_dma_copy(&rmp, map, C_MASK, 0x3F00, buf, sizeof(buf), true));
	EXPECT_EQ(host[0x3F00], 0xC3);
	EXPECT_EQ(host[0x3F00 + sizeof(buf) - 1], 0xC3);
	EXPECT_EQ(host[0x3F00 + sizeof(buf)], 0x5A);
	memset(back, 0, sizeof(back));
	ASSERT_TRUE(hv_dma_copy(&rmp, map, C_MASK, 0x3F00, back, sizeof(back),
				false));
	EXPECT_EQ(memcmp(buf, back, sizeof(buf)), 0);
	EXPECT_TRUE(hv_dma_copy(&rmp, map, C_MASK, 0x3F00, back, 0, false));
}

TEST(emu_hv_dma, a_private_page_is_refused_all_or_nothing)
{
	uint8_t buf[2 * DMA_PAGE];

	fresh();
	ASSERT_EQ(rmp_hv_assign(&rmp, 0x5000, false), SNP_RET_SUCCESS);
	memset(buf, 0xC3, sizeof(buf));
	/* From a shared page into the private one: no byte of either. */
	EXPECT_FALSE(hv_dma_copy(&rmp, map, C_MASK, 0x4800, buf, 0x1000, true));
	EXPECT_EQ(host[0x4800], 0x5A);
	EXPECT_EQ(host[0x5000], 0x5A);
	/* Reading the private page gives nothing of it. */
	memset(buf, 0, sizeof(buf));
	EXPECT_FALSE(hv_dma_copy(&rmp, map, C_MASK, 0x5000, buf, 16, false));
	EXPECT_EQ(buf[0], 0);
	/* Shared again (the host took it back): reachable. */
	ASSERT_EQ(rmp_hv_unassign(&rmp, 0x5000, false), SNP_RET_SUCCESS);
	EXPECT_TRUE(hv_dma_copy(&rmp, map, C_MASK, 0x5000, buf, 16, false));
	EXPECT_EQ(buf[0], 0x5A);
}

TEST(emu_hv_dma, no_c_bit_address_nothing_outside_memory)
{
	uint8_t buf[64];

	fresh();
	memset(buf, 0xC3, sizeof(buf));
	EXPECT_FALSE(hv_dma_copy(&rmp, map, C_MASK, C_MASK | 0x1000, buf,
				 sizeof(buf), true));
	EXPECT_EQ(host[0x1000], 0x5A);
	/* The last bytes of memory and one beyond. */
	EXPECT_TRUE(hv_dma_copy(&rmp, map, C_MASK, sizeof(host) - 64, buf, 64,
				false));
	EXPECT_FALSE(hv_dma_copy(&rmp, map, C_MASK, sizeof(host) - 63, buf, 64,
				 false));
	EXPECT_FALSE(
		hv_dma_copy(&rmp, map, C_MASK, sizeof(host), buf, 1, false));
	/* A range that wraps the address space. */
	EXPECT_FALSE(hv_dma_copy(&rmp, map, 0, UINT64_MAX - 10, buf,
				 sizeof(buf), false));
}
