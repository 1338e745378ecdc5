/* SPDX-License-Identifier: MIT */
/*
 * SVSM start-up, shared by every platform: memory, CPUs, the guest's
 * secrets page and its boot vCPU. A bad boot description is the loader's
 * (hypervisor's) fault: the platform terminates on any error returned here.
 */
#include "svsm/blockdev.h"
#include "svsm/deposit.h"
#include "svsm/guest_config.h"
#include "svsm/guest_msg.h"
#include "svsm/guestmem.h"
#include "svsm/log.h"
#include "svsm/mem.h"
#include "svsm/memmap.h"
#include "svsm/owner_lock.h"
#include "svsm/ownership.h"
#include "svsm/page_state.h"
#include "svsm/plat.h"
#include "svsm/std.h"
#include "svsm/svsm.h"
#include "svsm/svsm_vmsa.h"
#include "svsm/vcpu.h"
#include "svsm/vtpm_store.h"

#include "abi/linux_boot.h"
#include "abi/snp.h"
#include "abi/svsm_caa.h"
#include "abi/x86_regs.h"

#define SVSM_CORE_MAX_VERSION 1u

/* The guest's copy of the secrets page (58019 section 4.1): VMPCKs the
 * guest may not use are zeroed (T10: a VMPCK0 report could claim VMPL0),
 * and the SVSM fields describe this SVSM. */
static enum svsm_err init_guest_secrets(const struct svsm_boot_info *info)
{
	struct snp_secrets_page *copy = page_alloc(0);
	struct snp_secrets_page *psp;
	enum svsm_err err;
	unsigned i;

	if (copy == NULL) {
		return SVSM_E_NOMEM;
	}
	psp = plat_map_private(info->psp_secrets, SNP_PAGE_SIZE);
	memcpy(copy, psp, sizeof(*copy));
	plat_unmap_private(psp, SNP_PAGE_SIZE);
	/* VMPCK0 is the SVSM's alone: it stays in guest_msg.c's memory. */
	guest_msg_init(copy->vmpck[0]);
	for (i = 0; i < info->guest_vmpl; i++) {
		memset(copy->vmpck[i], 0, sizeof(copy->vmpck[i]));
	}
	copy->svsm_base = gpa_val(info->svsm.base);
	copy->svsm_size = info->svsm.size;
	copy->svsm_caa = gpa_val(info->guest_caa);
	copy->svsm_max_version = SVSM_CORE_MAX_VERSION;
	copy->svsm_guest_vmpl = info->guest_vmpl;
	err = guestmem_write(info->guest_secrets, copy, sizeof(*copy));
	memset(copy, 0, sizeof(*copy)); /* no VMPCK copy stays behind */
	page_free(copy);
	if (err != SVSM_OK) {
		return err;
	}
	if (page_grant_guest_perms(info->guest_secrets, PAGE_4K,
				   RMPADJUST_READ | RMPADJUST_WRITE) !=
	    SNP_RET_SUCCESS) {
		return SVSM_E_ADDR;
	}
	return SVSM_OK;
}

static enum svsm_err init_guest_caa(gpa_t caa)
{
	uint8_t zero[8] = {0};
	enum svsm_err err = guestmem_write(caa, zero, sizeof(zero));

	if (err != SVSM_OK) {
		return err;
	}
	if (page_grant_guest_perms(caa, PAGE_4K,
				   RMPADJUST_READ | RMPADJUST_WRITE) !=
	    SNP_RET_SUCCESS) {
		return SVSM_E_ADDR;
	}
	return SVSM_OK;
}

/* The boot vCPU starts at the architectural reset state (APM vol. 2
 * 14.1.3), as OVMF's reset vector expects, at @rip in the top segment. */
static void init_reset_vmsa(struct snp_vmsa *vmsa,
			    const struct svsm_boot_info *info)
{
	memset(vmsa, 0, sizeof(*vmsa));
	vmsa->vmpl = info->guest_vmpl;
	vmsa->efer = EFER_SVME;
	vmsa->sev_features = info->guest_sev_features;
	vmsa->cs = (struct vmsa_seg){.selector = 0xF000,
				     .attrib = 0x9B,
				     .limit = 0xFFFF,
				     .base = 0xFFFF0000};
	vmsa->ds = (struct vmsa_seg){.attrib = 0x93, .limit = 0xFFFF};
	vmsa->es = vmsa->ds;
	vmsa->fs = vmsa->ds;
	vmsa->gs = vmsa->ds;
	vmsa->ss = vmsa->ds;
	vmsa->gdtr.limit = 0xFFFF;
	vmsa->idtr.limit = 0xFFFF;
	vmsa->ldtr = (struct vmsa_seg){.attrib = 0x82, .limit = 0xFFFF};
	vmsa->tr = (struct vmsa_seg){.attrib = 0x83, .limit = 0xFFFF};
	vmsa->rip = info->guest_entry.rip;
	vmsa->cr0 = 0x60000010ull;
	vmsa->rflags = 0x2;
	vmsa->dr6 = 0xFFFF0FF0ull;
	vmsa->dr7 = 0x400;
	vmsa->g_pat = 0x0007040600070406ull;
	vmsa->xcr0 = 1;
	vmsa->mxcsr = 0x1F80;
	vmsa->x87_ftw = 0x5555;
	vmsa->x87_fcw = 0x40;
}

/* 64-bit mode on the guest's own page tables (SVSM_GUEST_ENTRY_LONG): the
 * reset state with paging, long mode and SSE turned on. */
static void init_long_vmsa(struct snp_vmsa *vmsa,
			   const struct svsm_boot_info *info)
{
	const struct svsm_guest_entry *e = &info->guest_entry;

	init_reset_vmsa(vmsa, info);
	vmsa_set_long_mode(vmsa, 0x08, 0x10, e->cr3,
			   CR4_OSFXSR | CR4_OSXMMEXCPT);
	vmsa->rip = e->rip;
	vmsa->rdi = e->rdi;
	vmsa->rsi = e->rsi;
}

/* Linux's 64-bit boot protocol (SVSM_GUEST_ENTRY_LINUX): the reset
 * state with paging and long mode on the loader's tables, __BOOT_CS and
 * __BOOT_DS loaded from the loader's GDT, interrupts off, RSI the zero
 * page. No SSE: the decompressor needs none and enables its own. */
static void init_linux_vmsa(struct snp_vmsa *vmsa,
			    const struct svsm_boot_info *info)
{
	const struct svsm_guest_entry *e = &info->guest_entry;

	init_reset_vmsa(vmsa, info);
	vmsa_set_long_mode(vmsa, LINUX_BOOT_CS, LINUX_BOOT_DS, e->cr3, 0);
	vmsa->gdtr.base = e->gdt_base;
	vmsa->gdtr.limit = e->gdt_limit;
	vmsa->idtr.limit = 0;
	vmsa->rip = e->rip;
	vmsa->rdi = e->rdi;
	vmsa->rsi = e->rsi;
}

/* The boot vCPU's VMSA lives in SVSM memory: no guest VMPL may read it. */
static enum svsm_err init_boot_vcpu(const struct svsm_boot_info *info,
				    gpa_t *boot_vmsa)
{
	struct snp_vmsa *vmsa = page_alloc(0);
	struct vcpu *v = obj_alloc(sizeof(*v));
	gpa_t gpa;

	if (vmsa == NULL || v == NULL) {
		return SVSM_E_NOMEM;
	}
	if (info->guest_entry.mode == SVSM_GUEST_ENTRY_LONG) {
		init_long_vmsa(vmsa, info);
	} else if (info->guest_entry.mode == SVSM_GUEST_ENTRY_LINUX) {
		init_linux_vmsa(vmsa, info);
	} else {
		init_reset_vmsa(vmsa, info);
	}
	gpa = page_to_gpa(vmsa);
	if (page_make_vmsa(gpa, 0) != SNP_RET_SUCCESS) {
		return SVSM_E_ADDR;
	}
	v->vmsa_gpa = gpa;
	v->caa_gpa = info->guest_caa;
	v->apic_id = info->apic_ids[0];
	v->is_startup = true;
	v->vmsa = vmsa;
	vcpu_register(v);
	*boot_vmsa = gpa;
	return SVSM_OK;
}

/* Why the loader's boot description cannot be served, or NULL: one
 * reason a clause, so a refused boot says which. */
static const char *init_info_refusal(const struct svsm_boot_info *info)
{
	uint64_t heap_base = gpa_val(info->heap.base);
	uint64_t heap_end = heap_base + info->heap.size;
	uint64_t svsm_end = gpa_val(info->svsm.base) + info->svsm.size;
	uint64_t feat = info->guest_sev_features;

	if (info->guest_vmpl == 0 || info->guest_vmpl >= SNP_VMPL_COUNT) {
		return "the guest VMPL is not 1-3";
	}
	if ((feat & SEV_FEAT_SNP_ACTIVE) == 0) {
		return "the guest's SEV features lack SNPActive";
	}
	if ((feat & ~svsm_permitted_sev_features()) != 0) {
		return "the guest's SEV features are not all permitted";
	}
	if (heap_base < gpa_val(info->svsm.base) || heap_end > svsm_end ||
	    heap_end < heap_base) {
		return "the heap is not inside the SVSM region";
	}
	if (!memmap_overlaps_svsm(info->psp_secrets, SNP_PAGE_SIZE)) {
		return "the PSP secrets page is not in the SVSM region";
	}
	if (!owner_is_guest_page_free(info->guest_secrets, SNP_PAGE_SIZE)) {
		return "the guest secrets page is not free guest RAM";
	}
	if (!owner_is_guest_page_free(info->guest_caa, SNP_PAGE_SIZE)) {
		return "the guest Calling Area is not free guest RAM";
	}
	if (gpa_eq(info->guest_secrets, info->guest_caa)) {
		return "the guest secrets page is the Calling Area";
	}
	if (info->guest_entry.mode != SVSM_GUEST_ENTRY_RESET &&
	    info->guest_entry.mode != SVSM_GUEST_ENTRY_LONG &&
	    info->guest_entry.mode != SVSM_GUEST_ENTRY_LINUX) {
		return "the guest entry mode is unknown";
	}
	if (info->guest_entry.mode != SVSM_GUEST_ENTRY_RESET &&
	    (info->guest_entry.cr3 % SNP_PAGE_SIZE) != 0) {
		return "the guest's CR3 is not page aligned";
	}
	return NULL;
}

static enum svsm_err init_check_info(const struct svsm_boot_info *info)
{
	const char *why = init_info_refusal(info);

	if (why != NULL) {
		LOG_NOTICE("boot: refused: %s", why);
		return SVSM_E_INVAL;
	}
	return SVSM_OK;
}

/* Each step logs why it failed: a refused boot is never silent. */
static enum svsm_err init_step(enum svsm_err err, const char *what)
{
	if (err != SVSM_OK) {
		LOG_NOTICE("boot: %s failed (error %d)", what, (int)err);
	}
	return err;
}

enum svsm_err svsm_init(const struct svsm_boot_info *info, gpa_t *boot_vmsa)
{
	enum svsm_err err;

	LOG_NOTICE("csvsm %s on %s: SVSM at %llx+%llx, guest VMPL%u, %u CPUs",
		   SVSM_VERSION, info->platform_name,
		   (unsigned long long)gpa_val(info->svsm.base),
		   (unsigned long long)info->svsm.size, info->guest_vmpl,
		   info->cpu_count);
	owner_lock_init();
	vcpu_registry_init();
	deposit_reset();
	blockdev_init();
	err = init_step(memmap_init(info->ram, info->ram_count, info->svsm),
			"memory map");
	/* One CPU runs here, but the rule holds from the start: guest pages
	 * are checked and touched under the ownership lock. */
	owner_lock();
	if (err == SVSM_OK) {
		err = init_step(init_check_info(info), "boot information");
	}
	if (err != SVSM_OK) {
		owner_unlock();
		return err;
	}
	guest_config_set_vmpl(info->guest_vmpl);
	err = init_step(
		mem_init(plat_map_private(info->heap.base, info->heap.size),
			 info->heap.size, info->heap.base),
		"heap");
	if (err == SVSM_OK) {
		err = init_step(deposit_init(memmap_ram_top()), "deposit map");
	}
	if (err == SVSM_OK &&
	    !cpu_table_init(info->apic_ids, info->cpu_count)) {
		err = init_step(SVSM_E_INVAL, "CPU table");
	}
	if (err == SVSM_OK) {
		err = init_step(init_guest_secrets(info), "guest secrets page");
	}
	if (err == SVSM_OK) {
		err = init_step(init_guest_caa(info->guest_caa),
				"calling area");
	}
	if (err == SVSM_OK) {
		err = init_step(init_boot_vcpu(info, boot_vmsa), "boot vCPU");
	}
	owner_unlock();
	if (err == SVSM_OK) {
		/* The vTPM, from its stored state when there is a device
		 * (each outcome logged and published in the manifest). */
		err = init_step(vtpm_store_boot(info->vtpm_engine,
						info->vtpm_disk != NULL
							? info->vtpm_disk
							: &vtpm_disk_blockdev),
				"vTPM");
	}
	if (err == SVSM_OK) {
		LOG_INFO("heap: %llu free pages; services: core protocol "
			 "v1%s%s",
			 (unsigned long long)mem_heap_free_pages(),
			 guest_msg_available() ? ", attestation protocol v1"
					       : "",
			 vtpm_service_active() ? ", vTPM protocol v1" : "");
	}
	return err;
}
