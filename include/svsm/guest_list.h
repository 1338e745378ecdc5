/* SPDX-License-Identifier: MIT */
/*
 * The entries/next lists of PVALIDATE and DEPOSIT_MEM (58019 Tables 6 and 7):
 * decoded once into SVSM memory, processed from `next`, and `next` written
 * back once at the end (T02: the guest cannot change an entry between its
 * check and its use).
 */
#ifndef SVSM_GUEST_LIST_H
#define SVSM_GUEST_LIST_H

#include <stdint.h>

#include "svsm/addr.h"
#include "svsm/err.h"

/* (4096 - 8) / 8 entries fit after the header in one page. */
#define GUEST_LIST_MAX_ENTRIES 511u

struct guest_list {
	gpa_t gpa;
	uint16_t entries;
	uint16_t next;
	/* entry[i] for next <= i < entries; the rest is unused. */
	uint64_t entry[GUEST_LIST_MAX_ENTRIES];
};

/**
 * Check the header rules against the page offset of the list (pure, for
 * fuzzing): 8-byte aligned, 1 <= entries, the whole list inside one page,
 * next < entries.
 */
enum svsm_err guest_list_check(uint64_t page_offset, uint16_t entries,
			       uint16_t next);
/** Copy in and check the list at @gpa. */
enum svsm_err guest_list_read(gpa_t gpa, struct guest_list *list);
/** Write `next` back to the guest's header. */
enum svsm_err guest_list_write_next(const struct guest_list *list);

#endif /* SVSM_GUEST_LIST_H */
