/* SPDX-License-Identifier: MIT */
/*
 * The machine's boot CPU: from the PVH entry to running the guest. In
 * order, as the parties act on a real host:
 *   the machine: memory, CPUs, the RMP and nested tables;
 *   the hypervisor: takes the IGVM image and its behaviour from fw_cfg,
 *     assigns all guest RAM private (KVM's SNP guests start so);
 *   the PSP: launches the image, prints the launch digest;
 *   the hardware: runs the boot VMSA at VMPL0 on this CPU; the other
 *     CPUs wait for the VMSAs the guest creates.
 */
#include "svsm/mem.h"
#include "svsm/std.h"

#include "abi/pvh.h"

#include "arch.h"
#include "fwcfg.h"
#include "guest_mem.h"
#include "hv/hv.h"
#include "hw/cpus.h"
#include "hw/postmortem.h"
#include "hw/rmp.h"
#include "hw/world.h"
#include "lapic.h"
#include "layout.h"
#include "machine.h"
#include "psp/psp.h"
#include "stop.h"

#define MIB (1024ull * 1024)
#define LIB_HEAP (16 * MIB)
#define IGVM_MAX (96 * MIB)

extern const uint8_t __image_end[];

void machine_main(uint32_t start_info_pa);

static uint64_t ram_top(uint32_t start_info_pa)
{
	const struct pvh_start_info *si =
		(const struct pvh_start_info *)(uint64_t)start_info_pa;
	const struct pvh_memmap_entry *e;
	uint64_t top = 0;
	uint32_t i;

	if (si->magic != PVH_START_MAGIC || si->memmap_entries == 0) {
		machine_panic("no PVH memory map");
	}
	e = (const struct pvh_memmap_entry *)si->memmap_paddr;
	for (i = 0; i < si->memmap_entries; i++) {
		uint64_t end = e[i].addr + e[i].size;

		/* The RAM that holds the guest's base, up to the hole. */
		if (e[i].type == PVH_MEMMAP_RAM &&
		    e[i].addr <= MACHINE_GUEST_BASE && end > top) {
			top = end > MACHINE_RAM_LIMIT ? MACHINE_RAM_LIMIT : end;
		}
	}
	return top;
}

static enum hv_mode hv_mode_from_fwcfg(void)
{
	enum hv_mode mode = HV_HONEST;
	char name[32];
	uint32_t size;
	uint16_t sel;

	if (!fwcfg_file("opt/csvsm/hv", &size, &sel)) {
		return HV_HONEST;
	}
	memset(name, 0, sizeof(name));
	if (size >= sizeof(name) || !fwcfg_read_file(sel, name, size)) {
		machine_panic("opt/csvsm/hv: unreadable");
	}
	while (size > 0 && (name[size - 1] == '\n' || name[size - 1] == ' ')) {
		name[--size] = '\0';
	}
	if (hv_mode_by_name(name, &mode)) {
		mlog("hypervisor: %s", hv_mode_name(mode));
		return mode;
	}
	machine_panic("opt/csvsm/hv: unknown behaviour '%s'", name);
}

/*
 * q35's max-ram-below-4g, from the host's command line (emu-run.sh
 * --max-ram-below-4g SIZE: fw_cfg opt/csvsm/max-ram-below-4g, a number
 * of bytes with an optional K, M or G): the guest's RAM beyond it lies
 * from 4 GiB. Without it, all RAM is below 4 GiB.
 */
static uint64_t max_ram_below_4g(void)
{
	char s[24];
	uint32_t size;
	uint16_t sel;
	uint64_t v = 0;
	unsigned i;

	if (!fwcfg_file("opt/csvsm/max-ram-below-4g", &size, &sel)) {
		return UINT64_MAX;
	}
	memset(s, 0, sizeof(s));
	if (size == 0 || size >= sizeof(s) || !fwcfg_read_file(sel, s, size)) {
		machine_panic("opt/csvsm/max-ram-below-4g: unreadable");
	}
	for (i = 0; s[i] >= '0' && s[i] <= '9' && v < (1ull << 40); i++) {
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	switch (s[i]) {
	case 'K':
		v <<= 10;
		i++;
		break;
	case 'M':
		v <<= 20;
		i++;
		break;
	case 'G':
		v <<= 30;
		i++;
		break;
	default:
		break;
	}
	while (s[i] == '\n' || s[i] == ' ') {
		i++;
	}
	if (i == 0 || s[i] != '\0' || v == 0 || v >= (1ull << 32) ||
	    v % SNP_PAGE_SIZE_2M != 0) {
		machine_panic("opt/csvsm/max-ram-below-4g: '%s' is not a "
			      "size of whole 2 MiB below 4 GiB",
			      s);
	}
	return v;
}

static void ap_main(struct mcpu *c)
{
	world_cpu_init(c);
	hv_vcpu_run();
}

/* Every bank private from the start, as KVM makes an SNP guest's memory
 * (its windows too: QEMU's IGVM loader makes them guest memory). No vCPU
 * has run, so no translation is left to flush. */
static void assign_guest_ram(void)
{
	unsigned b;

	for (b = 0; b < machine_rmp.banks; b++) {
		const struct rmp_bank *bank = &machine_rmp.bank[b];
		uint64_t off;

		rmp_lock();
		for (off = 0; off < bank->pages * PAGE;
		     off += SNP_PAGE_SIZE_2M) {
			MCHECK(rmp_hv_assign(&machine_rmp, bank->gpa + off,
					     true) == SNP_RET_SUCCESS);
		}
		rmp_commit(bank->gpa, bank->pages * PAGE, false);
	}
}

void machine_main(uint32_t start_info_pa)
{
	static struct snp_cpuid_table cpuid; /* 3 KiB: not on the stack */
	uint64_t top = ram_top(start_info_pa), boot_vmsa = 0, guest_mem;
	struct psp_launch_args launch = {0};
	struct guest_mem_plan plan;
	uint8_t digest[48];
	char hex[97];
	const char *why;
	uint8_t *image;
	uint32_t image_size = 0;
	uint16_t sel = 0;
	unsigned cpus, i;
	void *heap;

	machine_on_bad_end(pm_print); /* the post-mortem: stop.h says why */
	if (!fwcfg_present()) {
		machine_panic("no fw_cfg: run under QEMU");
	}
	cpus = fwcfg_cpu_count();
	if (top < MACHINE_GUEST_BASE + 64 * MIB || cpus == 0 ||
	    cpus > MACHINE_MAX_CPUS) {
		machine_panic("needs at least 192 MiB and 1..%u CPUs",
			      MACHINE_MAX_CPUS);
	}
	guest_mem = (top - MACHINE_GUEST_BASE) & ~(SNP_PAGE_SIZE_2M - 1);
	mm_init((uint64_t)__image_end, MACHINE_GUEST_BASE);
	heap = mm_alloc_pages(LIB_HEAP / PAGE);
	if (mem_init(heap, LIB_HEAP, gpa_init((uint64_t)heap)) != SVSM_OK) {
		machine_panic("no heap for the libraries");
	}
	cpus_init_bsp(cpus);
	lapic_timer_calibrate();
	mlog("TSC %llu kHz", (unsigned long long)lapic_tsc_khz());
	hv_init(hv_mode_from_fwcfg());
	if (!fwcfg_file("opt/csvsm/igvm", &image_size, &sel) ||
	    image_size == 0 || image_size > IGVM_MAX) {
		mlog("launch refused: no IGVM image (-fw_cfg "
		     "name=opt/csvsm/igvm,file=...) or larger than 96 MiB");
		machine_exit(MACHINE_EXIT_LAUNCH_REFUSED);
	}
	image = mm_alloc_pages((image_size + PAGE - 1) / PAGE);
	if (!fwcfg_read_file(sel, image, image_size)) {
		machine_panic("fw_cfg: cannot read the IGVM image");
	}
	why = guest_mem_plan(image, image_size, guest_mem, max_ram_below_4g(),
			     &plan);
	if (why != NULL) {
		mlog("launch refused: the IGVM image's memory: %s", why);
		machine_exit(MACHINE_EXIT_LAUNCH_REFUSED);
	}
	guest_ram_size = plan.ram;
	guest_ram_high = plan.ram_high;
	rmp_setup(&plan);
	assign_guest_ram();
	mlog("%u CPUs, guest RAM %llu MiB, IGVM image %u bytes", cpus,
	     (unsigned long long)(guest_ram_size / MIB), image_size);
	if (guest_ram_high != 0) {
		mlog("guest RAM above 4 GiB: %llu MiB (max-ram-below-4g)",
		     (unsigned long long)(guest_ram_high / MIB));
	}
	for (i = 0; i < plan.windows; i++) {
		mlog("guest memory 0x%llx+%llu MiB for the image (not RAM)",
		     (unsigned long long)plan.window[i].gpa,
		     (unsigned long long)(plan.window[i].pages * PAGE / MIB));
	}
	/* The VMM's part, as QEMU's: the CPUID page from the hypervisor's
	 * answers, and the hypervisor's VMSA features, handed to the PSP
	 * with the image. */
	hv_cpuid_table(&cpuid);
	launch.cpuid = &cpuid;
	launch.vp_count = cpus;
	launch.vmsa_features = HV_VMSA_FEATURES;
	why = psp_launch(image, image_size, &launch, &boot_vmsa, digest);
	if (why != NULL) {
		mlog("launch refused: %s", why);
		machine_exit(MACHINE_EXIT_LAUNCH_REFUSED);
	}
	for (i = 0; i < 48; i++) {
		(void)fmt_snprintf(hex + (size_t)2 * i, 3, "%02x", digest[i]);
	}
	mlog("launch measurement %s", hex);
	world_cpu_init(mcpu_this());
	cpus_start_aps(ap_main);
	hv_vcpu_boot(boot_vmsa);
	hv_vcpu_run();
}
