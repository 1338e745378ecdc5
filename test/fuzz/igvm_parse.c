/* SPDX-License-Identifier: MIT */
/*
 * Fuzz the IGVM reader and the PSP's launch (model/snp): any bytes as
 * an IGVM file. For inputs with the magic, the harness repairs the sizes
 * and the checksum first (odd first byte of the tail), so the structure
 * walk and the launch are reached, not only the checksum test. The launch
 * runs twice: into a mock machine of 32 pages (its CPU refutes a CPUID
 * leaf when the first byte has bit 1), and measure-only.
 * Checks: every structure the walk returns lies inside the variable
 * header; the launch touches only pages of RAM, launches each once, and
 * a launch that succeeds on the machine measures the same without it;
 * a refusal says why; nothing reads outside the input (ASan).
 */
#include <stdlib.h>
#include <string.h>

#include "abi/igvm.h"

#include "model/psp_launch.h"

#include "../../tools/igvm/igvm.h"

#define RAM_PAGES 32u
#define RAM_SIZE ((uint64_t)RAM_PAGES * 4096)

static struct machine {
	uint8_t ram[RAM_PAGES][4096];
	bool launched[RAM_PAGES];
	bool refute;
} machine, bare;

static uint8_t *mock_page(void *ctx, uint64_t gpa)
{
	struct machine *m = ctx;

	if (gpa >= RAM_SIZE || gpa % 4096 != 0) {
		abort(); /* the launch checks before it asks */
	}
	return m->ram[gpa / 4096];
}

static bool mock_rmp(void *ctx, uint64_t gpa, bool vmsa)
{
	struct machine *m = ctx;

	if (vmsa && gpa == IGVM_SNP_VMSA_GPA) {
		return m == &bare; /* measuring: VMSAs have no home */
	}
	if (gpa >= RAM_SIZE || gpa % 4096 != 0) {
		abort();
	}
	if (m->launched[gpa / 4096]) {
		return false;
	}
	m->launched[gpa / 4096] = true;
	return true;
}

/* The last 4 pages of RAM keep the VMSAs of the 4 vCPUs. */
static uint64_t mock_vmsa_home(void *ctx, uint32_t vp)
{
	(void)ctx;
	return RAM_SIZE - (uint64_t)(4 - vp) * 4096;
}

static void mock_cpuid_fill(void *ctx, struct snp_cpuid_table *t)
{
	(void)ctx;
	t->count = 2;
	t->fn[0].eax_in = 0;
	t->fn[1].eax_in = 0x8000001F;
}

static bool mock_cpuid_check(void *ctx, const struct snp_cpuid_fn *fn)
{
	const struct machine *m = ctx;

	return !m->refute || fn->eax_in != 0x8000001F;
}

static unsigned mock_memory_map(void *ctx, struct igvm_memory_map_entry *e,
				unsigned max)
{
	unsigned i;

	(void)ctx;
	/* More than asked for: the launch must clamp the host's answer. */
	for (i = 0; i < max; i++) {
		e[i].number_of_pages = RAM_PAGES;
	}
	return max + 5;
}

static void mock_secrets(void *ctx, uint8_t page[4096])
{
	(void)ctx;
	memset(page, 0x5E, 4096);
}

static void launch_both(const uint8_t *file, size_t size)
{
	static struct psp_launch_result on_machine, measured;
	const struct psp_launch_ops ops = {
		.ctx = &machine,
		.ram_size = RAM_SIZE,
		.page = mock_page,
		.rmp_launch = mock_rmp,
		.cpuid_fill = mock_cpuid_fill,
		.cpuid_check = mock_cpuid_check,
		.memory_map = mock_memory_map,
		.vp_count = 4,
		.cpu_signature = 0x800F12,
		.vmsa_features = ~0ull,
		.vmsa_home = mock_vmsa_home,
		.secrets_fill = mock_secrets,
	};
	const struct psp_launch_ops measure = {.ctx = &bare,
					       .ram_size = RAM_SIZE,
					       .rmp_launch = mock_rmp,
					       .vp_count = 4,
					       .cpu_signature = 0x800F12,
					       .vmsa_features = ~0ull};
	const char *why = psp_launch_igvm(file, size, &ops, &on_machine);
	const char *why_measured =
		psp_launch_igvm(file, size, &measure, &measured);

	if ((why != NULL &&
	     (why[0] == 0 || memchr(why, 0, sizeof(on_machine.why)) == NULL)) ||
	    (why_measured != NULL && why_measured[0] == 0)) {
		abort(); /* a refusal says why */
	}
	if (why == NULL &&
	    (why_measured != NULL ||
	     memcmp(on_machine.digest, measured.digest, 48) != 0 ||
	     memcmp(on_machine.pages, measured.pages, sizeof(measured.pages)) !=
		     0 ||
	     on_machine.policy != measured.policy)) {
		abort(); /* one digest, machine or not */
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct igvm_fixed_header h;
	struct igvm_file f;
	struct igvm_item it;
	uint8_t *buf;
	uint32_t pos = 0;
	const char *why = NULL;

	if (size < sizeof(h) + 1 || size > (1u << 20)) {
		return 0;
	}
	buf = malloc(size - 1);
	memcpy(buf, data + 1, size - 1);
	size--;
	if (data[0] & 1) {
		memcpy(&h, buf, sizeof(h));
		h.magic = IGVM_MAGIC;
		h.format_version = IGVM_FORMAT_VERSION_1;
		h.total_file_size = (uint32_t)size;
		h.variable_header_offset = sizeof(h);
		if (h.variable_header_size > size - sizeof(h)) {
			h.variable_header_size =
				(uint32_t)(size - sizeof(h)) & ~7u;
		}
		h.checksum = 0;
		memcpy(buf, &h, sizeof(h));
		h.checksum =
			igvm_checksum(buf, sizeof(h) + h.variable_header_size);
		memcpy(buf, &h, sizeof(h));
	}
	if (igvm_open(&f, buf, size) == NULL) {
		while (igvm_next(&f, &pos, &it, &why)) {
			if (it.offset < f.hdr.variable_header_offset ||
			    (uint64_t)it.offset + 8 + it.length >
				    (uint64_t)f.hdr.variable_header_offset +
					    f.hdr.variable_header_size) {
				abort();
			}
		}
		memset(&machine.launched, 0, sizeof(machine.launched));
		memset(&bare.launched, 0, sizeof(bare.launched));
		machine.refute = (data[0] & 2) != 0;
		launch_both(buf, size);
	}
	free(buf);
	return 0;
}
