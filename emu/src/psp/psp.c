/* SPDX-License-Identifier: MIT */
/*
 * The machine's PSP: the shared launch (model/snp/psp_launch.c, the
 * same code `csvsm-igvm measure` runs) over this machine's guest RAM and
 * RMP, and the guest-request model (model/snp/psp.c). The PSP makes
 * its VMPCKs from RDRAND at each launch, as hardware does per guest
 * launch; its chip secret, the root of derived keys, is the chip's
 * identity: read from fw_cfg opt/csvsm/chip (a file under build/chips/
 * that scripts/emu-run.sh --chip names), so that a chip derives the same
 * keys run after run; without one, from RDRAND (a chip for one run). Its
 * VCEK, CHIP_ID and the host's certificate table are the chip's too
 * (chip_identity.c, fw_cfg opt/csvsm/chip-id beside it), so two chips
 * sign and report as two; without it, the build's. The CPUID table is
 * what the VMM hands it (main.c, from the hypervisor: struct
 * psp_launch_args), checked entry by entry against what this CPU
 * reports, as the PSP checks it; the PSP calls nothing of the
 * hypervisor's.
 */
#include "psp.h"

#include "svsm/std.h"

#include "abi/igvm.h"
#include "abi/snp.h"

#include "model/psp_launch.h"
#include "model/psp_model.h"

#include "chip_identity.h"
#include "hw/cpuid.h"
#include "hw/rmp.h"
#include "machine/fwcfg.h"
#include "machine/guest_mem.h"
#include "machine/layout.h"
#include "machine/machine.h"

#define GUEST_POLICY_DEFAULT 0x30000ull
#define LEAF_FEATURES 1u
#define LEAF_XSAVE 0xDu
#define LEAF_EXT_ADDR 0x80000008u

static struct psp_model psp;
static enum psp_fault fault; /* the host's choice, for every launch */
/* The host's mailbox lock (Linux's ccp driver has one, sev_cmd_mutex):
 * one request at a time from this host, so the count of reports read
 * before and after one names its lie. The firmware serialises on its
 * own too (psp_guest_request, test/unit/psp_serial_test.c), whatever a
 * host does. */
static struct spinlock psp_lock;
static uint8_t vmpck_entropy[PSP_VMPCK_COUNT * 32 + 48];

/* The chip file: "CSVSMCHP", then the 48-byte chip secret. */
#define CHIP_MAGIC "CSVSMCHP"
#define CHIP_MAGIC_LEN 8u
#define CHIP_SECRET_LEN 48u
#define CHIP_FILE_LEN (CHIP_MAGIC_LEN + CHIP_SECRET_LEN)

/* The chip secret from fw_cfg into @secret; NULL, or why the file is
 * refused (then nothing launches: a chip that is not itself must not
 * derive keys). */
static const char *chip_secret_load(uint8_t secret[CHIP_SECRET_LEN])
{
	uint8_t file[CHIP_FILE_LEN];
	uint32_t size = 0;
	uint16_t sel = 0;

	if (!fwcfg_file("opt/csvsm/chip", &size, &sel)) {
		mlog("chip: none named (no opt/csvsm/chip): a secret from "
		     "RDRAND, for this run only");
		return NULL;
	}
	if (size != CHIP_FILE_LEN || !fwcfg_read_file(sel, file, size) ||
	    memcmp(file, CHIP_MAGIC, CHIP_MAGIC_LEN) != 0) {
		return "opt/csvsm/chip is not a chip file (\"" CHIP_MAGIC
		       "\" and a 48-byte secret)";
	}
	memcpy(secret, file + CHIP_MAGIC_LEN, CHIP_SECRET_LEN);
	memset(file, 0, sizeof(file));
	mlog("chip: its secret from opt/csvsm/chip");
	return NULL;
}

static uint8_t *op_page(void *ctx, uint64_t gpa)
{
	(void)ctx;
	return guest_ptr(gpa, PAGE);
}

static bool op_backed(void *ctx, uint64_t gpa)
{
	(void)ctx;
	return guest_ptr(gpa, PAGE) != NULL;
}

static bool op_rmp_launch(void *ctx, uint64_t gpa, bool vmsa)
{
	bool ok;

	(void)ctx;
	rmp_lock();
	ok = rmp_launch_page(&machine_rmp, gpa) == SNP_RET_SUCCESS &&
	     (!vmsa || rmp_rmpadjust(&machine_rmp, 0, gpa, 0,
				     1 | RMPADJUST_VMSA) == SNP_RET_SUCCESS);
	rmp_commit(gpa, PAGE, false); /* no vCPU has run: none to flush */
	return ok;
}

/* The VMM's table (struct psp_launch_args), for each CPUID page. */
static void op_cpuid_fill(void *ctx, struct snp_cpuid_table *t)
{
	const struct psp_launch_args *args = ctx;

	memcpy(t, args->cpuid, sizeof(*t));
}

/* Leaf 1 ECX bits the PSP's CPUID policy lets a hypervisor set: for its
 * virtual APIC x2APIC (21), TSC-deadline (24); hypervisor present (31). */
#define LEAF1_ECX_HV_MAY_SET ((1u << 21) | (1u << 24) | (1u << 31))
/* The hypervisor's own range, which the PSP does not check. */
#define LEAF_HV_FIRST 0x40000000u
#define LEAF_HV_LAST 0x400000FFu

/* What the CPU reports, except what differs by CPU or by XCR0: the APIC
 * ID of leaf 1, the XSAVE area size of leaf 0xD; the leaf 1 bits the
 * PSP's CPUID policy lets the hypervisor set; the features of leaf
 * 0x80000008 EBX it may hide; the hypervisor's range. */
static bool op_cpuid_check(void *ctx, const struct snp_cpuid_fn *fn)
{
	struct hw_cpuid r = hw_cpuid(fn->eax_in, fn->ecx_in);
	uint32_t ebx_mask = fn->eax_in == LEAF_FEATURES ? 0x00FFFFFFu
			    : fn->eax_in == LEAF_XSAVE	? 0
							: 0xFFFFFFFFu;
	uint32_t ecx_free =
		fn->eax_in == LEAF_FEATURES ? LEAF1_ECX_HV_MAY_SET : 0;

	(void)ctx;
	if (fn->eax_in >= LEAF_HV_FIRST && fn->eax_in <= LEAF_HV_LAST) {
		return true;
	}
	if (fn->eax_in == LEAF_EXT_ADDR) {
		/* EBX is features: the hypervisor may clear what the CPU
		 * has (KVM's pages never carry INVLPGB), never add. */
		ebx_mask = 0;
		if ((fn->ebx & ~r.ebx) != 0) {
			return false;
		}
	}
	return fn->eax == r.eax && (fn->ebx & ebx_mask) == (r.ebx & ebx_mask) &&
	       (fn->ecx & ~ecx_free) == (r.ecx & ~ecx_free) && fn->edx == r.edx;
}

static unsigned op_memory_map(void *ctx, struct igvm_memory_map_entry *e,
			      unsigned max)
{
	unsigned n = 0;

	(void)ctx;
	if (max == 0) {
		return 0;
	}
	memset(e, 0, sizeof(*e) * (max < 2 ? max : 2));
	e[n].starting_gpa_page_number = 0;
	e[n].number_of_pages = guest_ram_size / PAGE;
	e[n].entry_type = IGVM_MEMORY_MAP_MEMORY;
	n++;
	if (guest_ram_high != 0 && max > 1) {
		e[n].starting_gpa_page_number = GUEST_MEM_HIGH / PAGE;
		e[n].number_of_pages = guest_ram_high / PAGE;
		e[n].entry_type = IGVM_MEMORY_MAP_MEMORY;
		n++;
	}
	return n;
}

/* KVM keeps VMSAs in host pages outside guest memory. This machine keeps
 * them in the window QEMU's loader backs at the VMSA GPA the image names
 * (IGVM_SNP_VMSA_GPA, which the launch requires): the boot CPU's at that
 * GPA, as the RMP records it on hardware, the others' below it. The
 * guest's memory map never lists the window. */
static uint64_t op_vmsa_home(void *ctx, uint32_t vp)
{
	(void)ctx;
	return IGVM_SNP_VMSA_GPA - (uint64_t)vp * PAGE;
}

static void op_secrets_fill(void *ctx, uint8_t page[4096])
{
	struct snp_secrets_page *s = (struct snp_secrets_page *)page;

	(void)ctx;
	s->version = 3;
	memcpy(s->vmpck, psp.vmpck, sizeof(s->vmpck));
}

const char *psp_launch(const uint8_t *file, size_t size,
		       const struct psp_launch_args *args, uint64_t *boot_vmsa,
		       uint8_t digest[48])
{
	static struct psp_launch_result result;
	struct psp_launch_args host = *args; /* the ops' context */
	struct psp_launch_ops ops = {
		.ctx = &host,
		.ram_size = guest_ram_size,
		.backed = op_backed,
		.page = op_page,
		.rmp_launch = op_rmp_launch,
		.cpuid_fill = op_cpuid_fill,
		.cpuid_check = op_cpuid_check,
		.memory_map = op_memory_map,
		.vp_count = args->vp_count,
		.cpu_signature = hw_cpuid(LEAF_FEATURES, 0).eax,
		.vmsa_features = args->vmsa_features,
		.vmsa_home = op_vmsa_home,
		.secrets_fill = op_secrets_fill,
	};
	const struct psp_identity *id = NULL;
	const char *why;

	if (!machine_entropy(vmpck_entropy, sizeof(vmpck_entropy))) {
		machine_panic("no RDRAND: the PSP cannot make its keys");
	}
	why = chip_secret_load(vmpck_entropy + sizeof(psp.vmpck));
	if (why == NULL) {
		why = chip_identity_load(&id);
	}
	if (why != NULL) {
		memset(vmpck_entropy, 0, sizeof(vmpck_entropy));
		return why;
	}
	psp_init(&psp, id, vmpck_entropy, GUEST_POLICY_DEFAULT);
	psp.fault = fault;
	memset(vmpck_entropy, 0, sizeof(vmpck_entropy));
	why = psp_launch_igvm(file, size, &ops, &result);
	if (why != NULL) {
		return why;
	}
	mlog("launch: %u VMSAs, one per vCPU (APs in reset state, RDX = "
	     "CPU signature 0x%x)",
	     result.vmsa_count, ops.cpu_signature);
	psp.policy = result.policy;
	memcpy(psp.measurement, result.digest, sizeof(psp.measurement));
	memcpy(digest, result.digest, 48);
	*boot_vmsa = result.vmsa_gpa[0];
	return NULL;
}

void psp_set_fault(enum psp_fault f)
{
	fault = f;
}

/* What a response the PSP model wrote under fault @f is (the faults
 * TRUNCATED and BAD_STATUS touch report responses only). */
static const char *fault_lie(enum psp_fault f, uint32_t reports_before)
{
	switch (f) {
	case PSP_FAULT_BAD_TAG:
		return "a response whose tag does not authenticate";
	case PSP_FAULT_WRONG_SEQNO:
		return "a response sealed with sequence number + 2";
	case PSP_FAULT_WRONG_TYPE:
		return "a response of the request's own message type";
	case PSP_FAULT_TRUNCATED:
		return psp.reports != reports_before
			       ? "a report response cut short"
			       : NULL;
	case PSP_FAULT_BAD_STATUS:
		return psp.reports != reports_before
			       ? "a report response with status INVALID_PARAM"
			       : NULL;
	default:
		return NULL;
	}
}

uint64_t psp_serve_request(const uint8_t *req, uint8_t *rsp, void *certs,
			   size_t *certs_len)
{
	uint32_t reports_before;
	const char *lie;
	uint64_t r;

	spin_lock(&psp_lock);
	reports_before = psp.reports;
	r = psp_host_guest_request(&psp, req, rsp, certs, certs_len);
	lie = r == 0 ? fault_lie(psp.fault, reports_before) : NULL;
	spin_unlock(&psp_lock);
	if (lie != NULL) {
		mlog("PSP lies: %s", lie);
	}
	return r;
}
