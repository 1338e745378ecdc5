/* SPDX-License-Identifier: MIT */
/*
 * The vTPM's state on the SVSM's block device (svsm/vtpm_store.h, the
 * layout and the write discipline; docs/vtpm.md, "Persistent state").
 *
 * Threats (T23; docs/vtpm.md, "The threat model of the state"): the host
 * answers every read; what it returns is opened by vtpm_state_open(),
 * which hands out state only when our key's tag authenticates it. A slot
 * is read once into SVSM memory and only that copy is opened. The host
 * can refuse or fake writes and replay old slots: the SVSM cannot tell
 * (no trusted counter), so it publishes what it loaded and wrote in the
 * services manifest and a relying party's ledger judges (csvsm-verify).
 *
 * Policy: a state that opens (OK) is used; no state at all (MISSING) is
 * a first boot: a TPM is manufactured and stored. Any other outcome
 * starts a fresh TPM that is NOT stored: the blob the SVSM could not
 * open is left as it is (another image's, another TCB's, or damaged
 * bytes an operator may want back), and only the host removing it
 * (which it can always do) lets this image start a new stored state.
 *
 * Lock order: store_lock, then the libraries' lock (inside the
 * vtpm_service_* and crypto_* calls), then pub_lock. store_lock is held
 * across the device's writes (a wait on the host), so it is taken only
 * without the ownership lock; the attestation handler, which builds the
 * manifest under the ownership lock, reads the published entry under
 * pub_lock alone, a leaf held for a copy.
 */
#include "svsm/vtpm_store.h"

#include "svsm/blockdev.h"
#include "svsm/crypto.h"
#include "svsm/guest_msg.h"
#include "svsm/le.h"
#include "svsm/log.h"
#include "svsm/mem.h"
#include "svsm/plat.h"
#include "svsm/spinlock.h"
#include "svsm/std.h"
#include "svsm/vtpm_state.h"

#include "abi/csvsm_vtpm_state.h"
#include "abi/snp.h"

_Static_assert(VTPM_STATE_OK == CSVSM_VTPM_STATE_OK &&
		       VTPM_STATE_MISSING == CSVSM_VTPM_STATE_MISSING &&
		       VTPM_STATE_CORRUPT == CSVSM_VTPM_STATE_CORRUPT &&
		       VTPM_STATE_OTHER_MACHINE ==
			       CSVSM_VTPM_STATE_OTHER_MACHINE &&
		       VTPM_STATE_ROLLED_BACK == CSVSM_VTPM_STATE_ROLLED_BACK &&
		       VTPM_STATE_REFUSED == CSVSM_VTPM_STATE_REFUSED,
	       "the manifest's outcomes are vtpm_state's");
_Static_assert(VTPM_STATE_DIGEST_LEN == CSVSM_VTPM_STATE_DIGEST_LEN,
	       "the published digest is the blob's");
_Static_assert(VTPM_STORE_SLOT_BYTES >= VTPM_STATE_HDR_LEN * 2,
	       "a slot holds a header");
_Static_assert(VTPM_STORE_SECTOR == BLOCKDEV_SECTOR, "the device's sector");

const struct vtpm_disk vtpm_disk_blockdev = {
	.name = "virtio-blk",
	.present = blockdev_present,
	.sectors = blockdev_sectors,
	.read = blockdev_read,
	.write = blockdev_write,
	.flush = blockdev_flush,
};

#define SLOTS 2u
#define SAVE_TRIES 4u

struct store {
	const struct vtpm_disk *disk; /* NULL: volatile */
	struct vtpm_state_key key;
	bool has_key;
	bool active;	 /* a vTPM runs */
	bool persistent; /* its changes are written */
	bool has_slot;	 /* slot holds generation */
	bool write_failure_logged;
	bool no_memory;	       /* a slot could not be read into memory */
	uint64_t disk_sectors; /* the device's size, as it said at boot */
	unsigned slot;
	uint32_t outcome;
	uint32_t flags;
	uint8_t boot_id[CSVSM_VTPM_STATE_BOOT_ID_LEN];
	uint64_t loaded_generation;
	uint8_t loaded_digest[VTPM_STATE_DIGEST_LEN];
	uint64_t generation; /* the newest durably written */
	uint8_t digest[VTPM_STATE_DIGEST_LEN];
	uint64_t saved_changes; /* the engine's count at that write */
	uint64_t writes;
	uint64_t commits;
	uint64_t state_len;
};

static struct store st;
static struct spinlock store_lock;
/* The manifest entry as of the last change of st (under store_lock). */
static uint8_t pub_entry[CSVSM_VTPM_STATE_ENTRY_LEN];
static struct spinlock pub_lock;

/* Publish st as the manifest's entry. Under store_lock (or at boot). */
static void publish(void)
{
	uint8_t e[CSVSM_VTPM_STATE_ENTRY_LEN];

	memset(e, 0, sizeof(e));
	le_put32(e + CSVSM_VTPM_STATE_OFF_VERSION,
		 CSVSM_VTPM_STATE_ENTRY_VERSION);
	le_put32(e + CSVSM_VTPM_STATE_OFF_OUTCOME, st.outcome);
	le_put32(e + CSVSM_VTPM_STATE_OFF_FLAGS, st.flags);
	memcpy(e + CSVSM_VTPM_STATE_OFF_BOOT_ID, st.boot_id,
	       sizeof(st.boot_id));
	le_put64(e + CSVSM_VTPM_STATE_OFF_LOADED_GEN, st.loaded_generation);
	le_put64(e + CSVSM_VTPM_STATE_OFF_CURRENT_GEN, st.generation);
	memcpy(e + CSVSM_VTPM_STATE_OFF_LOADED_DIGEST, st.loaded_digest,
	       sizeof(st.loaded_digest));
	memcpy(e + CSVSM_VTPM_STATE_OFF_CURRENT_DIGEST, st.digest,
	       sizeof(st.digest));
	le_put64(e + CSVSM_VTPM_STATE_OFF_WRITES, st.writes);
	spin_lock(&pub_lock);
	memcpy(pub_entry, e, sizeof(e));
	spin_unlock(&pub_lock);
}

/* A zeroed buffer of at least @bytes from the page allocator. */
static void *buf_alloc(size_t bytes)
{
	unsigned order = 0;
	void *p;

	while (((size_t)SNP_PAGE_SIZE << order) < bytes) {
		order++;
	}
	p = page_alloc(order);
	if (p != NULL) {
		memset(p, 0, (size_t)SNP_PAGE_SIZE << order);
	}
	return p;
}

/* Free a buffer that held state: no plaintext stays in free memory. */
static void buf_free(void *p, size_t bytes)
{
	if (p != NULL) {
		crypto_wipe(p, bytes);
		page_free(p);
	}
}

static uint64_t slot_lba(unsigned slot)
{
	return (uint64_t)slot * VTPM_STORE_SLOT_SECTORS;
}

/* How many of @slot's sectors the device has (it may be smaller than
 * the store: the host sized it). */
static uint64_t slot_sectors(unsigned slot)
{
	uint64_t lba = slot_lba(slot);
	uint64_t left = st.disk_sectors > lba ? st.disk_sectors - lba : 0;

	return left < VTPM_STORE_SLOT_SECTORS ? left : VTPM_STORE_SLOT_SECTORS;
}

/*
 * Read slot @slot into a new buffer (*@buf, *@cap bytes; the caller
 * frees it), returning how many bytes of it are the blob: 0 for an
 * unwritten (zero) first sector, the first sector alone if it is no
 * header of ours (the opener names it), fewer bytes than the header
 * claims if the device ends or fails before (TRUNCATED). An unreadable
 * first sector sets *@unreadable: never taken for an unwritten one, so a
 * read error (a device cut short, or failing) cannot make the SVSM
 * manufacture a TPM over a state it could not read.
 */
static size_t slot_read(unsigned slot, uint8_t **buf, size_t *cap,
			bool *unreadable)
{
	uint8_t first[VTPM_STORE_SECTOR];
	uint64_t lba = slot_lba(slot);
	uint64_t avail = slot_sectors(slot);
	size_t want, sectors, readable, got;

	*buf = NULL;
	*cap = 0;
	*unreadable = avail == 0 || st.disk->read(lba, first, 1) != SVSM_OK;
	if (*unreadable || mem_all_zero(first, sizeof(first))) {
		return 0;
	}
	want = vtpm_state_claimed_len(first, sizeof(first));
	if (want == 0) {
		want = sizeof(first);
	}
	if (want > VTPM_STORE_SLOT_BYTES) {
		want = VTPM_STORE_SLOT_BYTES; /* cannot be whole: TRUNCATED */
	}
	sectors = (want + VTPM_STORE_SECTOR - 1) / VTPM_STORE_SECTOR;
	/* Never past the device's end (a caller's error, svsm/blockdev.h):
	 * what lies beyond is missing bytes, TRUNCATED. */
	readable = sectors < avail ? sectors : (size_t)avail;
	*cap = sectors * VTPM_STORE_SECTOR;
	*buf = buf_alloc(*cap);
	if (*buf == NULL) {
		*cap = 0;
		st.no_memory = true;
		return 0;
	}
	memcpy(*buf, first, sizeof(first));
	got = 1;
	if (readable > 1 && st.disk->read(lba + 1, *buf + VTPM_STORE_SECTOR,
					  readable - 1) == SVSM_OK) {
		got = readable;
	}
	/* The whole read failed: as far as single sectors go. */
	while (got < readable &&
	       st.disk->read(lba + got, *buf + got * VTPM_STORE_SECTOR, 1) ==
		       SVSM_OK) {
		got++;
	}
	return got == sectors ? want : got * VTPM_STORE_SECTOR;
}

/*
 * Open slot @slot: its outcome and header in @info; with @state, the
 * state in a new buffer (*@state, *@state_cap bytes; the caller frees
 * it with buf_free) when the outcome is OK.
 */
static enum vtpm_state_outcome slot_open(unsigned slot,
					 struct vtpm_state_info *info,
					 uint8_t **state, size_t *state_cap)
{
	enum vtpm_state_outcome o = VTPM_STATE_MISSING;
	uint8_t *blob = NULL;
	size_t blob_cap = 0;
	bool unreadable = false;
	size_t len = slot_read(slot, &blob, &blob_cap, &unreadable);
	uint8_t *out = NULL;
	size_t out_cap = len > VTPM_STATE_HDR_LEN ? len : 1;

	memset(info, 0, sizeof(*info));
	if (unreadable) {
		return VTPM_STATE_TRUNCATED;
	}
	out = len != 0 ? buf_alloc(out_cap) : NULL;
	if (len != 0 && out == NULL) {
		buf_free(blob, blob_cap);
		st.no_memory = true;
		return VTPM_STATE_MISSING; /* boot_from_disk() refuses it */
	}
	if (len != 0) {
		o = vtpm_state_open(&st.key, blob, len, 0, out, out_cap, info);
	}
	buf_free(blob, blob_cap);
	if (o == VTPM_STATE_OK && state != NULL) {
		*state = out;
		*state_cap = out_cap;
	} else {
		buf_free(out, out_cap);
	}
	return o;
}

static void fingerprint_log(void)
{
	uint8_t fp[8];
	uint64_t v = 0;
	unsigned i;

	if (!vtpm_state_key_fingerprint(&st.key, fp)) {
		return;
	}
	for (i = 0; i < sizeof(fp); i++) {
		v = (v << 8) | fp[i];
	}
	/* A digest of the key's ID, never the key: it tells keys apart. */
	LOG_NOTICE("vTPM state: sealing key %016llx (committed TCB %016llx)",
		   (unsigned long long)v, (unsigned long long)st.key.id.tcb);
}

/* The launch's sealing key, if the PSP gives one. */
static bool key_get(void)
{
	if (!guest_msg_available()) {
		LOG_NOTICE("vTPM state: no PSP channel, no sealing key");
		return false;
	}
	if (vtpm_state_key_derive(&st.key) != SVSM_OK) {
		crypto_wipe(&st.key, sizeof(st.key));
		LOG_NOTICE("vTPM state: the PSP gave no sealing key");
		return false;
	}
	fingerprint_log();
	return true;
}

/* Seal the engine's state as the next generation and write it to the
 * slot not in use, then flush. Under store_lock. */
static bool store_write(void)
{
	uint8_t iv[VTPM_STATE_IV_LEN];
	uint8_t *img = NULL;
	uint8_t *blob = NULL;
	size_t img_cap = 0, len = 0, blob_cap = 0, blob_len = 0;
	unsigned target = st.has_slot ? 1u - st.slot : 0u;
	struct crypto_piece piece = {NULL, 0};
	enum svsm_err err = SVSM_E_NOMEM;
	unsigned tries;

	/* Other vCPUs' commands may grow the state between the size and
	 * the copy: take a copy that fits, a few tries at most. */
	for (tries = 0; tries < SAVE_TRIES && err == SVSM_E_NOMEM; tries++) {
		buf_free(img, img_cap);
		img = NULL;
		if (vtpm_service_state_save(NULL, 0, &img_cap) != SVSM_OK) {
			break;
		}
		img_cap += VTPM_STORE_SECTOR;
		img = buf_alloc(img_cap);
		if (img == NULL) {
			break;
		}
		err = vtpm_service_state_save(img, img_cap, &len);
	}
	if (err == SVSM_OK &&
	    (len > VTPM_STATE_MAX_LEN ||
	     vtpm_state_sealed_len(len) > VTPM_STORE_SLOT_BYTES)) {
		err = SVSM_E_NOMEM; /* a state larger than a slot */
	}
	if (err == SVSM_OK) {
		blob_cap =
			ALIGN_UP(vtpm_state_sealed_len(len), VTPM_STORE_SECTOR);
		blob = buf_alloc(blob_cap);
		piece = (struct crypto_piece){img, len};
		err = SVSM_E_INVAL;
	}
	if (blob != NULL &&
	    slot_sectors(target) < blob_cap / VTPM_STORE_SECTOR) {
		err = SVSM_E_STATE; /* the device ends before the blob */
	} else if (blob != NULL && plat_entropy(iv, sizeof(iv)) &&
		   vtpm_state_seal(&st.key, st.generation + 1, iv, img, len,
				   blob, blob_cap, &blob_len) == SVSM_OK &&
		   crypto_sha384(&piece, 1, st.digest)) {
		err = st.disk->write(slot_lba(target), blob,
				     blob_cap / VTPM_STORE_SECTOR);
		if (err == SVSM_OK) {
			err = st.disk->flush();
		}
	}
	buf_free(img, img_cap);
	buf_free(blob, blob_cap);
	if (err != SVSM_OK) {
		/* Flagged in every report from now on; logged once (the
		 * guest's commands retry it, and must not flood the log). */
		st.flags |= CSVSM_VTPM_STATE_F_WRITE_FAILED;
		if (!st.write_failure_logged) {
			LOG_NOTICE("vTPM state: writing generation %llu (%llu "
				   "bytes) to slot %u failed (error %d); the "
				   "device keeps generation %llu",
				   (unsigned long long)st.generation + 1,
				   (unsigned long long)len, target, (int)err,
				   (unsigned long long)st.generation);
			st.write_failure_logged = true;
		}
		return false;
	}
	st.generation++;
	st.slot = target;
	st.has_slot = true;
	st.writes++;
	st.state_len = len;
	return true;
}

void vtpm_store_commit(void)
{
	uint64_t n = 0;
	uint8_t keep[VTPM_STATE_DIGEST_LEN];

	spin_lock(&store_lock);
	st.commits++;
	if (st.persistent) {
		/* The count first: a change after it is in the image too,
		 * and at worst written once more. */
		n = vtpm_service_nv_changes();
		if (n != st.saved_changes) {
			memcpy(keep, st.digest, sizeof(keep));
			if (store_write()) {
				st.saved_changes = n;
			} else {
				memcpy(st.digest, keep, sizeof(keep));
			}
			publish();
		}
	}
	spin_unlock(&store_lock);
}

/* Start the engine afresh (not from stored state). */
static enum svsm_err start_fresh(const struct vtpm_engine *engine)
{
	enum svsm_err err = vtpm_service_init(engine, NULL, 0);

	st.active = err == SVSM_OK;
	return err;
}

/* Both slots' outcomes to one: an OK one (the newer if both), else
 * MISSING only if both are, else the first that says something. */
static unsigned slot_pick(const enum vtpm_state_outcome o[SLOTS],
			  const struct vtpm_state_info info[SLOTS])
{
	if (o[0] == VTPM_STATE_OK && o[1] == VTPM_STATE_OK) {
		return info[1].generation > info[0].generation ? 1u : 0u;
	}
	if (o[1] == VTPM_STATE_OK) {
		return 1u;
	}
	if (o[0] == VTPM_STATE_MISSING && o[1] != VTPM_STATE_MISSING) {
		return 1u;
	}
	return 0u;
}

static enum svsm_err boot_from_disk(const struct vtpm_engine *engine)
{
	enum vtpm_state_outcome o[SLOTS];
	struct vtpm_state_info info[SLOTS];
	unsigned s;
	uint8_t *state = NULL;
	size_t state_cap = 0;
	enum svsm_err err;

	st.disk_sectors = st.disk->sectors();
	if (st.disk_sectors < VTPM_STORE_SECTORS) {
		LOG_NOTICE("vTPM state: %s has %llu sectors, the store needs "
			   "%u",
			   st.disk->name, (unsigned long long)st.disk_sectors,
			   VTPM_STORE_SECTORS);
	}
	for (s = 0; s < SLOTS; s++) {
		o[s] = slot_open(s, &info[s], NULL, NULL);
	}
	/* A heap too small to read the state must not look like no state
	 * (a manufactured TPM would be written over it): an internal
	 * failure, the boot's. */
	if (st.no_memory) {
		LOG_ERROR("vTPM state: no memory to read the stored state");
		return SVSM_E_NOMEM;
	}
	s = slot_pick(o, info);
	st.outcome = (uint32_t)o[s];
	LOG_NOTICE("vTPM state on %s: slot 0 %s (generation %llu), slot 1 "
		   "%s (generation %llu)",
		   st.disk->name, vtpm_state_outcome_name(o[0]),
		   (unsigned long long)info[0].generation,
		   vtpm_state_outcome_name(o[1]),
		   (unsigned long long)info[1].generation);
	if (o[s] == VTPM_STATE_MISSING) {
		/* A first boot (or a host that dropped the state: the two
		 * look alike; the relying party's ledger tells them apart). */
		st.persistent = true;
		return start_fresh(engine);
	}
	if (o[s] != VTPM_STATE_OK) {
		LOG_NOTICE("vTPM state: %s; a fresh TPM runs, not stored, and "
			   "the device is left as it is",
			   vtpm_state_outcome_name(o[s]));
		return start_fresh(engine);
	}
	/* Read and open the winner again, now keeping its state: the
	 * slot's bytes are read once more, and opened again. */
	o[s] = slot_open(s, &info[s], &state, &state_cap);
	if (o[s] != VTPM_STATE_OK) {
		st.outcome = (uint32_t)o[s];
		LOG_NOTICE("vTPM state: slot %u changed under the SVSM (%s); "
			   "a fresh TPM runs, not stored",
			   s, vtpm_state_outcome_name(o[s]));
		return start_fresh(engine);
	}
	err = vtpm_service_init(engine, state, info[s].state_len);
	buf_free(state, state_cap);
	if (err == SVSM_E_STATE) {
		st.outcome = CSVSM_VTPM_STATE_REFUSED;
		LOG_NOTICE("vTPM state: generation %llu refused by the "
			   "engine; a fresh TPM runs, not stored",
			   (unsigned long long)info[s].generation);
		return start_fresh(engine);
	}
	if (err != SVSM_OK) {
		return err;
	}
	st.active = true;
	st.persistent = true;
	st.slot = s;
	st.has_slot = true;
	st.loaded_generation = info[s].generation;
	st.generation = info[s].generation;
	memcpy(st.loaded_digest, info[s].digest, sizeof(st.loaded_digest));
	memcpy(st.digest, info[s].digest, sizeof(st.digest));
	return SVSM_OK;
}

/* Start the vTPM from the device's state, or fresh; st says how. */
static enum svsm_err store_start(const struct vtpm_engine *engine,
				 const struct vtpm_disk *disk)
{
	st.has_key = key_get();
	if (disk == NULL || !disk->present()) {
		LOG_NOTICE("vTPM state: no storage device; the vTPM's state "
			   "is not kept");
		return start_fresh(engine);
	}
	if (!st.has_key) {
		st.outcome = CSVSM_VTPM_STATE_NO_KEY;
		LOG_NOTICE("vTPM state: no sealing key; the vTPM's state is "
			   "not kept");
		return start_fresh(engine);
	}
	st.disk = disk;
	return boot_from_disk(engine);
}

enum svsm_err vtpm_store_boot(const struct vtpm_engine *engine,
			      const struct vtpm_disk *disk)
{
	enum svsm_err err;

	crypto_wipe(&st, sizeof(st));
	spin_init(&store_lock);
	spin_init(&pub_lock);
	st.outcome = CSVSM_VTPM_STATE_NO_STORAGE;
	if (engine == NULL) {
		return vtpm_service_init(NULL, NULL, 0);
	}
	if (!plat_entropy(st.boot_id, sizeof(st.boot_id))) {
		LOG_NOTICE("vTPM state: no randomness for the boot ID");
		return SVSM_E_INVAL;
	}
	err = store_start(engine, disk);
	if (err != SVSM_OK) {
		st.persistent = false;
		st.active = false;
		return err;
	}
	if (st.persistent) {
		st.flags |= CSVSM_VTPM_STATE_F_PERSISTENT;
	}
	publish();
	if (st.persistent) {
		vtpm_store_commit(); /* manufacture, Startup and EKs at once */
	}
	LOG_NOTICE("vTPM state: %s, generation %llu loaded, %llu stored",
		   st.outcome == CSVSM_VTPM_STATE_REFUSED
			   ? "refused by the engine"
		   : st.outcome == CSVSM_VTPM_STATE_NO_STORAGE ? "no storage"
		   : st.outcome == CSVSM_VTPM_STATE_NO_KEY
			   ? "no sealing key"
			   : vtpm_state_outcome_name(
				     (enum vtpm_state_outcome)st.outcome),
		   (unsigned long long)st.loaded_generation,
		   (unsigned long long)st.generation);
	return SVSM_OK;
}

size_t vtpm_store_manifest(uint8_t *buf, size_t cap)
{
	if (!st.active || cap < CSVSM_VTPM_STATE_ENTRY_LEN) {
		return 0;
	}
	spin_lock(&pub_lock);
	memcpy(buf, pub_entry, CSVSM_VTPM_STATE_ENTRY_LEN);
	spin_unlock(&pub_lock);
	return CSVSM_VTPM_STATE_ENTRY_LEN;
}

void vtpm_store_get_stats(struct vtpm_store_stats *s)
{
	spin_lock(&store_lock);
	s->outcome = st.outcome;
	s->flags = st.flags;
	s->loaded_generation = st.loaded_generation;
	s->generation = st.generation;
	s->writes = st.writes;
	s->commits = st.commits;
	s->state_len = st.state_len;
	s->slot = st.slot;
	spin_unlock(&store_lock);
}
