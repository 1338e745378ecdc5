/* SPDX-License-Identifier: MIT */
/*
 * The vTPM's state across boots (src/core/vtpm_store.c) on the RAM disk
 * double: each sim_create() is a boot of the same image on the same chip
 * and disk. Truths: the EK is a function of the endorsement seed, which
 * only a restored state keeps (a manufactured TPM draws a new one); an
 * NV index a boot defined is there in the next one only if its state was
 * loaded; the slot layout and write discipline of svsm/vtpm_store.h; the
 * outcomes of svsm/vtpm_state.h.
 */
#include <stdlib.h>
#include <string.h>

#include "svsm/vtpm.h"
#include "svsm/vtpm_state.h"
#include "svsm/vtpm_store.h"

#include "abi/csvsm_vtpm_state.h"
#include "abi/svsm_vtpm.h"

#include "../../tools/verify/ledger.h"
#include "../../tools/verify/verify.h"
#include "../framework/test.h"
#include "guest.h"
#include "ram_disk.h"

#define BLOCK 0x2000000ull
#define BUFS 0x2010000ull /* attestation outputs, 24 KiB */
#define NONCE (BUFS + 0x6010ull)
#define NV_INDEX 0x01500016u

/* The machine of the boot under test: one at a time (the SVSM's state
 * is the process's), power-cycled by the next boot(). */
static struct sim_machine *cur;

static void power_off(void *arg)
{
	(void)arg;
	if (cur != NULL) {
		sim_destroy(cur);
		cur = NULL;
	}
}

/* Skip unless the sim platform, which passes the disk, is linked:
 * src/plat/snp passes none until its virtio-blk driver does
 * (svsm/blockdev.h). Before a test allocates anything. */
static void need_sim_platform(void)
{
	struct sim_config cfg;

	sim_config_default(&cfg);
	if (cfg.snp_ghcb) {
		test_skip("the snp platform passes no vTPM disk yet");
	}
}

/* The chip of the next boot: the PSP's chip secret comes from the
 * machine's seed (0: the default). */
static uint64_t chip_seed;

static void chip_seed_reset(void *arg)
{
	(void)arg;
	chip_seed = 0;
}

static struct sim_machine *boot(bool with_disk)
{
	struct sim_config cfg;

	need_sim_platform();
	if (cur != NULL) {
		power_off(NULL);
	} else {
		test_defer(power_off, NULL);
	}
	sim_config_default(&cfg);
	cfg.vtpm = true;
	cfg.vtpm_disk = with_disk ? &ram_disk_dev : NULL;
	if (chip_seed != 0) {
		cfg.seed = chip_seed;
	}
	cfg.log_level = getenv("VS_LOG") ? 5 : 0;
	cfg.log_stderr = getenv("VS_LOG") != NULL;
	cur = sim_create(&cfg);
	ASSERT_TRUE(cur != NULL);
	g_pvalidate_range(cur, 0, BLOCK, 0x18000, true);
	return cur;
}

static uint32_t be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
	       ((uint32_t)p[2] << 8) | p[3];
}

static uint32_t tpm(struct sim_machine *m, const uint8_t *cmd, uint32_t len)
{
	static uint8_t rsp[4096];
	uint32_t rsp_len = 0;
	uint32_t result = 0;

	if (sim_vtpm_command(m, 0, BLOCK, cmd, len, rsp, sizeof(rsp), &rsp_len,
			     &result) != SIM_OK ||
	    result != SVSM_SUCCESS || rsp_len < 10) {
		return ~0u;
	}
	return be32(rsp + 6);
}

/* TPM2_NV_DefineSpace(owner, NV_INDEX, 8 bytes, owner/auth read and
 * write), empty password session. */
static uint32_t nv_define(struct sim_machine *m)
{
	static const uint8_t cmd[] = {
		0x80, 0x02, 0x00, 0x00, 0x00, 0x2D, 0x00, 0x00,
		0x01, 0x2A, 0x40, 0x00, 0x00, 0x01, /* owner */
		0x00, 0x00, 0x00, 0x09, 0x40, 0x00, 0x00, 0x09,
		0x00, 0x00, 0x01, 0x00, 0x00,			/* session */
		0x00, 0x00,					/* auth */
		0x00, 0x0E, 0x01, 0x50, 0x00, 0x16, 0x00, 0x0B, /* public */
		0x00, 0x06, 0x00, 0x06, 0x00, 0x00, 0x00, 0x08,
	};

	return tpm(m, cmd, sizeof(cmd));
}

static uint32_t nv_read_public(struct sim_machine *m)
{
	static const uint8_t cmd[] = {0x80, 0x01, 0x00, 0x00, 0x00, 0x0E, 0x00,
				      0x00, 0x01, 0x69, 0x01, 0x50, 0x00, 0x16};

	return tpm(m, cmd, sizeof(cmd));
}

static uint32_t get_random(struct sim_machine *m)
{
	static const uint8_t cmd[] = {0x80, 0x01, 0x00, 0x00, 0x00, 0x0C,
				      0x00, 0x00, 0x01, 0x7B, 0x00, 0x10};

	return tpm(m, cmd, sizeof(cmd));
}

static struct vtpm_store_stats stats(void)
{
	struct vtpm_store_stats s;

	vtpm_store_get_stats(&s);
	return s;
}

static uint8_t ek_a[512], ek_b[512];
static size_t ek_a_len, ek_b_len;

static void ek_copy(uint8_t *to, size_t *len)
{
	const uint8_t *ek = vtpm_ek_public(len);

	ASSERT_TRUE(ek != NULL && *len <= sizeof(ek_a));
	memcpy(to, ek, *len);
}

/* The disk's generation in @slot's header (0x10), 0 if unwritten. */
static uint64_t slot_generation(unsigned slot)
{
	const uint8_t *p =
		ram_disk.data + (size_t)slot * VTPM_STORE_SLOT_BYTES + 0x10;
	uint64_t g = 0;
	int i;

	for (i = 7; i >= 0; i--) {
		g = (g << 8) | p[i];
	}
	return g;
}

TEST(vtpm_store, no_device_is_volatile_and_says_so)
{
	struct vtpm_store_stats s;
	uint8_t e[CSVSM_VTPM_STATE_ENTRY_LEN];

	boot(false);
	s = stats();
	EXPECT_EQ(s.outcome, CSVSM_VTPM_STATE_NO_STORAGE);
	EXPECT_EQ(s.flags, 0);
	EXPECT_EQ(s.writes, 0);
	ASSERT_EQ(vtpm_store_manifest(e, sizeof(e)), sizeof(e));
	EXPECT_EQ(e[CSVSM_VTPM_STATE_OFF_OUTCOME], 0x00);
	EXPECT_EQ(e[CSVSM_VTPM_STATE_OFF_OUTCOME + 1], 0x01);
}

TEST(vtpm_store, first_boot_manufactures_and_the_next_one_remembers)
{
	struct sim_machine *m;
	struct vtpm_store_stats s;

	ram_disk_reset(VTPM_STORE_SECTORS);
	m = boot(true);
	s = stats();
	EXPECT_EQ(s.outcome, CSVSM_VTPM_STATE_MISSING);
	EXPECT_EQ(s.flags, CSVSM_VTPM_STATE_F_PERSISTENT);
	EXPECT_EQ(s.loaded_generation, 0);
	/* Manufacture, Startup and the EK in one write. */
	EXPECT_EQ(s.writes, 1);
	EXPECT_EQ(s.generation, 1);
	EXPECT_EQ(slot_generation(0), 1);
	EXPECT_EQ(slot_generation(1), 0);
	EXPECT_EQ(ram_disk.flushes, 1);
	ek_copy(ek_a, &ek_a_len);
	EXPECT_NE(nv_read_public(m), 0u); /* no such index yet */
	EXPECT_EQ(nv_define(m), 0u);
	s = stats();
	EXPECT_EQ(s.generation, 2);
	EXPECT_EQ(slot_generation(1), 2);
	m = boot(true);
	s = stats();
	EXPECT_EQ(s.outcome, CSVSM_VTPM_STATE_OK);
	EXPECT_EQ(s.loaded_generation, 2);
	EXPECT_EQ(s.generation, 3); /* Startup(CLEAR) counts a reset */
	EXPECT_EQ(slot_generation(0), 3);
	ek_copy(ek_b, &ek_b_len);
	EXPECT_EQ(ek_a_len, ek_b_len);
	EXPECT_EQ(memcmp(ek_a, ek_b, ek_a_len), 0);
	EXPECT_EQ(nv_read_public(m), 0u);
}

/* TPM2_EvictControl(owner, 0x81010001, 0x81010001): the guest, as the
 * owner, takes the persistent RSA EK away. */
static uint32_t ek_evict(struct sim_machine *m)
{
	static const uint8_t cmd[] = {
		0x80, 0x02, 0x00, 0x00, 0x00, 0x23, 0x00, 0x00, 0x01,
		0x20, 0x40, 0x00, 0x00, 0x01, 0x81, 0x01, 0x00, 0x01,
		0x00, 0x00, 0x00, 0x09, 0x40, 0x00, 0x00, 0x09, 0x00,
		0x00, 0x01, 0x00, 0x00, 0x81, 0x01, 0x00, 0x01,
	};

	return tpm(m, cmd, sizeof(cmd));
}

TEST(vtpm_store, an_ek_the_guest_evicted_comes_back_the_same)
{
	struct sim_machine *m;

	ram_disk_reset(VTPM_STORE_SECTORS);
	m = boot(true);
	ek_copy(ek_a, &ek_a_len);
	EXPECT_EQ(ek_evict(m), 0u);
	m = boot(true); /* the state without the RSA EK's persistent copy */
	EXPECT_EQ(stats().outcome, CSVSM_VTPM_STATE_OK);
	ek_copy(ek_b, &ek_b_len);
	/* Created again from the same seed and template: the same key. */
	EXPECT_EQ(ek_a_len, ek_b_len);
	EXPECT_EQ(memcmp(ek_a, ek_b, ek_a_len), 0);
	EXPECT_EQ(ek_evict(m), 0u); /* and persistent again */
}

TEST(vtpm_store, commands_that_change_nothing_write_nothing)
{
	struct sim_machine *m;
	struct vtpm_store_stats before, after;
	unsigned i;

	ram_disk_reset(VTPM_STORE_SECTORS);
	m = boot(true);
	before = stats();
	for (i = 0; i < 20; i++) {
		EXPECT_EQ(get_random(m), 0u);
	}
	after = stats();
	EXPECT_EQ(after.commits - before.commits, 20);
	EXPECT_EQ(after.writes, before.writes);
	/* One command that changes NV: one write, one flush. */
	EXPECT_EQ(nv_define(m), 0u);
	after = stats();
	EXPECT_EQ(after.writes, before.writes + 1);
	EXPECT_EQ(after.generation, before.generation + 1);
	EXPECT_EQ(ram_disk.flushes, before.writes + 1);
}

TEST(vtpm_store, a_torn_write_loses_that_command_only)
{
	struct sim_machine *m;
	struct vtpm_store_stats s;

	ram_disk_reset(VTPM_STORE_SECTORS);
	m = boot(true); /* generation 1 in slot 0 */
	ram_disk.tear_after = 1;
	(void)nv_define(m); /* generation 2 to slot 1: its header only */
	EXPECT_TRUE(ram_disk.torn);
	m = boot(true);
	s = stats();
	/* Slot 1 fails its tag; slot 0, one generation older, is loaded:
	 * the index (whose response never reached the guest) is gone. */
	EXPECT_EQ(s.outcome, CSVSM_VTPM_STATE_OK);
	EXPECT_EQ(s.loaded_generation, 1);
	EXPECT_NE(nv_read_public(m), 0u);
	/* The next write overwrites the torn slot. */
	EXPECT_EQ(s.generation, 2);
	EXPECT_EQ(s.slot, 1u);
}

TEST(vtpm_store, a_failed_write_is_flagged_and_retried)
{
	struct sim_machine *m;
	struct vtpm_store_stats s;

	ram_disk_reset(VTPM_STORE_SECTORS);
	m = boot(true);
	ram_disk.fail_writes = 1;
	EXPECT_EQ(nv_define(m), 0u);
	s = stats();
	EXPECT_EQ(s.generation, 1);
	EXPECT_EQ(s.flags, CSVSM_VTPM_STATE_F_PERSISTENT |
				   CSVSM_VTPM_STATE_F_WRITE_FAILED);
	/* The change is still unwritten: the next command writes it. */
	EXPECT_EQ(get_random(m), 0u);
	s = stats();
	EXPECT_EQ(s.generation, 2);
	m = boot(true);
	EXPECT_EQ(nv_read_public(m), 0u);
}

/* Damage the newest slot; @both: the other too. */
static void damage(bool both, unsigned byte)
{
	ram_disk.data[VTPM_STORE_SLOT_BYTES + byte] ^= 0x40;
	if (both) {
		ram_disk.data[byte] ^= 0x40;
	}
}

TEST(vtpm_store, state_it_cannot_open_starts_fresh_and_is_kept)
{
	struct sim_machine *m;
	struct vtpm_store_stats s;
	uint8_t *copy;
	size_t n = (size_t)VTPM_STORE_SECTORS * VTPM_STORE_SECTOR;

	need_sim_platform();
	ram_disk_reset(VTPM_STORE_SECTORS);
	m = boot(true);
	EXPECT_EQ(nv_define(m), 0u); /* generations 1 and 2 */
	ek_copy(ek_a, &ek_a_len);
	damage(true, 0x300); /* ciphertext in both slots */
	copy = malloc(n);
	ASSERT_TRUE(copy != NULL);
	memcpy(copy, ram_disk.data, n);
	m = boot(true);
	s = stats();
	EXPECT_EQ(s.outcome, CSVSM_VTPM_STATE_CORRUPT);
	EXPECT_EQ(s.flags, 0); /* fresh and not stored */
	EXPECT_EQ(nv_define(m), 0u);
	s = stats();
	EXPECT_EQ(s.writes, 0);
	EXPECT_EQ(memcmp(copy, ram_disk.data, n), 0);
	/* A new TPM: another EK. */
	ek_copy(ek_b, &ek_b_len);
	EXPECT_NE(memcmp(ek_a, ek_b, ek_a_len), 0);
	free(copy);
}

TEST(vtpm_store, another_chip_cannot_open_it_and_leaves_it)
{
	struct sim_machine *m;
	struct vtpm_store_stats s;
	uint8_t *copy;
	size_t n = (size_t)VTPM_STORE_SECTORS * VTPM_STORE_SECTOR;

	need_sim_platform();
	ram_disk_reset(VTPM_STORE_SECTORS);
	boot(true);
	copy = malloc(n);
	ASSERT_TRUE(copy != NULL);
	memcpy(copy, ram_disk.data, n);
	test_defer(chip_seed_reset, NULL);
	chip_seed = 0x0DD5EED; /* the host moves the disk to another chip */
	m = boot(true);
	chip_seed = 0;
	s = stats();
	EXPECT_EQ(s.outcome, CSVSM_VTPM_STATE_OTHER_MACHINE);
	EXPECT_EQ(s.flags, 0);
	EXPECT_EQ(nv_define(m), 0u);
	EXPECT_EQ(memcmp(copy, ram_disk.data, n), 0);
	/* Back on its own chip it opens again. */
	boot(true);
	EXPECT_EQ(stats().outcome, CSVSM_VTPM_STATE_OK);
	free(copy);
}

static struct vtpm_state_key sealing_key;
static enum svsm_err sealing_err;

static void derive(void *arg)
{
	(void)arg;
	sealing_err = vtpm_state_key_derive(&sealing_key);
}

TEST(vtpm_store, authentic_state_the_engine_refuses_is_named_and_kept)
{
	static uint8_t blob[4096];
	static const uint8_t iv[VTPM_STATE_IV_LEN] = {3};
	static const char junk[] = "authentic, sealed, but no NV image";
	struct sim_machine *m;
	struct vtpm_store_stats s;
	size_t len = 0;

	need_sim_platform();
	ram_disk_reset(VTPM_STORE_SECTORS);
	m = boot(true);
	/* The key the SVSM seals with, asked of the PSP as the SVSM does:
	 * only this launch's VMPL0 gets it. */
	sealing_err = SVSM_E_INVAL;
	ASSERT_TRUE(sim_snp_run(m, derive, NULL, NULL, NULL));
	ASSERT_EQ(sealing_err, SVSM_OK);
	ASSERT_EQ(vtpm_state_seal(&sealing_key, 9, iv, junk, sizeof(junk), blob,
				  sizeof(blob), &len),
		  SVSM_OK);
	memset(ram_disk.data, 0, (size_t)2 * VTPM_STORE_SLOT_BYTES);
	memcpy(ram_disk.data, blob, len);
	boot(true);
	s = stats();
	EXPECT_EQ(s.outcome, CSVSM_VTPM_STATE_REFUSED);
	EXPECT_EQ(s.flags, 0);
	EXPECT_EQ(s.writes, 0);
	EXPECT_EQ(memcmp(ram_disk.data, blob, len), 0);
	EXPECT_EQ(slot_generation(1), 0);
}

TEST(vtpm_store, a_cut_device_is_truncated_state)
{
	struct vtpm_store_stats s;

	ram_disk_reset(VTPM_STORE_SECTORS);
	boot(true);	      /* generation 1 in slot 0 */
	ram_disk.sectors = 4; /* the host cut the file */
	boot(true);
	s = stats();
	EXPECT_EQ(s.outcome, CSVSM_VTPM_STATE_TRUNCATED);
	EXPECT_EQ(s.flags, 0);
}

TEST(vtpm_store, a_device_that_fails_reads_is_never_written_over)
{
	struct sim_machine *m;
	struct vtpm_store_stats s;
	uint64_t written;

	ram_disk_reset(VTPM_STORE_SECTORS);
	boot(true);
	written = ram_disk.sectors_written;
	ram_disk.fail_reads = true; /* an unreadable state is no missing one */
	m = boot(true);
	s = stats();
	EXPECT_EQ(s.outcome, CSVSM_VTPM_STATE_TRUNCATED);
	EXPECT_EQ(s.flags, 0);
	EXPECT_EQ(nv_define(m), 0u);
	EXPECT_EQ(ram_disk.sectors_written, written);
	ram_disk.fail_reads = false;
	boot(true);
	EXPECT_EQ(stats().outcome, CSVSM_VTPM_STATE_OK);
	EXPECT_EQ(stats().loaded_generation, 1);
}

TEST(vtpm_store, a_newer_slot_wins_and_an_older_copy_is_taken_silently)
{
	struct sim_machine *m;
	struct vtpm_store_stats s;
	uint8_t *old;
	size_t n = VTPM_STORE_SLOT_BYTES;

	need_sim_platform();
	ram_disk_reset(VTPM_STORE_SECTORS);
	boot(true); /* generation 1, slot 0 */
	old = malloc(2 * n);
	ASSERT_TRUE(old != NULL);
	memcpy(old, ram_disk.data, 2 * n);
	m = boot(true);		     /* loads 1, writes 2 to slot 1 */
	EXPECT_EQ(nv_define(m), 0u); /* 3, slot 0 */
	s = stats();
	EXPECT_EQ(s.generation, 3);
	/* The host puts back the first boot's disk: authentic, older. The
	 * SVSM cannot tell (no trusted counter); it says what it loaded. */
	memcpy(ram_disk.data, old, 2 * n);
	m = boot(true);
	s = stats();
	EXPECT_EQ(s.outcome, CSVSM_VTPM_STATE_OK);
	EXPECT_EQ(s.loaded_generation, 1);
	EXPECT_NE(nv_read_public(m), 0u);
	free(old);
}

/* This boot's state as a relying party reads it: a report and its
 * manifest from the attestation protocol, the manifest parsed and its
 * state entry read by csvsm-verify's own code; @who gets the report's
 * CHIP_ID and MEASUREMENT. */
static struct state_evidence evidence(struct sim_machine *m,
				      struct ledger_rec *who)
{
	static const uint8_t state_guid[16] = CSVSM_VTPM_STATE_GUID;
	static const uint8_t vtpm_guid[16] = SVSM_VTPM_SERVICE_GUID;
	static struct sim_attest_result a;
	static struct manifest man;
	struct state_evidence ev;
	uint8_t nonce[64] = {7};
	const char *why = "no state entry";
	unsigned i;

	memset(&ev, 0, sizeof(ev));
	ASSERT_EQ(sim_attest(m, 0, NULL, nonce, NONCE, BUFS, true, &a), SIM_OK);
	ASSERT_EQ(a.result, SVSM_SUCCESS);
	ASSERT_TRUE(manifest_parse(a.manifest, a.manifest_len, &man) == NULL);
	for (i = 0; i < man.count; i++) {
		if (memcmp(man.entry[i].guid, state_guid, 16) == 0) {
			why = state_entry_parse(man.entry[i].data,
						man.entry[i].len, &ev);
		}
	}
	ASSERT_TRUE(why == NULL);
	for (i = 0; i < man.count; i++) {
		if (memcmp(man.entry[i].guid, vtpm_guid, 16) == 0) {
			state_evidence_ek(&ev, man.entry[i].data,
					  man.entry[i].len);
		}
	}
	memcpy(who->chip_id, a.report + SNP_REPORT_OFF_CHIP_ID,
	       sizeof(who->chip_id));
	memcpy(who->measurement, a.report + SNP_REPORT_OFF_MEASUREMENT,
	       sizeof(who->measurement));
	return ev;
}

/* Judge this boot against @l, as csvsm-verify --ledger does. */
static enum ledger_verdict judge(struct sim_machine *m, struct ledger *l)
{
	struct ledger_rec who, next, *known;
	struct state_evidence ev = evidence(m, &who);
	enum ledger_verdict v;

	known = ledger_find(l, who.chip_id, who.measurement);
	v = ledger_judge(known, &ev, &next);
	memcpy(next.chip_id, who.chip_id, sizeof(next.chip_id));
	memcpy(next.measurement, who.measurement, sizeof(next.measurement));
	if (known == NULL) {
		known = &l->rec[l->count++];
	}
	if (v != LEDGER_ROLLBACK && v != LEDGER_FORK) {
		*known = next;
	}
	return v;
}

TEST(vtpm_store, the_ledger_sees_each_host_action_in_the_reports)
{
	static struct ledger l;
	struct sim_machine *m;
	uint8_t *first;
	size_t n = (size_t)VTPM_STORE_SECTORS * VTPM_STORE_SECTOR;

	need_sim_platform();
	memset(&l, 0, sizeof(l));
	first = malloc(n);
	ASSERT_TRUE(first != NULL);
	ram_disk_reset(VTPM_STORE_SECTORS);
	m = boot(true); /* manufactured: generation 1 */
	EXPECT_EQ(judge(m, &l), LEDGER_NEW);
	memcpy(first, ram_disk.data, n);
	EXPECT_EQ(nv_define(m), 0u); /* 2 */
	EXPECT_EQ(judge(m, &l), LEDGER_OK);
	EXPECT_EQ(l.rec[0].generation, 2);
	m = boot(true); /* loads 2, writes 3 */
	EXPECT_EQ(judge(m, &l), LEDGER_OK);
	EXPECT_EQ(l.rec[0].generation, 3);
	/* The host puts back the first boot's disk: each boot from it
	 * starts below generation 3... */
	memcpy(ram_disk.data, first, n);
	m = boot(true); /* loads 1, writes another 2 */
	EXPECT_EQ(judge(m, &l), LEDGER_ROLLBACK);
	m = boot(true); /* loads that 2, writes another 3 */
	EXPECT_EQ(judge(m, &l), LEDGER_ROLLBACK);
	/* ... until its history reaches 3 again, with other contents. */
	m = boot(true);
	EXPECT_EQ(judge(m, &l), LEDGER_FORK);
	EXPECT_EQ(l.rec[0].generation, 3);
	/* The host drops the state: a new TPM, a restart. */
	ram_disk_reset(VTPM_STORE_SECTORS);
	m = boot(true);
	EXPECT_EQ(judge(m, &l), LEDGER_RESTART);
	EXPECT_EQ(l.rec[0].generation, 1);
	m = boot(true);
	EXPECT_EQ(judge(m, &l), LEDGER_OK);
	free(first);
}

/* A boot as the firmware does it: no test disk passed, the SVSM's own
 * virtio-blk driver (src/dev/) over the host's device model, its disk
 * @disk (VTPM_STORE_SECTORS sectors; NULL: the host offers none), on
 * the platform linked (sim, or snp over its GHCB in csvsm-tests-snp). */
static uint64_t virtio_sectors = VTPM_STORE_SECTORS;

static struct sim_machine *boot_virtio(uint8_t *disk)
{
	struct sim_config cfg;

	if (cur != NULL) {
		power_off(NULL);
	} else {
		test_defer(power_off, NULL);
	}
	sim_config_default(&cfg);
	cfg.vtpm = true;
	cfg.vblk_sectors = disk != NULL ? virtio_sectors : 0;
	cfg.vblk_disk = disk;
	cur = sim_create(&cfg);
	ASSERT_TRUE(cur != NULL);
	g_pvalidate_range(cur, 0, BLOCK, 0x18000, true);
	return cur;
}

TEST(vtpm_store, the_svsms_own_virtio_disk_keeps_the_state)
{
	static uint8_t disk[(size_t)VTPM_STORE_SECTORS * VTPM_STORE_SECTOR];
	struct sim_machine *m;
	struct vtpm_store_stats s;

	memset(disk, 0, sizeof(disk));
	m = boot_virtio(disk);
	s = stats();
	EXPECT_EQ(s.outcome, CSVSM_VTPM_STATE_MISSING);
	EXPECT_EQ(s.generation, 1);
	ek_copy(ek_a, &ek_a_len);
	EXPECT_EQ(nv_define(m), 0u);
	EXPECT_EQ(memcmp(disk, "CSVSMvTS", 8), 0); /* the host sees a blob */
	m = boot_virtio(disk);
	s = stats();
	EXPECT_EQ(s.outcome, CSVSM_VTPM_STATE_OK);
	EXPECT_EQ(s.loaded_generation, 2);
	EXPECT_EQ(nv_read_public(m), 0u);
	ek_copy(ek_b, &ek_b_len);
	EXPECT_EQ(memcmp(ek_a, ek_b, ek_a_len), 0);
	/* No device: volatile, as before. */
	boot_virtio(NULL);
	EXPECT_EQ(stats().outcome, CSVSM_VTPM_STATE_NO_STORAGE);
	/* A device smaller than the store (64 KiB): nothing is asked of it
	 * past its end (the driver would panic); the missing slot is a cut
	 * one, and the vTPM runs unstored. */
	memset(disk, 0, sizeof(disk));
	virtio_sectors = 128;
	boot_virtio(disk);
	virtio_sectors = VTPM_STORE_SECTORS;
	s = stats();
	EXPECT_EQ(s.outcome, CSVSM_VTPM_STATE_TRUNCATED);
	EXPECT_EQ(s.flags, 0);
}
