/* SPDX-License-Identifier: MIT */
/*
 * The loadable segments of an ELF64 image (the SVSM firmware), checked
 * against the file: a segment's file bytes must be inside the file, and
 * its memory size at least its file size.
 */
#include <elf.h>
#include <string.h>

#include "elf_segments.h"

const char *elf_segments(const uint8_t *img, size_t size,
			 struct elf_segment *seg, unsigned max, unsigned *count,
			 uint64_t *entry)
{
	Elf64_Ehdr eh;
	unsigned i;

	*count = 0;
	if (size < sizeof(eh)) {
		return "shorter than an ELF header";
	}
	memcpy(&eh, img, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_machine != EM_X86_64) {
		return "not a little-endian x86-64 ELF64 file";
	}
	if (eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phoff > size ||
	    (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr) > size - eh.e_phoff) {
		return "program headers outside the file";
	}
	for (i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		memcpy(&ph, img + eh.e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_LOAD || ph.p_memsz == 0) {
			continue;
		}
		if (ph.p_offset > size || ph.p_filesz > size - ph.p_offset ||
		    ph.p_filesz > ph.p_memsz || ph.p_paddr % 4096 != 0 ||
		    ph.p_paddr + ph.p_memsz < ph.p_paddr) {
			return "a segment outside the file or misaligned";
		}
		if (*count == max) {
			return "too many segments";
		}
		seg[*count] = (struct elf_segment){
			.paddr = ph.p_paddr,
			.memsz = ph.p_memsz,
			.data = img + ph.p_offset,
			.filesz = ph.p_filesz,
		};
		(*count)++;
	}
	*entry = eh.e_entry;
	return *count != 0 ? NULL : "no loadable segment";
}
