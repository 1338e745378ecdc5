/* SPDX-License-Identifier: MIT */
#include "svsm/guestmem.h"

#include "svsm/check.h"
#include "svsm/owner_lock.h"
#include "svsm/ownership.h"
#include "svsm/plat.h"

/*
 * T01: a guest-supplied GPA must never reach SVSM memory. The range check
 * runs on every access, so no caller can forget it, and under the
 * ownership lock, so no change of ownership falls between it and the copy.
 */
static enum svsm_err guestmem_check(gpa_t gpa, size_t len)
{
	CHECK(owner_lock_held());
	if (!owner_is_guest_accessible(gpa, len)) {
		return SVSM_E_ADDR;
	}
	return SVSM_OK;
}

/* T09: a parameter buffer may lie in a Calling Area's buffer, never on
 * its control bytes (call_pending decides whether a call is served). */
static enum svsm_err guestmem_check_param(gpa_t gpa, size_t len)
{
	enum svsm_err err = guestmem_check(gpa, len);

	if (err == SVSM_OK && owner_overlaps_caa_control(gpa, len)) {
		err = SVSM_E_ADDR;
	}
	return err;
}

/* The copies, once @err says the range passed its check. */
static enum svsm_err copy_in(enum svsm_err err, gpa_t gpa, void *dst,
			     size_t len)
{
	if (err != SVSM_OK) {
		return err;
	}
	/* SAFE: range checked; the platform access survives faults. */
	return plat_guest_read(gpa, dst, len) ? SVSM_OK : SVSM_E_FAULT;
}

static enum svsm_err copy_out(enum svsm_err err, gpa_t gpa, const void *src,
			      size_t len)
{
	if (err != SVSM_OK) {
		return err;
	}
	/* SAFE: range checked; the platform access survives faults. */
	return plat_guest_write(gpa, src, len) ? SVSM_OK : SVSM_E_FAULT;
}

enum svsm_err guestmem_read(gpa_t gpa, void *dst, size_t len)
{
	return copy_in(guestmem_check(gpa, len), gpa, dst, len);
}

enum svsm_err guestmem_write(gpa_t gpa, const void *src, size_t len)
{
	return copy_out(guestmem_check(gpa, len), gpa, src, len);
}

enum svsm_err guestmem_read_param(gpa_t gpa, void *dst, size_t len)
{
	return copy_in(guestmem_check_param(gpa, len), gpa, dst, len);
}

enum svsm_err guestmem_write_param(gpa_t gpa, const void *src, size_t len)
{
	return copy_out(guestmem_check_param(gpa, len), gpa, src, len);
}

enum svsm_err guestmem_zero(gpa_t gpa, size_t len)
{
	enum svsm_err err = guestmem_check(gpa, len);

	if (err != SVSM_OK) {
		return err;
	}
	/* SAFE: range checked above; the platform access survives faults. */
	return plat_guest_zero(gpa, len) ? SVSM_OK : SVSM_E_FAULT;
}

enum svsm_err guestmem_zero_page_free(struct owner_window *w, gpa_t gpa,
				      size_t len)
{
	/* T01: as guestmem_check(), through the caller's window; it CHECKs
	 * the lock. */
	if (!owner_is_guest_page_free_in(w, gpa, len)) {
		return SVSM_E_ADDR;
	}
	/* SAFE: range checked above; the platform access survives faults. */
	return plat_guest_zero(gpa, len) ? SVSM_OK : SVSM_E_FAULT;
}

enum svsm_err guestmem_xchg_u8(gpa_t gpa, uint8_t val, uint8_t *old)
{
	enum svsm_err err = guestmem_check(gpa, 1);

	if (err != SVSM_OK) {
		return err;
	}
	/* SAFE: range checked above; the platform access survives faults. */
	return plat_guest_xchg_u8(gpa, val, old) ? SVSM_OK : SVSM_E_FAULT;
}
