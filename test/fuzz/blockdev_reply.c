/* SPDX-License-Identifier: MIT */
/*
 * Fuzz the SVSM's storage driver (src/dev/) with a hostile device: the
 * host's virtio-blk model answers honestly except where the fuzzer's
 * script (vblk_set_script) replaces a register or configuration value
 * (probe, features, queue size, capacity, generation) or a completion
 * (used index, id, length, status, none at all). The driver must either
 * accept what follows the virtio protocol, refuse the device (absent),
 * or terminate with TERM_CSVSM_DEVICE_PROTOCOL; a crash, a sanitizer
 * report, a panic (abort_on_panic) or another termination is a bug.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svsm/blockdev.h"
#include "svsm/terminate.h"

#include "fuzz_harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SECTORS 256u

static uint8_t disk[SECTORS * BLOCKDEV_SECTOR];
static uint8_t buf[SECTORS * BLOCKDEV_SECTOR];
static uint8_t op;

static void act(void *arg)
{
	uint64_t n = 1 + op % 150u, lba = op / 2u;

	(void)arg;
	if (!blockdev_present()) {
		return;
	}
	/* A caller checks the capacity first (svsm/blockdev.h). */
	if (lba > blockdev_sectors() || n > blockdev_sectors() - lba) {
		return;
	}
	(void)blockdev_write(lba, buf, n);
	(void)blockdev_flush();
	(void)blockdev_read(lba, buf, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim_config cfg;
	struct sim_machine *m;
	uint32_t set = 0, code = 0;

	if (size < 1) {
		return 0;
	}
	op = data[0];
	sim_config_default(&cfg);
	cfg.guest_mem_size = FUZZ_MEM;
	cfg.svsm_base = 2ull << 20;
	cfg.svsm_size = 1ull << 20;
	cfg.guest_secrets_gpa = 0x300000;
	cfg.guest_caa_gpa = 0x301000;
	cfg.abort_on_panic = true;
	cfg.vblk_sectors = SECTORS;
	cfg.vblk_disk = disk;
	m = sim_create(&cfg);
	if (m == NULL || !sim_vblk_script(m, data + 1, size - 1)) {
		abort();
	}
	if (!sim_run_svsm(m, act, NULL, &set, &code) &&
	    (set != TERM_SET_CSVSM || code != TERM_CSVSM_DEVICE_PROTOCOL)) {
		fprintf(stderr, "terminated %u/%u\n%s", set, code,
			sim_console(m));
		abort();
	}
	sim_destroy(m);
	return 0;
}
