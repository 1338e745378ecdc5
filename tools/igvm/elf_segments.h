/* SPDX-License-Identifier: MIT */
#ifndef TOOLS_IGVM_ELF_SEGMENTS_H
#define TOOLS_IGVM_ELF_SEGMENTS_H

#include <stddef.h>
#include <stdint.h>

struct elf_segment {
	uint64_t paddr, memsz;
	const uint8_t *data;
	uint64_t filesz;
};

/** PT_LOAD segments of an ELF64 x86-64 image; NULL or what is wrong. */
const char *elf_segments(const uint8_t *img, size_t size,
			 struct elf_segment *seg, unsigned max, unsigned *count,
			 uint64_t *entry);

#endif /* TOOLS_IGVM_ELF_SEGMENTS_H */
