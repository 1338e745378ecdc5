/* SPDX-License-Identifier: MIT */
/*
 * Inside the PSP's launch: the one launch's state, and the per-page steps
 * under every directive (psp_launch_page.c: SNP_LAUNCH_UPDATE of one
 * page). The directive walk (psp_launch.c), the parameter areas
 * (psp_launch_area.c) and the VMSAs (psp_launch_vmsa.c) call down to
 * them; they call nothing of theirs. Not an interface.
 */
#ifndef SNPMODEL_PSP_LAUNCH_PAGE_H
#define SNPMODEL_PSP_LAUNCH_PAGE_H

#include "abi/snp.h"

#include "model/igvm_reader.h"
#include "model/psp_launch.h"
#include "model/psp_model.h"

#define LAUNCH_MAX_AREAS 64u

/* A PARAMETER_AREA and the loader's parameters declared in it
 * (psp_launch_area.c keeps them). */
struct launch_area {
	uint64_t bytes;
	uint32_t index;
	uint32_t file_offset; /* its initial contents; 0: zeros */
	uint32_t map_offset, vp_count_offset;
	bool has_map, has_vp_count, inserted;
};

/* One launch (on the stack: no state outlives psp_launch_igvm()). */
struct launch {
	const struct psp_launch_ops *ops;
	struct psp_launch_result *out;
	struct igvm_file f;
	uint32_t mask; /* the SEV-SNP platform's compatibility mask */
	unsigned nareas;
	struct launch_area area[LAUNCH_MAX_AREAS];
	/* File data of each vCPU's VP_CONTEXT, by VP index; 0: none. */
	uint32_t vmsa_off[PSP_LAUNCH_MAX_VPS];
	/* PAGE_DATA filled but not yet launched: QEMU's IGVM loader gathers
	 * consecutive like pages into one region and hands it to KVM only
	 * when a page that does not extend it arrives, or the file ends
	 * (backends/igvm.c, qigvm_process_mem_page()). run_count directives
	 * from header offset run_pos, the last at directive run_last. */
	uint32_t run_pos, run_count, run_last;
	struct igvm_page_data run_prev; /* the run's last directive */
	uint32_t index; /* directives seen, the current one included */
};

/** Refuse the launch: @fmt into out->why, which is returned. */
const char *launch_refuse(struct launch *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/**
 * The first half of launching @gpa as type @t: it must be a page of guest
 * RAM; its host page is filled with @data (4 KiB inside the file) or
 * zeros, then the PSP's secrets or the checked CPUID table. *@filled: the
 * host page, NULL when measuring only.
 */
const char *launch_page(struct launch *l, uint64_t gpa, enum psp_page_type t,
			const uint8_t *data, uint8_t **filled);
/** The second half: the RMP's launch of @gpa, then the digest (@data as
 * the measured contents of NORMAL and VMSA pages). */
const char *launch_commit(struct launch *l, uint64_t gpa, enum psp_page_type t,
			  const uint8_t *data);

#endif /* SNPMODEL_PSP_LAUNCH_PAGE_H */
