/* SPDX-License-Identifier: MIT */
/*
 * The one module that touches guest-controlled memory (threats T01, T02 in
 * docs/threat-model.md). Callers copy guest data in once, check the copy and
 * use the copy; results go back with one copy out. Every access is refused
 * (SVSM_E_ADDR) unless the whole range is guest RAM, does not wrap, and
 * touches no SVSM-private memory (the SVSM region, live VMSAs, deposited
 * pages). A page that faults (not validated) gives SVSM_E_FAULT.
 * Callers hold the ownership lock (svsm/owner_lock.h): the check and the
 * copy are one step no concurrent change of ownership can split.
 */
#ifndef SVSM_GUESTMEM_H
#define SVSM_GUESTMEM_H

#include <stddef.h>
#include <stdint.h>

#include "svsm/addr.h"
#include "svsm/err.h"
#include "svsm/ownership.h"

enum svsm_err guestmem_read(gpa_t gpa, void *dst, size_t len);
enum svsm_err guestmem_write(gpa_t gpa, const void *src, size_t len);
/**
 * A call's parameter or output buffer (attestation, vTPM): as above, and
 * also refused (SVSM_E_ADDR) if it touches a live Calling Area's control
 * bytes (T09).
 */
enum svsm_err guestmem_read_param(gpa_t gpa, void *dst, size_t len);
enum svsm_err guestmem_write_param(gpa_t gpa, const void *src, size_t len);
enum svsm_err guestmem_zero(gpa_t gpa, size_t len);
/**
 * Zero a page a call acts on (PVALIDATE's newly validated range): refused
 * (SVSM_E_ADDR) unless owner_is_guest_page_free_in(@w) holds for it, a
 * stricter check than guestmem_zero()'s, answered from the window the
 * call's walk keeps.
 */
enum svsm_err guestmem_zero_page_free(struct owner_window *w, gpa_t gpa,
				      size_t len);
/** Atomically swap one guest byte (the CAA call_pending flag). */
enum svsm_err guestmem_xchg_u8(gpa_t gpa, uint8_t val, uint8_t *old);

#endif /* SVSM_GUESTMEM_H */
