/* SPDX-License-Identifier: MIT */
/*
 * The emu firmware's boot CPU: from the PVH entry to serving the guest.
 * Here the firmware plays three parts that are separate on SNP hardware,
 * each in its own step:
 * - the hypervisor: assigns guest RAM as private (not validated);
 * - the PSP: measures-and-validates the launch pages (SVSM region, the
 *   guest's launch region) and fills the PSP secrets page;
 * - the loader: copies the guest image and builds its first page tables.
 * Then the platform-independent svsm_init() runs, as on snp and sim.
 * Why PVH and not -bios: QEMU's PVH loader takes our ELF at its physical
 * addresses and hands over a memory map in 32-bit protected mode, which
 * is all the SVSM needs; -bios would add a real-mode reset path and our
 * own e820 discovery for nothing. On snp, IGVM replaces both.
 */
#include "svsm/check.h"
#include "svsm/libc.h"
#include "svsm/log.h"
#include "svsm/mem.h"
#include "svsm/page_state.h"
#include "svsm/plat.h"
#include "svsm/std.h"
#include "svsm/svsm.h"
#include "svsm/terminate.h"
#include "svsm/vtpm.h"

#include "abi/snp.h"

#include "arch.h"
#include "emu_psp.h"
#include "emu_rmp.h"
#include "emu_vcpu.h"
#include "fwcfg.h"
#include "layout.h"
#include "npt.h"
#include "paging.h"
#include "smp.h"

#define PVH_MAGIC 0x336EC578u
#define E820_RAM 1u
#define PAGE 4096ull
#define MIB (1024ull * 1024)

struct hvm_start_info {
	uint32_t magic;
	uint32_t version;
	uint32_t flags;
	uint32_t nr_modules;
	uint64_t modlist_paddr;
	uint64_t cmdline_paddr;
	uint64_t rsdp_paddr;
	uint64_t memmap_paddr;
	uint32_t memmap_entries;
	uint32_t reserved;
};

struct hvm_memmap_entry {
	uint64_t addr;
	uint64_t size;
	uint32_t type;
	uint32_t reserved;
};

extern const uint8_t __image_start[];
extern const uint8_t __image_end[];
extern const uint8_t emu_guest_image[];
extern const uint8_t emu_guest_image_end[];

void emu_main(uint32_t start_info_pa);

/* The door (svsm/terminate.h), spelt out so #reason names the reason. */
#define boot_fail(why, set, reason)                                            \
	terminate_hv_via(plat_terminate, (set), (reason), #reason, __func__,   \
			 "boot: %s", (why))

/* RAM from the PVH memory map, clipped to [SVSM base, EMU_RAM_LIMIT). */
static unsigned boot_ram(uint32_t start_info_pa, struct mem_range *ram,
			 uint64_t *top)
{
	const struct hvm_start_info *si =
		(const struct hvm_start_info *)(uint64_t)start_info_pa;
	const struct hvm_memmap_entry *e;
	unsigned n = 0;
	uint32_t i;

	if (si->magic != PVH_MAGIC || si->version < 1 ||
	    si->memmap_entries == 0) {
		boot_fail("no PVH memory map", TERM_SET_CSVSM,
			  TERM_CSVSM_BAD_BOOT_INFO);
	}
	e = (const struct hvm_memmap_entry *)si->memmap_paddr;
	*top = 0;
	for (i = 0; i < si->memmap_entries && n < MEMMAP_MAX_RAM; i++) {
		uint64_t base = ALIGN_UP(e[i].addr, PAGE);
		uint64_t end = (e[i].addr + e[i].size) & ~(PAGE - 1);

		if (e[i].type != E820_RAM) {
			continue;
		}
		base = base < EMU_SVSM_BASE ? EMU_SVSM_BASE : base;
		end = end > EMU_RAM_LIMIT ? EMU_RAM_LIMIT : end;
		if (end <= base) {
			continue;
		}
		ram[n++] = (struct mem_range){gpa_init(base), end - base};
		*top = end > *top ? end : *top;
	}
	if (n == 0 || *top < EMU_GUEST_LAUNCH_END + 2 * MIB) {
		boot_fail("not enough RAM (needs more than 36 MiB)",
			  TERM_SET_CSVSM, TERM_CSVSM_BAD_BOOT_INFO);
	}
	return n;
}

/* The hypervisor's part: every RAM page private, not validated. 2 MiB
 * entries where a whole aligned 2 MiB is guest RAM. */
static void launch_assign(const struct mem_range *ram, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		uint64_t gpa = gpa_val(ram[i].base);
		uint64_t end = gpa + ram[i].size;

		while (gpa < end) {
			bool big = (gpa % SNP_PAGE_SIZE_2M) == 0 &&
				   gpa + SNP_PAGE_SIZE_2M <= end &&
				   gpa >= EMU_GUEST_LAUNCH_END;

			(void)rmp_hv_assign(&emu_rmp, gpa, big);
			gpa += big ? SNP_PAGE_SIZE_2M : SNP_PAGE_SIZE;
		}
	}
}

static uint64_t random64(void)
{
	uint64_t v = 0;
	unsigned tries;

	if ((cpuid(1, 0).ecx & (1u << 30)) != 0) {
		for (tries = 0; tries < 16; tries++) {
			uint8_t ok;

			__asm__ volatile("rdrand %0; setc %1"
					 : "=r"(v), "=qm"(ok));
			if (ok) {
				return v;
			}
		}
	}
	panic("no RDRAND: the emulated PSP cannot make VMPCKs");
}

/* The PSP's part: measured pages are validated, VMPL0-only. */
static void launch_pages(uint64_t psp_secrets)
{
	struct snp_secrets_page *s = (struct snp_secrets_page *)psp_secrets;
	uint8_t entropy[SNP_VMPL_COUNT * 32 + 48];
	uint64_t gpa;
	unsigned i;

	for (gpa = EMU_SVSM_BASE; gpa < EMU_GUEST_LAUNCH_END; gpa += PAGE) {
		CHECK(rmp_launch_page(&emu_rmp, gpa) == SNP_RET_SUCCESS);
	}
	memset(s, 0, sizeof(*s));
	s->version = 3;
	/* The PSP's VMPCKs and chip secret, from RDRAND. */
	for (i = 0; i < sizeof(entropy); i += 8) {
		uint64_t r = random64();

		memcpy(entropy + i, &r, 8);
	}
	emu_psp_init(entropy, s->vmpck);
	memset(entropy, 0, sizeof(entropy));
}

/* The loader's part: the image at EMU_GUEST_LOAD, identity page tables
 * for the low 4 GiB with 2 MiB pages at EMU_GUEST_PT. */
static void load_guest(void)
{
	size_t size = (size_t)(emu_guest_image_end - emu_guest_image);
	uint64_t *pml4 = (uint64_t *)EMU_GUEST_PT;
	uint64_t *pdpt = pml4 + 512;
	uint64_t *pd = pdpt + 512;
	uint64_t i;

	if (size == 0 || size > EMU_GUEST_IMAGE_MAX) {
		boot_fail("guest image missing or too large", TERM_SET_CSVSM,
			  TERM_CSVSM_BAD_BOOT_INFO);
	}
	memset((void *)EMU_GUEST_LOAD, 0,
	       EMU_GUEST_LAUNCH_END - EMU_GUEST_LOAD);
	memcpy((void *)EMU_GUEST_LOAD, emu_guest_image, size);
	pml4[0] = (uint64_t)pdpt | 0x3;
	for (i = 0; i < 4; i++) {
		pdpt[i] = ((uint64_t)pd + i * PAGE) | 0x3;
	}
	for (i = 0; i < 2048; i++) {
		pd[i] = (i * SNP_PAGE_SIZE_2M) | 0x83; /* P, RW, PS */
	}
}

/* The boot vCPU starts in 64-bit mode at the image's first byte, with the
 * secrets page in RDI and the CPU count in RSI (like an IGVM VP context). */
static void grant_launch_region(void)
{
	uint64_t gpa;

	for (gpa = EMU_GUEST_LOAD; gpa < EMU_GUEST_LAUNCH_END; gpa += PAGE) {
		if (gpa == EMU_GUEST_SECRETS || gpa == EMU_GUEST_CAA) {
			continue; /* svsm_init gave these read-write */
		}
		if (page_grant_guest(gpa_init(gpa), PAGE_4K) !=
		    SNP_RET_SUCCESS) {
			boot_fail("cannot grant the launch region",
				  TERM_SET_CSVSM, TERM_CSVSM_RMP_FAILURE);
		}
	}
}

static bool cpu_has_svm(void)
{
	if (cpuid(0x80000000u, 0).eax < 0x8000000Au) {
		return false;
	}
	return (cpuid(0x80000001u, 0).ecx & (1u << 2)) != 0 &&
	       (cpuid(0x8000000Au, 0).edx & 1u) != 0; /* nested paging */
}

void emu_main(uint32_t start_info_pa)
{
	static struct svsm_boot_info info;
	uint64_t image_end = ALIGN_UP((uint64_t)__image_end, PAGE);
	uint64_t top = 0;
	uint64_t rmp_bytes;
	uint64_t npt_pages;
	uint64_t heap;
	uint64_t xcr0;
	gpa_t boot_vmsa;
	unsigned cpus;
	unsigned i;

	serial_init();
	cpus = fwcfg_present() ? fwcfg_cpu_count() : 1;
	if (cpus == 0 || cpus > SVSM_MAX_CPUS) {
		boot_fail("bad CPU count from fw_cfg", TERM_SET_CSVSM,
			  TERM_CSVSM_BAD_BOOT_INFO);
	}
	smp_init_bsp(cpus);
	xcr0 = x86_enable_fpu();
	if (!cpu_has_svm()) {
		boot_fail("the CPU has no SVM with nested paging (use -cpu "
			  "EPYC or -cpu qemu64,+svm,+npt)",
			  TERM_SET_GENERAL, TERM_SNP_FEATURES_UNSUPPORTED);
	}
	info.ram_count = boot_ram(start_info_pa, info.ram, &top);

	/* The SVSM region: image, PSP secrets, RMP, NPT, then the heap. */
	info.psp_secrets = gpa_init(image_end);
	rmp_bytes = ALIGN_UP(emu_rmp_storage_size(top / PAGE), PAGE);
	npt_pages = npt_storage_pages(top);
	heap = image_end + PAGE + rmp_bytes + npt_pages * PAGE;
	if (heap + 4 * MIB > EMU_SVSM_END) {
		boot_fail("SVSM region too small for this much RAM",
			  TERM_SET_CSVSM, TERM_CSVSM_NO_MEMORY);
	}
	emu_rmp_init((void *)(image_end + PAGE), top / PAGE);
	npt_init((void *)(image_end + PAGE + rmp_bytes), top);
	launch_assign(info.ram, info.ram_count);
	launch_pages(image_end);
	load_guest();

	info.platform_name = "emu";
	info.svsm = (struct mem_range){gpa_init(EMU_SVSM_BASE),
				       EMU_SVSM_END - EMU_SVSM_BASE};
	info.heap = (struct mem_range){gpa_init(heap), EMU_SVSM_END - heap};
	info.guest_secrets = gpa_init(EMU_GUEST_SECRETS);
	info.guest_caa = gpa_init(EMU_GUEST_CAA);
	for (i = 0; i < cpus; i++) {
		info.apic_ids[i] = i;
	}
	info.cpu_count = cpus;
	info.guest_vmpl = 1;
	info.guest_sev_features = SEV_FEAT_SNP_ACTIVE;
	/* The test guest's contract: 64-bit mode on the page tables
	 * load_guest() built, RDI = its secrets page, RSI = the CPU count. */
	info.guest_entry = (struct svsm_guest_entry){
		.mode = SVSM_GUEST_ENTRY_LONG,
		.rip = EMU_GUEST_LOAD,
		.cr3 = EMU_GUEST_PT,
		.rdi = EMU_GUEST_SECRETS,
		.rsi = cpus,
	};
	info.vtpm_engine = &vtpm_engine_libtpms;
	if (svsm_init(&info, &boot_vmsa) != SVSM_OK) {
		boot_fail("svsm_init failed", TERM_SET_CSVSM,
			  TERM_CSVSM_BAD_BOOT_INFO);
	}
	LOG_INFO("libc: %llu calls to unsupported functions, all failed safely",
		 (unsigned long long)libc_unsupported_calls());
	grant_launch_region();
	LOG_NOTICE(
		"emu: image %llu KiB, RAM top %llu MiB, XCR0 %llx, "
		"software RMP and NPT over %llu pages",
		(unsigned long long)((uint64_t)(__image_end - __image_start) /
				     1024),
		(unsigned long long)(top / MIB), (unsigned long long)xcr0,
		(unsigned long long)(top / PAGE));
	emu_vcpu_cpu_init(emu_this_cpu());
	smp_start_aps(paging_init());
	LOG_NOTICE("emu: guest at VMPL1 starts at %llx",
		   (unsigned long long)EMU_GUEST_LOAD);
	if (!emu_vcpu_load(emu_this_cpu(), gpa_val(boot_vmsa))) {
		boot_fail("boot vCPU cannot run", TERM_SET_CSVSM,
			  TERM_CSVSM_BAD_BOOT_INFO);
	}
	emu_cpu_loop(emu_this_cpu());
}
