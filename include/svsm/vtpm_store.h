/* SPDX-License-Identifier: MIT */
/*
 * The vTPM's state kept on the SVSM's block device (issue 28;
 * docs/vtpm.md, "Persistent state"): at boot it is read, opened
 * (svsm/vtpm_state.h) and the engine started from it; afterwards every
 * TPM command that changed the persistent state is followed by one
 * sealed write of the whole state, a generation newer, before the
 * command's response reaches the guest.
 *
 * The device is reached through struct vtpm_disk, a const table of the
 * functions of svsm/blockdev.h (same signatures): vtpm_disk_blockdev,
 * the SVSM's own virtio-blk device, unless svsm_boot_info.vtpm_disk
 * names another (the tests' RAM disk, csvsm-sim's host file). No device
 * (none probed, or NULL): the vTPM is volatile and its manifest entry
 * says so.
 *
 * On the device: two slots of VTPM_STORE_SLOT_SECTORS sectors, slot 0 at
 * LBA 0 and slot 1 after it, each a sealed blob from its first sector
 * (zero-padded to a sector). Writes alternate: a new generation goes to
 * the slot that does not hold the state in use, then the device is
 * flushed. At boot both slots are opened; the valid one of the higher
 * generation wins. A torn write damages only the slot being written,
 * which then fails its tag (CORRUPT) or length (TRUNCATED), and the
 * other slot, one generation older, is loaded: the command whose write
 * was torn never got its response.
 *
 * Lock order: the store's lock, then the libraries' lock (taken inside
 * vtpm_service_*); never with the ownership lock held (it is held across
 * the device's writes). vtpm_store_manifest() takes only a leaf lock
 * and may be called under the ownership lock.
 */
#ifndef SVSM_VTPM_STORE_H
#define SVSM_VTPM_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "svsm/err.h"
#include "svsm/vtpm.h"

/** A block device, as svsm/blockdev.h's functions (the same contract). */
struct vtpm_disk {
	const char *name;
	bool (*present)(void);
	uint64_t (*sectors)(void);
	enum svsm_err (*read)(uint64_t lba, void *buf, size_t n);
	enum svsm_err (*write)(uint64_t lba, const void *buf, size_t n);
	enum svsm_err (*flush)(void);
};

/** The SVSM's own block device (svsm/blockdev.h, src/dev/). */
extern const struct vtpm_disk vtpm_disk_blockdev;

#define VTPM_STORE_SECTOR 512u
/* A slot holds a sealed state of up to VTPM_STORE_SLOT_BYTES bytes:
 * libtpms' permanent state with its 128 KiB of NV memory fits. */
#define VTPM_STORE_SLOT_BYTES 0x80000u /* 512 KiB */
#define VTPM_STORE_SLOT_SECTORS 1024u
#define VTPM_STORE_SECTORS 2048u /* the two slots: 1 MiB */
_Static_assert(VTPM_STORE_SLOT_SECTORS *VTPM_STORE_SECTOR ==
			       VTPM_STORE_SLOT_BYTES &&
		       VTPM_STORE_SECTORS == 2 * VTPM_STORE_SLOT_SECTORS,
	       "two slots of whole sectors");

/**
 * Start the vTPM (@engine NULL: none) from the state on @disk (NULL: no
 * device). Never fails for what the host did to the state: each outcome
 * is logged and published (vtpm_store_manifest); only the engine's own
 * failure to start is returned.
 */
enum svsm_err vtpm_store_boot(const struct vtpm_engine *engine,
			      const struct vtpm_disk *disk);

/**
 * After a TPM command: if the persistent state changed since it was
 * last written, seal and write it (a generation newer) and flush. All
 * the changes one command made, and those of commands that ran
 * meanwhile, go in one write.
 */
void vtpm_store_commit(void);

/** The manifest entry (abi/csvsm_vtpm_state.h) as of the last write
 * into @buf; its length, 0 without a vTPM or if @cap is short. */
size_t vtpm_store_manifest(uint8_t *buf, size_t cap);

/** Counts, for tests and the benchmark. */
struct vtpm_store_stats {
	uint32_t outcome; /* CSVSM_VTPM_STATE_* */
	uint32_t flags;
	uint64_t loaded_generation;
	uint64_t generation; /* the newest durably written */
	uint64_t writes;     /* sealed writes since boot */
	uint64_t commits;    /* vtpm_store_commit() calls since boot */
	uint64_t state_len;  /* the last state image's length */
	unsigned slot;	     /* the slot holding the newest state */
};
void vtpm_store_get_stats(struct vtpm_store_stats *s);

#endif /* SVSM_VTPM_STORE_H */
