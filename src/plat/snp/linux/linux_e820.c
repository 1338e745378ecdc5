/* SPDX-License-Identifier: MIT */
/*
 * Linux's e820 table, built from the host's memory map (hostile: the
 * ranges are checked again here, whoever parsed them) and the holes the
 * loader keeps: the SVSM region and the loader's pages (reserved), the
 * ACPI tables (ACPI: Linux maps them encrypted only from that type).
 *
 * Threat (T19): a host that claims RAM where the SVSM lives, or leaves
 * out the loader's pages, must not make Linux use SVSM memory or pages
 * the SVSM never validated: RAM is only the host's RAM minus every hole,
 * and a hole outside the host's RAM refuses the whole map.
 */
#include "svsm/std.h"

#include "linux_boot.h"

#define MAX_GPA (1ull << 52)

static bool put(struct linux_e820_entry *out, unsigned max, unsigned *count,
		uint64_t base, uint64_t size, uint32_t type)
{
	struct linux_e820_entry *last = *count != 0 ? &out[*count - 1] : NULL;

	if (size == 0) {
		return true;
	}
	if (last != NULL && type == LINUX_E820_RAM &&
	    last->type == LINUX_E820_RAM && last->addr + last->size == base) {
		last->size += size;
		return true;
	}
	if (*count == max) {
		return false;
	}
	out[*count] = (struct linux_e820_entry){base, size, type};
	(*count)++;
	return true;
}

static const char *check_sorted(const struct mem_range *ram, unsigned n,
				const struct linux_hole *holes, unsigned nholes)
{
	uint64_t end = 0;
	unsigned i;

	for (i = 0; i < n; i++) {
		uint64_t b = gpa_val(ram[i].base);

		if (ram[i].size == 0 || b >= MAX_GPA ||
		    ram[i].size > MAX_GPA - b || b < end) {
			return "host RAM ranges empty, unsorted, overlapping "
			       "or "
			       "beyond 52 bits";
		}
		end = b + ram[i].size;
	}
	end = 0;
	for (i = 0; i < nholes; i++) {
		if (holes[i].size == 0 || holes[i].base >= MAX_GPA ||
		    holes[i].size > MAX_GPA - holes[i].base ||
		    holes[i].base < end) {
			return "the loader's holes empty, unsorted or "
			       "overlapping";
		}
		end = holes[i].base + holes[i].size;
	}
	return NULL;
}

const char *linux_e820_build(const struct mem_range *ram, unsigned n,
			     const struct linux_hole *holes, unsigned nholes,
			     struct linux_e820_entry *out, unsigned max,
			     unsigned *count)
{
	const char *why = check_sorted(ram, n, holes, nholes);
	unsigned i, h = 0, placed = 0;

	*count = 0;
	if (why != NULL) {
		return why;
	}
	for (i = 0; i < n; i++) {
		uint64_t at = gpa_val(ram[i].base);
		uint64_t end = at + ram[i].size;

		/* Holes below this range that no range held: refused. */
		if (h < nholes && holes[h].base < at) {
			return "the loader's pages or the SVSM region are not "
			       "RAM in the host's map";
		}
		for (; h < nholes && holes[h].base < end; h++) {
			if (holes[h].size > end - holes[h].base) {
				return "a loader hole straddles the end of a "
				       "host RAM range";
			}
			if (!put(out, max, count, at, holes[h].base - at,
				 LINUX_E820_RAM) ||
			    !put(out, max, count, holes[h].base, holes[h].size,
				 holes[h].type)) {
				return "more e820 entries than Linux takes";
			}
			at = holes[h].base + holes[h].size;
			placed++;
		}
		if (!put(out, max, count, at, end - at, LINUX_E820_RAM)) {
			return "more e820 entries than Linux takes";
		}
	}
	if (placed != nholes) {
		return "the loader's pages or the SVSM region are not RAM in "
		       "the host's map";
	}
	/* Linux ignores a table of fewer than two entries. */
	if (*count < 2) {
		return "an e820 table of fewer than two entries";
	}
	return NULL;
}

bool linux_e820_is_ram(const struct linux_e820_entry *e, unsigned n,
		       uint64_t base, uint64_t size)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		if (e[i].type == LINUX_E820_RAM && base >= e[i].addr &&
		    size <= e[i].size && base - e[i].addr <= e[i].size - size) {
			return true;
		}
	}
	return false;
}
