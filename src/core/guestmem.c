/* SPDX-License-Identifier: MIT */
#include "svsm/guestmem.h"

#include "svsm/ownership.h"
#include "svsm/plat.h"

/*
 * T01: a guest-supplied GPA must never reach SVSM memory. The range check
 * runs on every access, so no caller can forget it.
 */
static enum svsm_err guestmem_check(gpa_t gpa, size_t len)
{
	if (!owner_is_guest_accessible(gpa, len)) {
		return SVSM_E_ADDR;
	}
	return SVSM_OK;
}

enum svsm_err guestmem_read(gpa_t gpa, void *dst, size_t len)
{
	enum svsm_err err = guestmem_check(gpa, len);

	if (err != SVSM_OK) {
		return err;
	}
	/* SAFE: range checked above; the platform access survives faults. */
	return plat_guest_read(gpa, dst, len) ? SVSM_OK : SVSM_E_FAULT;
}

enum svsm_err guestmem_write(gpa_t gpa, const void *src, size_t len)
{
	enum svsm_err err = guestmem_check(gpa, len);

	if (err != SVSM_OK) {
		return err;
	}
	/* SAFE: range checked above; the platform access survives faults. */
	return plat_guest_write(gpa, src, len) ? SVSM_OK : SVSM_E_FAULT;
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

enum svsm_err guestmem_xchg_u8(gpa_t gpa, uint8_t val, uint8_t *old)
{
	enum svsm_err err = guestmem_check(gpa, 1);

	if (err != SVSM_OK) {
		return err;
	}
	/* SAFE: range checked above; the platform access survives faults. */
	return plat_guest_xchg_u8(gpa, val, old) ? SVSM_OK : SVSM_E_FAULT;
}
