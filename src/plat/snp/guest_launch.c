/* SPDX-License-Identifier: MIT */
/*
 * The guest's launched pages on snp. The IGVM loader launches OVMF's
 * firmware volume and the SEV metadata sections OVMF wants pre-validated
 * (SEC memory, its CPUID page), or a kernel's image and page tables
 * (csvsm-igvm --kernel), as validated private pages with rights for
 * VMPL0 only: the PSP gives the lower VMPLs nothing.
 * Before the guest's first instruction the SVSM grants them to the
 * guest's VMPL (emu grants its launch region the same way).
 *
 * Threat (T19): the firmware volume is measured and written by no one
 * before the guest runs, but its SEV metadata is still parsed as hostile
 * input (ovmf_parse checks every offset), and a section is granted only
 * if it is guest RAM the SVSM does not own and every page of it was
 * launched (already validated): the guest never runs a page whose
 * contents the hypervisor chose.
 */
#include "svsm/guestmem.h"
#include "svsm/log.h"
#include "svsm/mem.h"
#include "svsm/ovmf.h"
#include "svsm/owner_lock.h"
#include "svsm/ownership.h"
#include "svsm/page_state.h"
#include "svsm/std.h"
#include "svsm/terminate.h"

#include "abi/snp.h"

#include "ghcb.h"
#include "snp_boot.h"
#include "snp_hw.h"

#define PAGE SNP_PAGE_SIZE
#define GIB4 0x100000000ull
/* OVMF's GUID table and SEV metadata sit in its last pages (the reset
 * vector's); the SVSM reads this much of the volume's tail. */
#define TAIL_ORDER 4u
#define TAIL_BYTES (PAGE << TAIL_ORDER)

const char *snp_launch_ram(const struct csvsm_boot_params *p,
			   struct mem_range *ram, unsigned max, unsigned *n)
{
	uint64_t base = p->guest_firmware_base, size = p->guest_firmware_size;
	unsigned i, at = 0;

	if (size == 0) {
		return NULL; /* no firmware: nothing launched for the guest */
	}
	if (base % PAGE != 0 || size % PAGE != 0 || base + size < base ||
	    base + size > GIB4) {
		return "the guest firmware is not whole pages below 4 GiB";
	}
	for (i = 0; i < *n; i++) {
		uint64_t b = gpa_val(ram[i].base), e = b + ram[i].size;

		if (base >= b && base + size <= e) {
			return NULL; /* the loader's map has it */
		}
		if (base < e && b < base + size) {
			return "the guest firmware straddles a RAM range";
		}
		if (b < base) {
			at = i + 1;
		}
	}
	if (*n == max) {
		return "no room to add the guest firmware to the RAM ranges";
	}
	for (i = *n; i > at; i--) {
		ram[i] = ram[i - 1];
	}
	ram[at] = (struct mem_range){gpa_init(base), size};
	(*n)++;
	return NULL;
}

const char *snp_boot_ram(const struct csvsm_boot_params *p, const uint8_t *map,
			 size_t len, struct mem_range *ram, unsigned max,
			 unsigned *n)
{
	const char *why = snp_memory_map(map, len, ram, max, n);

	return why != NULL ? why : snp_launch_ram(p, ram, max, n);
}

/* The door (SNP_TERMINATE_HV), spelt out so #reason names the reason. */
#define launch_failed(why, reason)                                             \
	terminate_hv_via(ghcb_msr_terminate, TERM_SET_CSVSM, (reason),         \
			 #reason, __func__, "snp: guest firmware: %s", (why))

/* Give the guest VMPL @perms (0: everything) on [@base, @base + @size). */
static void grant(uint64_t base, uint64_t size, uint64_t perms)
{
	uint64_t gpa;

	if (base + size < base ||
	    !owner_is_guest_page_free(gpa_init(base), size)) {
		launch_failed("a launched range is not the guest's RAM",
			      TERM_CSVSM_BAD_BOOT_INFO);
	}
	for (gpa = base; gpa < base + size; gpa += PAGE) {
		bool unchanged = false;
		enum snp_ret rc;

		/* Launched pages are validated (and measured): PVALIDATE
		 * leaves them as they are (CF set). A page it has to
		 * validate was never launched: its contents are the
		 * hypervisor's, and the guest must not run them. */
		rc = snp_hw_pvalidate(gpa_init(gpa), false, true, &unchanged);
		if (rc != SNP_RET_SUCCESS || !unchanged) {
			launch_failed("a page it names was not launched",
				      TERM_CSVSM_RMP_FAILURE);
		}
		rc = perms == 0 ? page_grant_guest(gpa_init(gpa), PAGE_4K)
				: page_grant_guest_perms(gpa_init(gpa), PAGE_4K,
							 perms);
		if (rc != SNP_RET_SUCCESS) {
			launch_failed("a launched page cannot be granted",
				      TERM_CSVSM_RMP_FAILURE);
		}
	}
}

void snp_grant_launched(const struct csvsm_boot_params *p)
{
	uint64_t base = p->guest_firmware_base, size = p->guest_firmware_size;
	uint64_t tail = size < TAIL_BYTES ? size : TAIL_BYTES;
	struct ovmf_info info;
	uint8_t *buf;
	const char *why;
	enum svsm_err err;
	unsigned i;

	if (size == 0) {
		return;
	}
	if (p->guest_entry_mode == CSVSM_GUEST_ENTRY_KERNEL) {
		/* A kernel's image and page tables: no metadata to read. */
		grant(base, size, 0);
		LOG_INFO("snp: guest kernel at %llx+%llx granted to the guest",
			 (unsigned long long)base, (unsigned long long)size);
		return;
	}
	buf = page_alloc(TAIL_ORDER);
	if (buf == NULL) {
		launch_failed("no memory to read it", TERM_CSVSM_NO_MEMORY);
	}
	owner_lock();
	err = guestmem_read(gpa_init(base + size - tail), buf, tail);
	owner_unlock();
	if (err != SVSM_OK) {
		launch_failed("its volume cannot be read",
			      TERM_CSVSM_BAD_BOOT_INFO);
	}
	why = ovmf_parse(buf, tail, &info);
	page_free(buf);
	if (why != NULL) {
		launch_failed(why, TERM_CSVSM_BAD_BOOT_INFO);
	}
	grant(base, size, 0);
	for (i = 0; i < info.count; i++) {
		const struct ovmf_section *s = &info.section[i];

		switch (s->type) {
		case OVMF_SECTION_SNP_SEC_MEM:
			grant(s->base, s->size, 0);
			break;
		case OVMF_SECTION_CPUID: /* data: never executed */
		case OVMF_SECTION_KERNEL_HASHES:
			grant(s->base, s->size,
			      RMPADJUST_READ | RMPADJUST_WRITE);
			break;
		default: /* secrets and CA: svsm_init() */
			break;
		}
	}
	LOG_INFO("snp: guest firmware at %llx+%llx and %u SEV metadata "
		 "sections granted to the guest",
		 (unsigned long long)base, (unsigned long long)size,
		 info.count);
}
