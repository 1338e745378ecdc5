/* SPDX-License-Identifier: MIT */
/* Building IGVM files (igvm_write.c). */
#ifndef TOOLS_IGVM_WRITE_H
#define TOOLS_IGVM_WRITE_H

#include "igvm.h"

struct igvm_builder {
	uint8_t *vh;
	size_t vh_len, vh_cap;
	uint8_t *data;
	size_t data_len, data_cap;
	struct {
		size_t at;    /* of a file_offset field in vh */
		uint32_t rel; /* its data's offset in the data section */
	} * patch;
	size_t npatch, patch_cap;
};

void igvm_builder_init(struct igvm_builder *b);
void igvm_builder_free(struct igvm_builder *b);
/** Append file data; returns its offset within the data section. */
uint32_t igvm_add_data(struct igvm_builder *b, const void *data, size_t len);
/**
 * Append a structure. If @offset_field >= 0, the u32 at that offset in
 * @body becomes the file offset of data added at @data_rel.
 */
void igvm_add(struct igvm_builder *b, uint32_t type, const void *body,
	      uint32_t len, int offset_field, uint32_t data_rel);
/* The compatibility mask of every directive csvsm-igvm writes: SNP. */
#define IGVM_SNP_MASK 0x1u

/**
 * Add a PAGE_DATA directive for @gpa of @type: @pg NULL is a page
 * without file data (zero, or host-filled: secrets, CPUID); an all-zero
 * @pg shares one block of file data (*@zero_rel once *@have_zero).
 */
void igvm_add_page(struct igvm_builder *b, uint64_t gpa, const uint8_t *pg,
		   uint16_t type, uint32_t *zero_rel, int *have_zero);
/** Lay the file out; malloc'd, *size set; NULL if over 4 GiB. */
uint8_t *igvm_finish(struct igvm_builder *b, size_t *size);

#endif /* TOOLS_IGVM_WRITE_H */
