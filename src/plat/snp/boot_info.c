/* SPDX-License-Identifier: MIT */
/*
 * What the snp platform learns at boot, turned into struct svsm_boot_info:
 * csvsm's boot parameter page (measured: trusted as what the image's
 * author wrote, still checked for consistency) and the loader's memory
 * map (an IGVM parameter area: unmeasured, written by the host, hostile).
 * Errors are returned as text; the caller terminates with
 * TERM_CSVSM_BAD_BOOT_INFO, so a bad map never becomes the SVSM's view.
 */
#include "svsm/std.h"

#include "abi/snp.h"

#include "linux/linux_boot.h"
#include "snp_boot.h"

#define PAGE SNP_PAGE_SIZE
#define MAX_GPA (1ull << 52)

const char *snp_memory_map(const uint8_t *area, size_t len,
			   struct mem_range *ram, unsigned max, unsigned *count)
{
	uint64_t last_end = 0;
	size_t at;

	*count = 0;
	for (at = 0; at + sizeof(struct igvm_memory_map_entry) <= len;
	     at += sizeof(struct igvm_memory_map_entry)) {
		struct igvm_memory_map_entry e;
		uint64_t base, size;

		memcpy(&e, area + at, sizeof(e));
		if (e.number_of_pages == 0) {
			return *count != 0 ? NULL : "an empty memory map";
		}
		if (e.starting_gpa_page_number >= MAX_GPA / PAGE ||
		    e.number_of_pages >
			    MAX_GPA / PAGE - e.starting_gpa_page_number) {
			return "a memory map entry beyond 52 bits";
		}
		base = e.starting_gpa_page_number * PAGE;
		size = e.number_of_pages * PAGE;
		if (base < last_end) {
			return "memory map entries unsorted or overlapping";
		}
		last_end = base + size;
		if (e.entry_type != IGVM_MEMORY_MAP_MEMORY) {
			continue; /* reserved, persistent: not RAM for us */
		}
		if (*count == max) {
			return "more RAM ranges than the SVSM takes";
		}
		ram[*count] = (struct mem_range){gpa_init(base), size};
		(*count)++;
	}
	return "a memory map without its closing entry";
}

static bool in_ram(const struct mem_range *ram, unsigned n, uint64_t base,
		   uint64_t size)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		uint64_t b = gpa_val(ram[i].base);

		if (base >= b && size <= ram[i].size &&
		    base - b <= ram[i].size - size) {
			return true;
		}
	}
	return false;
}

/* No byte of [@base, @base + @size) is in a RAM range. */
static bool off_ram(const struct mem_range *ram, unsigned n, uint64_t base,
		    uint64_t size)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		uint64_t b = gpa_val(ram[i].base);

		if (base < b + ram[i].size && b < base + size) {
			return false;
		}
	}
	return true;
}

static bool page_in(uint64_t gpa, uint64_t base, uint64_t size)
{
	return gpa % PAGE == 0 && gpa >= base && gpa - base < size;
}

/*
 * The SVSM region and the SVSM's own pages in it: in the region, the
 * region RAM the guest never gets or apart from all RAM, and each page
 * with one use.
 */
static const char *svsm_region_check(const struct csvsm_boot_params *p,
				     const struct mem_range *ram, unsigned n)
{
	uint64_t base = p->svsm_base, size = p->svsm_size;
	const uint64_t boot_pages[4] = {p->psp_secrets_gpa, p->svsm_cpuid_gpa,
					p->memory_map_gpa, p->vp_count_gpa};
	unsigned i;

	/* The region is RAM the SVSM keeps from the guest, or memory apart
	 * from all RAM that the image requires of its loader (above the
	 * guest's RAM, where OVMF never looks). Partly RAM, it would be
	 * both the guest's and the SVSM's. */
	if (base % SNP_PAGE_SIZE_2M != 0 || size % PAGE != 0 || size == 0 ||
	    base + size < base || base + size > MAX_GPA ||
	    (!in_ram(ram, n, base, size) && !off_ram(ram, n, base, size))) {
		return "the SVSM region is not from a 2 MiB boundary, or "
		       "partly RAM";
	}
	if (!page_in(p->psp_secrets_gpa, base, size) ||
	    !page_in(p->svsm_cpuid_gpa, base, size) ||
	    !page_in(p->memory_map_gpa, base, size) ||
	    !page_in(p->vp_count_gpa, base, size) ||
	    !page_in(p->svsm_heap_gpa, base, size) ||
	    !page_in(p->svsm_shared_gpa, base, size) ||
	    p->svsm_shared_gpa + CSVSM_SHARED_PAGES * PAGE > p->svsm_heap_gpa) {
		return "an SVSM page outside the SVSM region";
	}
	/* One page, one use: the secrets page also read as the VP count or
	 * CPUID page (or overwritten by the loader's map) would be both. */
	for (i = 0; i < 4; i++) {
		for (unsigned j = i + 1; j < 4; j++) {
			if (boot_pages[i] == boot_pages[j]) {
				return "two of the SVSM's boot pages coincide";
			}
		}
	}
	/* The pages made shared hold nothing of the SVSM's: a secrets page
	 * among them would hand VMPCK0 to the hypervisor. */
	if (page_in(p->psp_secrets_gpa, p->svsm_shared_gpa,
		    CSVSM_SHARED_PAGES * PAGE) ||
	    page_in(p->svsm_cpuid_gpa, p->svsm_shared_gpa,
		    CSVSM_SHARED_PAGES * PAGE) ||
	    page_in(p->memory_map_gpa, p->svsm_shared_gpa,
		    CSVSM_SHARED_PAGES * PAGE) ||
	    page_in(p->vp_count_gpa, p->svsm_shared_gpa,
		    CSVSM_SHARED_PAGES * PAGE) ||
	    p->vp_count_gpa >= p->svsm_heap_gpa ||
	    p->psp_secrets_gpa >= p->svsm_heap_gpa ||
	    p->svsm_cpuid_gpa >= p->svsm_heap_gpa ||
	    p->memory_map_gpa >= p->svsm_heap_gpa) {
		return "the SVSM's pages overlap its shared pages or heap";
	}
	return NULL;
}

/*
 * How the guest enters and the pages it is given: a known entry, a VMPL
 * below the SVSM's, and its secrets page, CA and firmware its own RAM,
 * apart from the SVSM region.
 */
static const char *guest_check(const struct csvsm_boot_params *p,
			       const struct mem_range *ram, unsigned n)
{
	uint64_t base = p->svsm_base, size = p->svsm_size;

	if (p->guest_entry_mode != CSVSM_GUEST_ENTRY_FIRMWARE &&
	    p->guest_entry_mode != CSVSM_GUEST_ENTRY_KERNEL &&
	    p->guest_entry_mode != CSVSM_GUEST_ENTRY_LINUX) {
		return "an unknown guest entry mode";
	}
	if (p->guest_entry_mode == CSVSM_GUEST_ENTRY_LINUX) {
		const char *why = linux_layout_check(p);

		if (why != NULL) {
			return why;
		}
	}
	/* A sanity check of measured values: the PML4 (the low 32 bits of
	 * CR3; above them sits the C-bit) lies in the launched range,
	 * which is below 4 GiB (snp_launch_ram). */
	if (p->guest_entry_mode == CSVSM_GUEST_ENTRY_KERNEL &&
	    (p->guest_cr3 % PAGE != 0 || p->guest_firmware_size == 0 ||
	     (uint32_t)p->guest_cr3 < p->guest_firmware_base ||
	     (uint32_t)p->guest_cr3 - p->guest_firmware_base >=
		     p->guest_firmware_size)) {
		return "the guest kernel's page tables are not in its image";
	}
	if (p->guest_vmpl < 1 || p->guest_vmpl > 3) {
		return "the guest VMPL is not 1 to 3";
	}
	if ((p->guest_sev_features & SEV_FEAT_SNP_ACTIVE) == 0) {
		return "guest VMSAs without SNPActive";
	}
	if (p->guest_secrets_gpa == 0 || p->guest_caa_gpa == 0) {
		return "the guest firmware names no secrets page or SVSM "
		       "Calling Area: it cannot run under an SVSM";
	}
	/* Pages, so that page_in() below can tell inside from outside (it
	 * answers "not inside" for any unaligned address). */
	if (p->guest_secrets_gpa % PAGE != 0 || p->guest_caa_gpa % PAGE != 0 ||
	    p->guest_cpuid_gpa % PAGE != 0) {
		return "a guest page that is not page aligned";
	}
	if (p->guest_firmware_size != 0 &&
	    (p->guest_firmware_base + p->guest_firmware_size <
		     p->guest_firmware_base ||
	     (p->guest_firmware_base < base + size &&
	      base < p->guest_firmware_base + p->guest_firmware_size) ||
	     !in_ram(ram, n, p->guest_firmware_base, p->guest_firmware_size))) {
		return "the guest firmware is inside the SVSM region or not "
		       "RAM";
	}
	if (page_in(p->guest_secrets_gpa, base, size) ||
	    page_in(p->guest_caa_gpa, base, size) ||
	    page_in(p->guest_cpuid_gpa, base, size) ||
	    !in_ram(ram, n, p->guest_secrets_gpa, PAGE) ||
	    !in_ram(ram, n, p->guest_caa_gpa, PAGE) ||
	    p->guest_secrets_gpa == p->guest_caa_gpa) {
		return "the guest's secrets page or CA is not its own RAM";
	}
	return NULL;
}

/* @info from the checked parameters and RAM ranges. */
static void boot_info_fill(const struct csvsm_boot_params *p,
			   const struct mem_range *ram, unsigned n,
			   struct svsm_boot_info *info)
{
	uint64_t base = p->svsm_base, size = p->svsm_size;
	unsigned i;

	memset(info, 0, sizeof(*info));
	info->platform_name = "snp";
	for (i = 0; i < n; i++) {
		info->ram[i] = ram[i];
	}
	info->ram_count = n;
	info->svsm = (struct mem_range){gpa_init(base), size};
	info->heap = (struct mem_range){gpa_init(p->svsm_heap_gpa),
					base + size - p->svsm_heap_gpa};
	info->psp_secrets = gpa_init(p->psp_secrets_gpa);
	info->guest_secrets = gpa_init(p->guest_secrets_gpa);
	info->guest_caa = gpa_init(p->guest_caa_gpa);
	info->guest_vmpl = (uint8_t)p->guest_vmpl;
	info->guest_sev_features = p->guest_sev_features;
	info->guest_entry = (struct svsm_guest_entry){
		.mode = p->guest_entry_mode == CSVSM_GUEST_ENTRY_KERNEL
				? SVSM_GUEST_ENTRY_LONG
				: SVSM_GUEST_ENTRY_RESET,
		.rip = p->guest_entry_rip,
		.cr3 = p->guest_cr3,
		.rdi = p->guest_secrets_gpa,
		.rsi = 0, /* the CPU count: snp_boot() */
	};
	if (p->guest_entry_mode == CSVSM_GUEST_ENTRY_LINUX) {
		/* boot.rst's 64-bit protocol: RSI = boot_params. */
		info->guest_entry.mode = SVSM_GUEST_ENTRY_LINUX;
		info->guest_entry.rdi = 0;
		info->guest_entry.rsi = p->linux_zero_page_gpa;
		info->guest_entry.gdt_base = p->linux_gdt_gpa;
		info->guest_entry.gdt_limit = (uint16_t)(LINUX_BOOT_DS + 7);
	}
}

const char *snp_boot_info(const struct csvsm_boot_params *p,
			  const struct mem_range *ram, unsigned n,
			  struct svsm_boot_info *info)
{
	const char *why;

	if (p->magic != CSVSM_BOOT_MAGIC || p->version != CSVSM_BOOT_VERSION) {
		return "no csvsm boot parameters";
	}
	why = svsm_region_check(p, ram, n);
	if (why == NULL) {
		why = guest_check(p, ram, n);
	}
	if (why != NULL) {
		return why;
	}
	boot_info_fill(p, ram, n, info);
	return NULL;
}
