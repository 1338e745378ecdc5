/* SPDX-License-Identifier: MIT */
/*
 * The SVSM's storage driver (src/dev/, svsm/blockdev.h) against the
 * host's virtio-blk model (model/dev/) in the simulated machine, on
 * either linked platform (csvsm-tests: plat_sim's MMIO; csvsm-tests-snp:
 * the GHCB's MMIO events to the KVM model): a round trip larger than the
 * bounce buffer, the capacity, an absent device, an I/O error, and one
 * test per lie of a hostile device, each ending in
 * TERM_CSVSM_DEVICE_PROTOCOL before the lie is used.
 */
#include <string.h>

#include "svsm/blockdev.h"
#include "svsm/terminate.h"

#include "model/virtio_blk.h"

#include "../framework/test.h"
#include "guest.h"

#define SECTORS 1024u
#define BIG 300u /* sectors: more than one bounce buffer (120) */

static uint8_t disk[SECTORS * BLOCKDEV_SECTOR];

static void config_with(struct sim_config *cfg, uint64_t sectors)
{
	sim_config_default(cfg);
	cfg->vblk_sectors = sectors;
	cfg->vblk_disk = sectors != 0 ? disk : NULL;
}

static struct sim_machine *machine_with(uint64_t sectors)
{
	struct sim_config cfg;

	config_with(&cfg, sectors);
	return tm_create(&cfg);
}

struct io {
	uint64_t lba;
	size_t n;
	uint8_t buf[BIG * BLOCKDEV_SECTOR];
	enum svsm_err err;
	bool present;
	uint64_t sectors;
};

static struct io io;

static void do_probe(void *arg)
{
	(void)arg;
	io.present = blockdev_present();
	io.sectors = blockdev_sectors();
}

static void do_write(void *arg)
{
	(void)arg;
	io.err = blockdev_write(io.lba, io.buf, io.n);
}

static void do_read(void *arg)
{
	(void)arg;
	io.err = blockdev_read(io.lba, io.buf, io.n);
}

static void do_flush(void *arg)
{
	(void)arg;
	io.err = blockdev_flush();
}

static bool run(struct sim_machine *m, void (*fn)(void *), uint32_t *set,
		uint32_t *code)
{
	return sim_run_svsm(m, fn, NULL, set, code);
}

static void fill(uint8_t *p, size_t len, uint8_t seed)
{
	size_t i;

	for (i = 0; i < len; i++) {
		p[i] = (uint8_t)(seed + i * 31 + (i >> 9));
	}
}

TEST(blockdev, round_trip_and_capacity)
{
	static uint8_t want[BIG * BLOCKDEV_SECTOR];
	struct sim_machine *m;
	uint32_t set = 0, code = 0;

	memset(disk, 0, sizeof(disk));
	m = machine_with(SECTORS);
	ASSERT_TRUE(m != NULL);
	ASSERT_TRUE(run(m, do_probe, &set, &code));
	EXPECT_TRUE(io.present);
	EXPECT_EQ(io.sectors, SECTORS);

	fill(want, sizeof(want), 7);
	memcpy(io.buf, want, sizeof(want));
	io.lba = 17;
	io.n = BIG;
	ASSERT_TRUE(run(m, do_write, &set, &code));
	EXPECT_EQ(io.err, SVSM_OK);
	/* On the host's disk, where it was asked to go. */
	EXPECT_EQ(memcmp(disk + 17 * BLOCKDEV_SECTOR, want, sizeof(want)), 0);
	ASSERT_TRUE(run(m, do_flush, &set, &code));
	EXPECT_EQ(io.err, SVSM_OK);

	memset(io.buf, 0, sizeof(io.buf));
	ASSERT_TRUE(run(m, do_read, &set, &code));
	EXPECT_EQ(io.err, SVSM_OK);
	EXPECT_EQ(memcmp(io.buf, want, sizeof(want)), 0);
	/* 300 sectors in 120-sector requests, both ways, and a flush. */
	EXPECT_EQ(sim_vblk_requests(m), 7u);

	/* The last sector is reachable; nothing is zero-length I/O. */
	io.lba = SECTORS - 1;
	io.n = 1;
	ASSERT_TRUE(run(m, do_read, &set, &code));
	EXPECT_EQ(io.err, SVSM_OK);
	io.n = 0;
	ASSERT_TRUE(run(m, do_read, &set, &code));
	EXPECT_EQ(io.err, SVSM_OK);
	check_invariants(m);
}

TEST(blockdev, the_disk_outlives_the_machine)
{
	struct sim_machine *m;
	struct sim_config cfg;
	uint32_t set = 0, code = 0;

	memset(disk, 0, sizeof(disk));
	config_with(&cfg, SECTORS);
	m = sim_create(&cfg); /* destroyed here, not at the test's end */
	ASSERT_TRUE(m != NULL);
	fill(io.buf, BLOCKDEV_SECTOR * 3, 99);
	io.lba = 0;
	io.n = 3;
	ASSERT_TRUE(run(m, do_write, &set, &code));
	EXPECT_EQ(io.err, SVSM_OK);
	sim_destroy(m);

	m = machine_with(SECTORS);
	ASSERT_TRUE(m != NULL);
	memset(io.buf, 0, sizeof(io.buf));
	ASSERT_TRUE(run(m, do_read, &set, &code));
	EXPECT_EQ(io.err, SVSM_OK);
	fill(io.buf + BLOCKDEV_SECTOR * 3, BLOCKDEV_SECTOR * 3, 99);
	EXPECT_EQ(memcmp(io.buf, io.buf + BLOCKDEV_SECTOR * 3,
			 BLOCKDEV_SECTOR * 3),
		  0);
}

TEST(blockdev, absent_device_is_a_state_error)
{
	struct sim_machine *m = machine_with(0);
	uint32_t set = 0, code = 0;

	ASSERT_TRUE(m != NULL);
	ASSERT_TRUE(run(m, do_probe, &set, &code));
	EXPECT_FALSE(io.present);
	EXPECT_EQ(io.sectors, 0u);
	io.lba = 0;
	io.n = 1;
	ASSERT_TRUE(run(m, do_read, &set, &code));
	EXPECT_EQ(io.err, SVSM_E_STATE);
	ASSERT_TRUE(run(m, do_write, &set, &code));
	EXPECT_EQ(io.err, SVSM_E_STATE);
	ASSERT_TRUE(run(m, do_flush, &set, &code));
	EXPECT_EQ(io.err, SVSM_E_STATE);
	check_invariants(m);
}

TEST(blockdev, io_error_is_a_state_error)
{
	struct sim_machine *m = machine_with(SECTORS);
	uint32_t set = 0, code = 0;

	ASSERT_TRUE(m != NULL);
	ASSERT_TRUE(sim_vblk_set_behaviour(m, VBLK_IOERR));
	io.lba = 0;
	io.n = 2;
	ASSERT_TRUE(run(m, do_read, &set, &code));
	EXPECT_EQ(io.err, SVSM_E_STATE);
	ASSERT_TRUE(run(m, do_write, &set, &code));
	EXPECT_EQ(io.err, SVSM_E_STATE);
	/* An honest device again: the queue is still in step. */
	ASSERT_TRUE(sim_vblk_set_behaviour(m, VBLK_HONEST));
	ASSERT_TRUE(run(m, do_read, &set, &code));
	EXPECT_EQ(io.err, SVSM_OK);
}

/* A probe, then a read under @lie: the SVSM terminates, named. */
static void expect_terminated_by(enum vblk_behaviour lie)
{
	struct sim_machine *m = machine_with(SECTORS);
	uint32_t set = 0, code = 0;

	ASSERT_TRUE(m != NULL);
	ASSERT_TRUE(run(m, do_probe, &set, &code));
	ASSERT_TRUE(io.present);
	ASSERT_TRUE(sim_vblk_set_behaviour(m, lie));
	memset(io.buf, 0x5A, BLOCKDEV_SECTOR);
	io.lba = 0;
	io.n = 1;
	io.err = SVSM_OK;
	EXPECT_FALSE(run(m, do_read, &set, &code));
	EXPECT_EQ(set, TERM_SET_CSVSM);
	EXPECT_EQ(code, TERM_CSVSM_DEVICE_PROTOCOL);
	/* Nothing of the lying reply reached the caller's buffer. */
	EXPECT_EQ(io.buf[0], 0x5A);
}

TEST(blockdev, hostile_used_index_terminates)
{
	expect_terminated_by(VBLK_LIE_USED_IDX);
}

TEST(blockdev, hostile_used_id_terminates)
{
	expect_terminated_by(VBLK_LIE_USED_ID);
}

TEST(blockdev, hostile_used_len_terminates)
{
	expect_terminated_by(VBLK_LIE_USED_LEN);
}

TEST(blockdev, hostile_status_terminates)
{
	expect_terminated_by(VBLK_LIE_STATUS);
}

TEST(blockdev, never_completing_device_terminates)
{
	expect_terminated_by(VBLK_NEVER_COMPLETE);
}

/*
 * The probe under a host whose register reads follow @script
 * (vblk_set_script: a byte per read, 0x80 then four bytes to replace
 * it). Reads in order: magic, version, device ID; the reset's status;
 * both feature words; the status after FEATURES_OK; QueueNumMax,
 * QueueReady; then the configuration (generation, low, high,
 * generation).
 */
static struct sim_machine *probed;

static bool probe_under(const uint8_t *script, size_t len, uint32_t *code)
{
	struct sim_config cfg;
	struct sim_machine *m;
	uint32_t set = 0;
	bool ran;

	config_with(&cfg, SECTORS);
	cfg.log_level = 2; /* NOTICE: what the driver says of the device */
	m = tm_create(&cfg);
	probed = m;

	ASSERT_TRUE(sim_vblk_script(m, script, len));
	*code = 0;
	io.present = true;
	ran = run(m, do_probe, &set, code);
	EXPECT_TRUE(ran || set == TERM_SET_CSVSM);
	return ran;
}

TEST(blockdev, legacy_device_is_absent)
{
	static const uint8_t version1[] = {0, 0x80, 1, 0, 0, 0, 0};
	uint32_t code = 0;

	ASSERT_TRUE(probe_under(version1, sizeof(version1), &code));
	EXPECT_FALSE(io.present);
	EXPECT_TRUE(strstr(sim_console(probed), "force-legacy=false") != NULL);
}

TEST(blockdev, device_without_version_1_is_absent)
{
	static const uint8_t no_v1[] = {0, 0, 0, 0, 0, 0x80, 0, 0, 0, 0};
	uint32_t code = 0;

	ASSERT_TRUE(probe_under(no_v1, sizeof(no_v1), &code));
	EXPECT_FALSE(io.present);
	EXPECT_TRUE(strstr(sim_console(probed), "does not offer VERSION_1") !=
		    NULL);
}

TEST(blockdev, features_refused_is_absent)
{
	static const uint8_t refused[] = {0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 0};
	uint32_t code = 0;

	ASSERT_TRUE(probe_under(refused, sizeof(refused), &code));
	EXPECT_FALSE(io.present);
	EXPECT_TRUE(strstr(sim_console(probed), "refused features") != NULL);
}

TEST(blockdev, unsettled_configuration_terminates)
{
	static uint8_t moving[9 + 16 * 8];
	uint32_t code = 0;
	unsigned i;

	memset(moving, 0, sizeof(moving));
	for (i = 0; i < 16; i++) { /* every second generation read differs */
		moving[9 + i * 8 + 3] = 0x80;
		moving[9 + i * 8 + 4] = (uint8_t)(i + 1);
	}
	EXPECT_FALSE(probe_under(moving, sizeof(moving), &code));
	EXPECT_EQ(code, TERM_CSVSM_DEVICE_PROTOCOL);
}
