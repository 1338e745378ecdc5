/* SPDX-License-Identifier: MIT */
/*
 * csvsm's vTPM state entry in the services manifest (docs/vtpm.md,
 * "Rollback evidence"): which state the vTPM runs, signed into every
 * SVSM attestation report with the rest of the manifest. A csvsm
 * service GUID of its own, beside the vTPM's (whose data stays the EK),
 * so clients that know only 58019's entries are not disturbed.
 *
 * Little-endian, CSVSM_VTPM_STATE_ENTRY_LEN bytes:
 *   0x00 version (1)            0x20 loaded generation (u64)
 *   0x04 outcome at boot        0x28 current generation (u64)
 *   0x08 flags                  0x30 SHA-384 of the loaded state (48)
 *   0x0C reserved, zero         0x60 SHA-384 of the current state (48)
 *   0x10 boot ID (16, random)   0x90 writes this boot (u64)
 *                               0x98 reserved, zero (u64)
 * "loaded": the state the vTPM started from (generation 0 and a zero
 * digest if none); "current": the newest state durably written (after
 * the device's flush), equal to loaded until the first write.
 */
#ifndef ABI_CSVSM_VTPM_STATE_H
#define ABI_CSVSM_VTPM_STATE_H

/* 0113c032-dc0e-49e8-8cf5-51495e447c57 */
#define CSVSM_VTPM_STATE_GUID                                                  \
	{                                                                      \
		0x32, 0xc0, 0x13, 0x01, 0x0e, 0xdc, 0xe8, 0x49, 0x8c, 0xf5,    \
			0x51, 0x49, 0x5e, 0x44, 0x7c, 0x57                     \
	}

#define CSVSM_VTPM_STATE_ENTRY_VERSION 1u
#define CSVSM_VTPM_STATE_ENTRY_LEN 0xA0u
#define CSVSM_VTPM_STATE_OFF_VERSION 0x00u
#define CSVSM_VTPM_STATE_OFF_OUTCOME 0x04u
#define CSVSM_VTPM_STATE_OFF_FLAGS 0x08u
#define CSVSM_VTPM_STATE_OFF_RSVD1 0x0Cu
#define CSVSM_VTPM_STATE_OFF_BOOT_ID 0x10u
#define CSVSM_VTPM_STATE_OFF_LOADED_GEN 0x20u
#define CSVSM_VTPM_STATE_OFF_CURRENT_GEN 0x28u
#define CSVSM_VTPM_STATE_OFF_LOADED_DIGEST 0x30u
#define CSVSM_VTPM_STATE_OFF_CURRENT_DIGEST 0x60u
#define CSVSM_VTPM_STATE_OFF_WRITES 0x90u
#define CSVSM_VTPM_STATE_OFF_RSVD2 0x98u
#define CSVSM_VTPM_STATE_BOOT_ID_LEN 16u
#define CSVSM_VTPM_STATE_DIGEST_LEN 48u

/* The outcome at boot: 0-10 what opening the stored state found
 * (svsm/vtpm_state.h's enum, same numbers), then what kept it from
 * being opened at all. */
#define CSVSM_VTPM_STATE_OK 0u
#define CSVSM_VTPM_STATE_MISSING 1u /* nothing stored: manufactured */
#define CSVSM_VTPM_STATE_TRUNCATED 2u
#define CSVSM_VTPM_STATE_CORRUPT 3u
#define CSVSM_VTPM_STATE_OLDER_FORMAT 4u
#define CSVSM_VTPM_STATE_NEWER_FORMAT 5u
#define CSVSM_VTPM_STATE_OTHER_IMAGE 6u
#define CSVSM_VTPM_STATE_OTHER_TCB 7u
#define CSVSM_VTPM_STATE_OTHER_MACHINE 8u
#define CSVSM_VTPM_STATE_ROLLED_BACK 9u
#define CSVSM_VTPM_STATE_REFUSED 10u /* authentic; the engine refused it */
#define CSVSM_VTPM_STATE_NO_STORAGE 0x100u /* no device: volatile */
#define CSVSM_VTPM_STATE_NO_KEY 0x101u	   /* the PSP gave no key: volatile */

/* Flags. */
#define CSVSM_VTPM_STATE_F_PERSISTENT 0x1u   /* changes are written */
#define CSVSM_VTPM_STATE_F_WRITE_FAILED 0x2u /* a write failed since boot */

#endif /* ABI_CSVSM_VTPM_STATE_H */
