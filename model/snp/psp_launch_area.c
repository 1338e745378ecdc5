/* SPDX-License-Identifier: MIT */
/*
 * Parameter areas in the PSP's launch: the host's loader writes its
 * parameters (the memory map, the VP count) into an area the file
 * declares, and inserts the area's pages, UNMEASURED, where the file
 * says. The file is untrusted: an area is declared once, a parameter
 * names a declared area and fits in it, and an area is inserted once, so
 * a loader never writes outside it nor launches a page twice from it.
 * What the loader writes is the host's: the guest must check it (the
 * SVSM does, src/plat/snp/boot_info.c).
 */
#include "psp_launch_area.h"

#include "svsm/le.h"
#include "svsm/std.h"

#include "psp_launch_page.h"

static struct launch_area *find(struct launch *l, uint32_t index)
{
	unsigned i;

	for (i = 0; i < l->nareas; i++) {
		if (l->area[i].index == index) {
			return &l->area[i];
		}
	}
	return NULL;
}

const char *launch_area_declare(struct launch *l, const uint8_t *body)
{
	struct igvm_parameter_area a;
	struct launch_area *n;

	memcpy(&a, body, sizeof(a));
	if (find(l, a.parameter_area_index) != NULL) {
		return launch_refuse(l, "parameter area %u declared twice",
				     a.parameter_area_index);
	}
	if (l->nareas == LAUNCH_MAX_AREAS) {
		return launch_refuse(l, "more than %u parameter areas",
				     LAUNCH_MAX_AREAS);
	}
	/* The reader checked: whole pages, at most 256 MiB, in the file. */
	n = &l->area[l->nareas++];
	memset(n, 0, sizeof(*n));
	n->bytes = a.number_of_bytes;
	n->index = a.parameter_area_index;
	n->file_offset = a.file_offset;
	return NULL;
}

const char *launch_area_parameter(struct launch *l, uint32_t type,
				  const uint8_t *body)
{
	struct igvm_parameter p;
	struct launch_area *a;

	memcpy(&p, body, sizeof(p));
	a = find(l, p.parameter_area_index);
	if (a == NULL || a->inserted) {
		return launch_refuse(l, "a parameter for area %u, which is %s",
				     p.parameter_area_index,
				     a == NULL ? "undeclared" : "inserted");
	}
	if (type == IGVM_VHT_MEMORY_MAP) {
		if (p.byte_offset >= a->bytes) {
			return launch_refuse(l, "MEMORY_MAP outside area %u",
					     a->index);
		}
		a->has_map = true;
		a->map_offset = p.byte_offset;
	} else {
		if ((uint64_t)p.byte_offset + 4 > a->bytes) {
			return launch_refuse(l,
					     "VP_COUNT_PARAMETER outside area "
					     "%u",
					     a->index);
		}
		a->has_vp_count = true;
		a->vp_count_offset = p.byte_offset;
	}
	return NULL;
}

/* The bytes of @blob at area offset @at that fall on the area's page at
 * @page_at, copied into @pg. */
static void overlay(uint8_t *pg, uint64_t page_at, uint64_t at,
		    const void *blob, uint64_t len)
{
	uint64_t from = at > page_at ? at : page_at;
	uint64_t to =
		at + len < page_at + IGVM_PAGE ? at + len : page_at + IGVM_PAGE;

	if (from < to) {
		memcpy(pg + (from - page_at),
		       (const uint8_t *)blob + (from - at), to - from);
	}
}

const char *launch_area_insert(struct launch *l, const uint8_t *body)
{
	const struct psp_launch_ops *o = l->ops;
	struct igvm_memory_map_entry map[PSP_LAUNCH_MAX_MAP];
	struct igvm_parameter_insert p;
	struct launch_area *a;
	uint8_t vp_count[4];
	unsigned nmap = 0;
	uint64_t off;

	memcpy(&p, body, sizeof(p));
	if (!(p.compatibility_mask & l->mask)) {
		return NULL;
	}
	a = find(l, p.parameter_area_index);
	if (a == NULL || a->inserted) {
		return launch_refuse(l,
				     "PARAMETER_INSERT of area %u, which is %s",
				     p.parameter_area_index,
				     a == NULL ? "undeclared" : "inserted");
	}
	a->inserted = true;
	if (a->has_map && o->memory_map != NULL) {
		uint64_t room = (a->bytes - a->map_offset) / sizeof(map[0]);
		unsigned max = room < PSP_LAUNCH_MAX_MAP ? (unsigned)room
							 : PSP_LAUNCH_MAX_MAP;

		memset(map, 0, sizeof(map));
		nmap = o->memory_map(o->ctx, map, max);
		nmap = nmap < max ? nmap : max; /* the op is the host's */
	}
	le_put32(vp_count, o->vp_count);
	for (off = 0; off < a->bytes; off += IGVM_PAGE) {
		/* The reader checked file_offset + bytes inside the file. */
		const uint8_t *data =
			a->file_offset == 0 ? NULL
					    : l->f.data + a->file_offset + off;
		uint8_t *pg;
		const char *why;

		if (p.gpa + off < p.gpa) {
			return launch_refuse(l,
					     "PARAMETER_INSERT wraps around");
		}
		why = launch_page(l, p.gpa + off, PSP_PAGE_UNMEASURED, data,
				  &pg);
		if (why != NULL) {
			return why;
		}
		if (pg != NULL && a->has_map) {
			overlay(pg, off, a->map_offset, map,
				nmap * sizeof(map[0]));
		}
		if (pg != NULL && a->has_vp_count) {
			overlay(pg, off, a->vp_count_offset, vp_count, 4);
		}
		why = launch_commit(l, p.gpa + off, PSP_PAGE_UNMEASURED, NULL);
		if (why != NULL) {
			return why;
		}
	}
	return NULL;
}
