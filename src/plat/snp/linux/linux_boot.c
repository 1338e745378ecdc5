/* SPDX-License-Identifier: MIT */
/*
 * The snp firmware as Linux's loader (CSVSM_GUEST_ENTRY_LINUX,
 * docs/linux.md), after svsm_init() created the boot vCPU's VMSA at the
 * kernel's 64-bit entry: the e820 table from the host's map, every e820
 * RAM page validated and granted to the guest's VMPL (Linux without EFI
 * accepts no memory lazily), ACPI, the CC blob, the measurements and
 * their event log (linux_measure.c), the zero page.
 *
 * Threats: the host's memory map is hostile (T19): RAM is only what the
 * host and the SVSM both call RAM, minus the SVSM region and the
 * loader's pages, and a map without room for the measured layout
 * terminates (TERM_CSVSM_LINUX_MEMORY_MAP). A page already valid that the
 * image did not launch was validated by no one the SVSM trusts: refused
 * (TERM_CSVSM_RMP_FAILURE). The measured inputs are checked for bounds
 * (linux_layout.c); a kernel that cannot run is refused with its reason.
 */
#include "linux_boot.h"

#include "svsm/guestmem.h"
#include "svsm/log.h"
#include "svsm/mem.h"
#include "svsm/owner_lock.h"
#include "svsm/ownership.h"
#include "svsm/page_state.h"
#include "svsm/std.h"
#include "svsm/terminate.h"

#include "abi/snp.h"
#include "abi/snp_cpuid.h"
#include "abi/x86_regs.h"

#include "../ghcb.h"
#include "../snp_hw.h"
#include "snp_acpi.h"

#define PAGE SNP_PAGE_SIZE
#define SPAN_2M SNP_PAGE_SIZE_2M
#define RW (RMPADJUST_READ | RMPADJUST_WRITE)

static struct linux_e820_entry e820[LINUX_E820_MAX];
static unsigned e820_count;
/* The loader's buffers: the setup header as read once, a page in the
 * making, the zero page. */
static uint8_t hdr_buf[PAGE], page_buf[PAGE], zero_page[PAGE];

#define map_refused(why)                                                       \
	SNP_TERMINATE_HV(TERM_CSVSM_LINUX_MEMORY_MAP,                          \
			 "snp: Linux: the host's memory map: %s", (why))
#define rmp_failed(what, gpa, rc)                                              \
	SNP_TERMINATE_HV(TERM_CSVSM_RMP_FAILURE,                               \
			 "snp: Linux: %s at 0x%llx failed (%u)", (what),       \
			 (unsigned long long)(gpa), (unsigned)(rc))

static void kernel_refused(const char *why)
{
	SNP_TERMINATE_HV(TERM_CSVSM_BAD_BOOT_INFO,
			 "snp: Linux: the kernel cannot run here: %s", why);
}

/*
 * The loader's copies to and from guest memory, each under the ownership
 * lock (guestmem checks the range and copies under it). A launched page
 * that cannot be read is a kernel the SVSM cannot run; a page it
 * validated that cannot be written, a broken RMP.
 */
static void loader_read(uint64_t gpa, void *dst, size_t len, const char *what)
{
	enum svsm_err err;

	owner_lock();
	err = guestmem_read(gpa_init(gpa), dst, len);
	owner_unlock();
	if (err != SVSM_OK) {
		kernel_refused(what);
	}
}

static void loader_write(uint64_t gpa, const void *src, size_t len,
			 const char *what)
{
	enum svsm_err err;

	owner_lock();
	err = guestmem_write(gpa_init(gpa), src, len);
	owner_unlock();
	if (err != SVSM_OK) {
		rmp_failed(what, gpa, err);
	}
}

static void loader_zero(uint64_t gpa, size_t len, const char *what)
{
	enum svsm_err err;

	owner_lock();
	err = guestmem_zero(gpa_init(gpa), len);
	owner_unlock();
	if (err != SVSM_OK) {
		rmp_failed(what, gpa, err);
	}
}

static bool in(uint64_t gpa, uint64_t base, uint64_t size)
{
	return gpa >= base && gpa - base < size;
}

/* Pages of the image (validated by the launch, measured). */
static bool launched(const struct csvsm_boot_params *p, uint64_t gpa,
		     uint64_t span)
{
	uint64_t k = ALIGN_UP(p->linux_kernel_size, PAGE);
	uint64_t i = ALIGN_UP(p->linux_initrd_size, PAGE);
	uint64_t last = gpa + span - 1, page;

	/* The loader pages Linux takes as RAM. */
	for (page = gpa & ~(PAGE - 1); page <= last; page += PAGE) {
		if (linux_loader_page_is_ram(p, page)) {
			return true;
		}
	}
	return in(gpa, p->linux_kernel_gpa, k) ||
	       in(last, p->linux_kernel_gpa, k) ||
	       (gpa < p->linux_kernel_gpa && last >= p->linux_kernel_gpa + k) ||
	       in(gpa, p->linux_initrd_gpa, i) ||
	       in(last, p->linux_initrd_gpa, i) ||
	       (i != 0 && gpa < p->linux_initrd_gpa &&
		last >= p->linux_initrd_gpa + i);
}

static void grant(uint64_t gpa, enum page_size size, uint64_t perms)
{
	enum snp_ret rc = page_grant_guest_perms(gpa_init(gpa), size, perms);

	if (rc != SNP_RET_SUCCESS) {
		rmp_failed("RMPADJUST", gpa, rc);
	}
}

/*
 * Validate [@base, @base + @size) for the guest and grant it @perms:
 * 2 MiB at a time where the RMP has 2 MiB entries and no launched page
 * lies, else page by page (@perms 0: validate only). A launched page is already
 * valid (PVALIDATE leaves it, CF set); any other page must become valid now.
 */
static void validate_grant(const struct csvsm_boot_params *p, uint64_t base,
			   uint64_t size, uint64_t perms)
{
	uint64_t gpa = base, end = base + size;

	while (gpa < end) {
		bool unchanged = false;
		enum snp_ret rc;

		if (gpa % SPAN_2M == 0 && end - gpa >= SPAN_2M &&
		    !launched(p, gpa, SPAN_2M)) {
			rc = snp_hw_pvalidate(gpa_init(gpa), true, true,
					      &unchanged);
			if (rc == SNP_RET_SUCCESS && !unchanged) {
				if (perms != 0) {
					grant(gpa, PAGE_2M, perms);
				}
				gpa += SPAN_2M;
				continue;
			}
			if (rc != SNP_RET_FAIL_SIZEMISMATCH) {
				rmp_failed(unchanged ? "PVALIDATE (already "
						       "valid, not launched)"
						     : "PVALIDATE",
					   gpa, rc);
			}
		}
		rc = snp_hw_pvalidate(gpa_init(gpa), false, true, &unchanged);
		if (rc != SNP_RET_SUCCESS ||
		    unchanged != launched(p, gpa, PAGE)) {
			rmp_failed(unchanged ? "PVALIDATE (already valid, not "
					       "launched)"
					     : "PVALIDATE (a launched page "
					       "was not valid)",
				   gpa, rc);
		}
		if (perms != 0) {
			grant(gpa, PAGE_4K, perms);
		}
		gpa += PAGE;
	}
}

/* A loader page the image launched: still valid, now the guest's. */
static void grant_loader_page(uint64_t gpa)
{
	bool unchanged = false;
	enum snp_ret rc =
		snp_hw_pvalidate(gpa_init(gpa), false, true, &unchanged);

	if (rc != SNP_RET_SUCCESS || !unchanged) {
		rmp_failed("PVALIDATE (a loader page was not launched)", gpa,
			   rc);
	}
	grant(gpa, PAGE_4K, RW);
}

static void sort_holes(struct linux_hole *h, unsigned n)
{
	unsigned i, j;

	for (i = 1; i < n; i++) {
		for (j = i; j > 0 && h[j].base < h[j - 1].base; j--) {
			struct linux_hole t = h[j];

			h[j] = h[j - 1];
			h[j - 1] = t;
		}
	}
}

static bool svsm_in_ram(const struct csvsm_boot_params *p,
			const struct mem_range *ram, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		uint64_t b = gpa_val(ram[i].base);

		if (p->svsm_base >= b && p->svsm_base - b < ram[i].size) {
			return true;
		}
	}
	return false;
}

/* The e820 table, and the ranges Linux needs as RAM inside it. */
static void build_e820(const struct csvsm_boot_params *p,
		       const struct bzimage_hdr *h, const struct mem_range *ram,
		       unsigned n)
{
	struct linux_hole holes[2 + LINUX_LOADER_HOLES_MAX] = {
		{p->linux_acpi_gpa, p->linux_acpi_size, LINUX_E820_ACPI},
		{p->svsm_base, p->svsm_size, LINUX_E820_RESERVED},
	};
	uint64_t extent = linux_kernel_extent(p);
	uint64_t init = h->init_size > extent ? h->init_size : extent;
	unsigned nholes;
	const char *why;

	/* The SVSM region is a hole only where it is RAM; apart from all
	 * RAM (snp_boot_info allows nothing in between) Linux never sees
	 * it. */
	nholes = svsm_in_ram(p, ram, n) ? 2 : 1;
	nholes += linux_loader_holes(p, holes + nholes);
	sort_holes(holes, nholes);
	why = linux_e820_build(ram, n, holes, nholes, e820, LINUX_E820_MAX,
			       &e820_count);
	if (why != NULL) {
		map_refused(why);
	}
	if (!linux_e820_is_ram(e820, e820_count, p->linux_kernel_gpa,
			       ALIGN_UP(init, PAGE))) {
		map_refused("the kernel's init_size (or span) is not RAM");
	}
	if (p->linux_initrd_size != 0 &&
	    !linux_e820_is_ram(e820, e820_count, p->linux_initrd_gpa,
			       ALIGN_UP(p->linux_initrd_size, PAGE))) {
		map_refused("the initrd is not RAM");
	}
	/* Page 0 (the BIOS data area Linux reads) and room below 1 MiB
	 * for the real-mode trampoline (a few pages; "Real mode trampoline
	 * was not allocated" panics even a UP boot). */
	if (!linux_e820_is_ram(e820, e820_count, 0, 16 * PAGE)) {
		map_refused("no RAM at 0 for the BDA and the real-mode "
			    "trampoline");
	}
}

/*
 * Linux's decompressor switches between 4- and 5-level paging in 32-bit
 * code, where a #VC is fatal: enter in the mode it will want. The CPUID
 * page (the PSP checked it) and the command line are measured launched
 * pages; the VMSA is the SVSM's and not yet running.
 */
static void match_paging_mode(const struct csvsm_boot_params *p,
			      gpa_t boot_vmsa)
{
	static struct snp_cpuid_table cpuid;
	struct snp_vmsa *v;

	if (p->linux_pml5_gpa == 0) {
		return;
	}
	loader_read(p->guest_cpuid_gpa, &cpuid, sizeof(cpuid),
		    "its CPUID page cannot be read");
	loader_read(p->linux_cmdline_gpa, page_buf, PAGE,
		    "its command line cannot be read");
	if (!linux_wants_la57(&cpuid, page_buf, PAGE)) {
		return;
	}
	v = snp_hw_map_private(boot_vmsa, PAGE);
	/* CR3's bits above 4 GiB are the C-bit (guest_cr3's). */
	v->cr3 = p->linux_pml5_gpa | (p->guest_cr3 & ~0xFFFFFFFFull);
	v->cr4 |= CR4_LA57;
	LOG_INFO("snp: Linux enters in 5-level paging (LA57, no no5lvl)");
}

void snp_linux_load(const struct csvsm_boot_params *p,
		    const struct mem_range *ram, unsigned n, gpa_t boot_vmsa)
{
	struct bzimage_hdr h;
	struct linux_zero_page_in zp;
	uint64_t rsdp, gpa;
	size_t log_len;
	unsigned i;
	const char *why;

	loader_read(p->linux_setup_hdr_gpa, hdr_buf, PAGE,
		    "its setup header cannot be read");
	why = linux_kernel_check(p, hdr_buf, &h);
	if (why != NULL) {
		kernel_refused(why);
	}
	build_e820(p, &h, ram, n);
	owner_lock();
	for (i = 0; i < e820_count; i++) {
		if (e820[i].type == LINUX_E820_RAM &&
		    !owner_is_guest_page_free(gpa_init(e820[i].addr),
					      e820[i].size)) {
			owner_unlock();
			map_refused("e820 RAM the SVSM owns");
		}
	}
	owner_unlock();
	for (i = 0; i < e820_count; i++) {
		if (e820[i].type == LINUX_E820_RAM) {
			validate_grant(p, e820[i].addr, e820[i].size,
				       RMPADJUST_RWX);
		}
	}
	/* The BIOS data area reads as zeros: Linux then assumes 640 KiB
	 * of base memory and no EBDA. */
	loader_zero(0, PAGE, "zeroing the BIOS data area");
	/* The ACPI region: validated, zeroed (no stale bytes where Linux
	 * looks for tables), then the host's tables, then the guest's. */
	validate_grant(p, p->linux_acpi_gpa, p->linux_acpi_size, 0);
	loader_zero(p->linux_acpi_gpa, p->linux_acpi_size,
		    "zeroing the ACPI region");
	rsdp = snp_acpi_load(p->linux_acpi_gpa, p->linux_acpi_size);
	for (gpa = p->linux_acpi_gpa;
	     gpa < p->linux_acpi_gpa + p->linux_acpi_size; gpa += PAGE) {
		grant(gpa, PAGE_4K, RW);
	}
	linux_setup_data_build(page_buf, p->linux_setup_data_gpa,
			       p->guest_secrets_gpa, p->guest_cpuid_gpa);
	/* Measured boot: the log is written into the page's log node. */
	log_len = snp_linux_measure(p,
				    page_buf + LINUX_SETUP_LOG_OFFSET +
					    sizeof(struct linux_setup_data),
				    LINUX_SETUP_LOG_MAX);
	if (log_len != 0) {
		linux_setup_data_chain_log(page_buf, p->linux_setup_data_gpa,
					   (uint32_t)log_len);
	}
	loader_write(p->linux_setup_data_gpa, page_buf, PAGE,
		     "writing the setup_data page");
	zp = (struct linux_zero_page_in){
		.setup_hdr = hdr_buf,
		.hdr = &h,
		.cmdline_gpa = p->linux_cmdline_gpa,
		.initrd_gpa =
			p->linux_initrd_size != 0 ? p->linux_initrd_gpa : 0,
		.initrd_size = p->linux_initrd_size,
		.setup_data_gpa = p->linux_setup_data_gpa,
		.acpi_rsdp = rsdp,
		.e820 = e820,
		.e820_count = e820_count,
	};
	/* From the copy the check saw, read once. */
	linux_zero_page_build(zero_page, &zp);
	loader_write(p->linux_zero_page_gpa, zero_page, PAGE,
		     "writing the zero page");
	for (gpa = p->linux_loader_gpa;
	     gpa < p->linux_loader_gpa + p->linux_loader_size; gpa += PAGE) {
		/* The secrets page and CA are svsm_init()'s, granted; the
		 * pages Linux takes as RAM were granted with the RAM. */
		if (gpa != p->guest_secrets_gpa && gpa != p->guest_caa_gpa &&
		    !linux_loader_page_is_ram(p, gpa)) {
			grant_loader_page(gpa);
		}
	}
	match_paging_mode(p, boot_vmsa);
	LOG_NOTICE("snp: Linux (boot protocol %u.%u) at 0x%llx, init_size "
		   "0x%x, entry 0x%llx (%s), initrd 0x%llx+0x%llx, %u e820 "
		   "entries, ACPI RSDP 0x%llx, boot_params 0x%llx",
		   h.version >> 8, h.version & 0xFFu,
		   (unsigned long long)p->linux_kernel_gpa, h.init_size,
		   (unsigned long long)p->guest_entry_rip,
		   p->linux_entry == CSVSM_LINUX_ENTRY_STARTUP_64
			   ? "startup_64"
			   : "decompressor",
		   (unsigned long long)p->linux_initrd_gpa,
		   (unsigned long long)p->linux_initrd_size, e820_count,
		   (unsigned long long)rsdp,
		   (unsigned long long)p->linux_zero_page_gpa);
}
