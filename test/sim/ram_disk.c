/* SPDX-License-Identifier: MIT */
/* The RAM disk double (ram_disk.h). */
#include "ram_disk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ram_disk ram_disk;

void ram_disk_reset(uint64_t sectors)
{
	free(ram_disk.data);
	memset(&ram_disk, 0, sizeof(ram_disk));
	ram_disk.data = calloc(sectors ? sectors : 1, VTPM_STORE_SECTOR);
	ram_disk.sectors = sectors;
	ram_disk.present = true;
}

static bool rd_present(void)
{
	return ram_disk.present;
}

static uint64_t rd_sectors(void)
{
	return ram_disk.present ? ram_disk.sectors : 0;
}

/* svsm/blockdev.h: a request past the device's end is the caller's
 * error (the SVSM's driver panics): the double aborts the test. */
static bool in_range(uint64_t lba, size_t n)
{
	if (lba > ram_disk.sectors || n > ram_disk.sectors - lba) {
		fprintf(stderr,
			"ram disk: a request past the end (%llu+%zu "
			"of %llu sectors)\n",
			(unsigned long long)lba, n,
			(unsigned long long)ram_disk.sectors);
		abort();
	}
	return ram_disk.present;
}

static enum svsm_err rd_read(uint64_t lba, void *buf, size_t n)
{
	ram_disk.reads++;
	if (ram_disk.fail_reads || !in_range(lba, n)) {
		return SVSM_E_STATE;
	}
	memcpy(buf, ram_disk.data + lba * VTPM_STORE_SECTOR,
	       n * VTPM_STORE_SECTOR);
	return SVSM_OK;
}

static enum svsm_err rd_write(uint64_t lba, const void *buf, size_t n)
{
	ram_disk.writes++;
	if (ram_disk.fail_writes != 0) {
		ram_disk.fail_writes--;
		return SVSM_E_STATE;
	}
	if (!in_range(lba, n)) {
		return SVSM_E_STATE;
	}
	if (ram_disk.torn) {
		return SVSM_OK; /* the power is gone */
	}
	if (ram_disk.tear_after != 0 && n > ram_disk.tear_after) {
		n = ram_disk.tear_after;
		ram_disk.torn = true;
	}
	memcpy(ram_disk.data + lba * VTPM_STORE_SECTOR, buf,
	       n * VTPM_STORE_SECTOR);
	ram_disk.sectors_written += n;
	return SVSM_OK;
}

static enum svsm_err rd_flush(void)
{
	ram_disk.flushes++;
	return ram_disk.present ? SVSM_OK : SVSM_E_STATE;
}

const struct vtpm_disk ram_disk_dev = {
	.name = "ram disk (test)",
	.present = rd_present,
	.sectors = rd_sectors,
	.read = rd_read,
	.write = rd_write,
	.flush = rd_flush,
};
