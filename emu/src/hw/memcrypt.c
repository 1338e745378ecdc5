/* SPDX-License-Identifier: MIT */
/*
 * Memory encryption (hardware role). On SNP hardware without guest_memfd
 * a page's bytes in DRAM are ciphertext under the guest's key: read with
 * the C-bit clear, by the guest or the hypervisor, they are that
 * ciphertext; a shared page the guest makes private and validates reads
 * as the decryption of the bytes there, garbage. With guest_memfd the
 * private and shared pages are different host pages and QEMU discards
 * one on conversion. Either way a page whose owner changes never shows
 * the former owner's plaintext, in either direction.
 *
 * This machine keeps plaintext in its memory (QEMU encrypts nothing), so
 * RMPUPDATE, when it gives a page to the other owner, replaces the page's
 * bytes by their AES-256-GCM encryption (libcrypto: svsm/crypto.h) under
 * a key drawn from RDRAND at boot and never shown to anyone; the 96-bit
 * IV is the page's RMP index (one per guest physical page) and its count
 * of owner changes, so no IV is used twice and the result is
 * unpredictable to every party; the tag is dropped. Both directions get
 * the same treatment: a page given to the hypervisor shows ciphertext,
 * one given to the guest shows "the decryption" of what the host left,
 * which to the guest is as good as random.
 *
 * A page's first assignment keeps its bytes: the machine makes all guest
 * memory private at boot (KVM's SNP guests start private), before anyone
 * wrote it (zeros; hardware would show garbage there, which is nobody's
 * plaintext either). The PSP's launch changes no owner (LAUNCH_UPDATE
 * encrypts the loader's plaintext in place: the guest sees it).
 *
 * Concurrency: called under the RMP lock (every RMPUPDATE is), so the
 * counts need no lock of their own; libcrypto takes the libraries' lock
 * and saves the running VMPL's vector registers itself (lib_hooks.c).
 * The machine's own instruments may still read any page (they are the
 * hardware's); the hypervisor role reads only pages the RMP says are
 * shared, which after this hold no private plaintext.
 */
#include "memcrypt.h"

#include "svsm/crypto.h"
#include "svsm/std.h"

#include "machine/layout.h"
#include "machine/machine.h"

#define PAGE_BYTES 4096u

static struct rmp *crypt_rmp;
static uint8_t key[CRYPTO_AES256_KEY_LEN];
/* Per page: owner changes so far; 0 until its first assignment. */
static uint32_t *changes;

/** The RMP's owner_changed hook (model/snpmodel.h): @index changes owner. */
static void memcrypt_owner_changed(uint64_t index, bool to_guest)
{
	uint8_t *page = (uint8_t *)(MACHINE_GUEST_BASE + index * PAGE_BYTES);
	uint8_t iv[CRYPTO_GCM_IV_LEN];
	uint8_t tag[CRYPTO_GCM_TAG_LEN];
	uint32_t n;

	MCHECK(index < crypt_rmp->page_count);
	n = changes[index];
	if (n == 0 && to_guest) {
		changes[index] = 1; /* the boot's assignment: nobody's bytes */
		return;
	}
	MCHECK(n != UINT32_MAX);
	changes[index] = ++n;
	memcpy(iv, &index, 8);
	memcpy(iv + 8, &n, 4);
	/* SAFE: @page is the host page of an RMP entry (layout.h), under the
	 * RMP lock; encrypted in place (crypto_gcm_seal allows ct == pt). */
	if (!crypto_gcm_seal(key, iv, &index, sizeof(index), page, PAGE_BYTES,
			     page, tag)) {
		machine_panic("memory encryption: libcrypto failed");
	}
}

void memcrypt_setup(struct rmp *rmp, uint64_t pages)
{
	uint64_t bytes = pages * sizeof(*changes);

	if (!machine_entropy(key, sizeof(key))) {
		machine_panic("no RDRAND: no memory-encryption key");
	}
	changes = mm_alloc_pages((bytes + PAGE_BYTES - 1) / PAGE_BYTES);
	crypt_rmp = rmp;
	rmp->owner_changed = memcrypt_owner_changed;
}
