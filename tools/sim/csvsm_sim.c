/* SPDX-License-Identifier: MIT */
/*
 * csvsm-sim: run the SVSM on a simulated SEV-SNP machine.
 *   csvsm-sim demo   a Linux-like guest's session with the SVSM, call by
 *                    call, with the SVSM's own log (what `make run` shows)
 */
#include "csvsm_sim.h"

#include <stdio.h>
#include <string.h>

#include "abi/snp.h"
#include "abi/svsm_caa.h"
#include "abi/svsm_call.h"
#include "abi/svsm_core.h"

#include "attest_cmd.h"
#include "vtpm_mssim.h"

static struct sim_machine *machine;
static size_t console_shown;

static const char *result_name(uint32_t r)
{
	switch (r) {
	case SVSM_SUCCESS:
		return "SUCCESS";
	case SVSM_ERR_INCOMPLETE:
		return "INCOMPLETE";
	case SVSM_ERR_UNSUPPORTED_PROTOCOL:
		return "UNSUPPORTED_PROTOCOL";
	case SVSM_ERR_UNSUPPORTED_CALL:
		return "UNSUPPORTED_CALL";
	case SVSM_ERR_INVALID_ADDRESS:
		return "INVALID_ADDRESS";
	case SVSM_ERR_INVALID_FORMAT:
		return "INVALID_FORMAT";
	case SVSM_ERR_INVALID_PARAMETER:
		return "INVALID_PARAMETER";
	case SVSM_ERR_INVALID_REQUEST:
		return "INVALID_REQUEST";
	case SVSM_ERR_BUSY:
		return "BUSY";
	case SVSM_PVALIDATE_FAIL_INPUT:
		return "FAIL_INPUT";
	case SVSM_ERR_FAIL_INUSE:
		return "FAIL_INUSE";
	case SVSM_PVALIDATE_FAIL_SIZEMISMATCH:
		return "FAIL_SIZEMISMATCH";
	case SVSM_PVALIDATE_FAIL_UNCHANGED:
		return "FAIL_UNCHANGED";
	default:
		return "?";
	}
}

/* Print what the SVSM logged since the last call. */
static void show_svsm_log(void)
{
	const char *log = sim_console(machine);
	size_t len = strlen(log);

	if (len > console_shown) {
		fputs(log + console_shown, stdout);
		console_shown = len;
	}
}

static uint32_t call(unsigned vcpu, const char *what, uint64_t rax,
		     uint64_t rcx, uint64_t rdx, uint64_t r8,
		     struct sim_regs *out)
{
	struct sim_regs r = {.rax = rax, .rcx = rcx, .rdx = rdx, .r8 = r8};
	enum sim_status st = sim_call(machine, vcpu, &r);

	show_svsm_log();
	if (st != SIM_OK) {
		printf("guest vCPU%u: %-44s -> not served (status %d)\n", vcpu,
		       what, (int)st);
		return 0xFFFFFFFFu;
	}
	printf("guest vCPU%u: %-44s -> %s (0x%08x)\n", vcpu, what,
	       result_name((uint32_t)r.rax), (unsigned)(uint32_t)r.rax);
	if (out != NULL) {
		*out = r;
	}
	return (uint32_t)r.rax;
}

static void write_list(uint64_t list, uint16_t n, uint16_t next,
		       const uint64_t *e)
{
	struct svsm_list_hdr hdr = {.entries = n, .next = next};

	(void)sim_mem_write(machine, list, &hdr, sizeof(hdr));
	(void)sim_mem_write(machine, list + 8, e, (size_t)n * 8u);
}

static uint16_t read_next(uint64_t list)
{
	uint16_t next = 0;

	(void)sim_mem_read(machine, list + 2, &next, 2);
	return next;
}

/* Linux's svsm_pval_pages(): 2 MiB entries, 4 KiB fallback. */
static void linux_accept_memory(uint64_t gpa, unsigned count_2m)
{
	uint64_t list = sim_current_caa_gpa(machine, 0) + SVSM_CAA_OFF_BUFFER;
	static uint64_t e[510];
	char what[96];
	unsigned i;
	uint16_t next = 0;

	for (i = 0; i < count_2m; i++) {
		e[i] = (gpa + i * SNP_PAGE_SIZE_2M) | 1 | 4;
	}
	while (next < count_2m) {
		uint64_t big;
		uint32_t ret;

		write_list(list, (uint16_t)count_2m, next, e);
		snprintf(what, sizeof(what), "PVALIDATE %u x 2M from entry %u",
			 count_2m, next);
		ret = call(0, what, SVSM_CALL(0, SVSM_CORE_PVALIDATE), list, 0,
			   0, NULL);
		next = read_next(list);
		if (ret != SVSM_PVALIDATE_FAIL_SIZEMISMATCH) {
			break;
		}
		big = e[next] & ~0xFFFull;
		printf("             (4 KiB RMP entries: Linux retries "
		       "%llx as 512 x 4K)\n",
		       (unsigned long long)big);
		{
			static uint64_t small[512];
			unsigned k;

			for (k = 0; k < 512; k++) {
				small[k] = (big + k * 0x1000ull) | 4;
			}
			write_list(list, 510, 0, small);
			(void)call(0, "PVALIDATE 510 x 4K",
				   SVSM_CALL(0, SVSM_CORE_PVALIDATE), list, 0,
				   0, NULL);
			write_list(list, 2, 0, small + 510);
			(void)call(0, "PVALIDATE 2 x 4K",
				   SVSM_CALL(0, SVSM_CORE_PVALIDATE), list, 0,
				   0, NULL);
		}
		next++;
		printf("             (resume the 2M list at entry %u)\n", next);
	}
}

static void write_ap_vmsa(uint64_t gpa)
{
	static struct snp_vmsa v;

	sim_linux_ap_vmsa(&v, 1, SEV_FEAT_SNP_ACTIVE);
	(void)sim_mem_write(machine, gpa, &v, sizeof(v));
}

static int demo(void)
{
	struct sim_config cfg;
	struct snp_secrets_page s;
	struct sim_regs r;
	uint64_t list;
	uint64_t e[4];
	uint32_t eax = 0;

	sim_config_default(&cfg);
	cfg.vcpu_count = 2;
	cfg.log_level = 4;
	printf("== A simulated SEV-SNP machine: 64 MiB, 2 vCPUs, csvsm at "
	       "VMPL0, the guest at VMPL1\n");
	machine = sim_create(&cfg);
	show_svsm_log();
	if (machine == NULL) {
		printf("the SVSM did not boot\n");
		return 1;
	}

	printf("\n== Discovery (Linux svsm_setup_ca)\n");
	(void)sim_guest_rmpadjust(machine, sim_secrets_gpa(machine), false,
				  1 | RMPADJUST_READ, &eax);
	printf("guest: RMPADJUST for VMPL1 -> %u (FAIL_PERMISSION: not at "
	       "VMPL0)\n",
	       eax);
	(void)sim_mem_read(machine, sim_secrets_gpa(machine), &s, sizeof(s));
	printf("guest: secrets page: SVSM_BASE %llx SVSM_SIZE %llx CAA %llx "
	       "VMPL %u max version %u\n",
	       (unsigned long long)s.svsm_base, (unsigned long long)s.svsm_size,
	       (unsigned long long)s.svsm_caa, s.svsm_guest_vmpl,
	       s.svsm_max_version);

	printf("\n== Early boot over the MSR protocol\n");
	list = s.svsm_caa + SVSM_CAA_OFF_BUFFER;
	e[0] = 0x200000 | 4; /* boot_svsm_ca_page */
	write_list(list, 1, 0, e);
	(void)call(0, "PVALIDATE 1 x 4K (boot CA page)",
		   SVSM_CALL(0, SVSM_CORE_PVALIDATE), list, 0, 0, NULL);
	(void)call(0, "REMAP_CA firmware CA -> 0x200000",
		   SVSM_CALL(0, SVSM_CORE_REMAP_CA), 0x200000, 0, 0, NULL);

	printf("\n== Accepting memory\n");
	linux_accept_memory(0x2000000, 4);

	printf("\n== Per-CPU Calling Area and an AP\n");
	list = 0x200000 + SVSM_CAA_OFF_BUFFER;
	e[0] = 0x201000 | 4;
	e[1] = 0x202000 | 4;
	e[2] = 0x203000 | 4;
	write_list(list, 3, 0, e);
	(void)call(0, "PVALIDATE 3 x 4K", SVSM_CALL(0, SVSM_CORE_PVALIDATE),
		   list, 0, 0, NULL);
	(void)call(0, "REMAP_CA -> per-CPU CA 0x201000",
		   SVSM_CALL(0, SVSM_CORE_REMAP_CA), 0x201000, 0, 0, NULL);
	write_ap_vmsa(0x202000);
	(void)call(0, "CREATE_VCPU VMSA 0x202000 CA 0x203000 APIC 1",
		   SVSM_CALL(0, SVSM_CORE_CREATE_VCPU), 0x202000, 0x203000, 1,
		   NULL);
	printf("guest: AP_CREATION to the hypervisor -> %s\n",
	       sim_ap_create(machine, 1, 0x202000, 0x203000) == SIM_OK
		       ? "runs"
		       : "refused");
	(void)call(1, "QUERY_PROTOCOL core v1",
		   SVSM_CALL(0, SVSM_CORE_QUERY_PROTOCOL), 1, 0, 0, &r);
	printf("             RCX = %llx (min 1, max 1)\n",
	       (unsigned long long)r.rcx);
	(void)call(0, "DELETE_VCPU 0x202000 (CPU offline)",
		   SVSM_CALL(0, SVSM_CORE_DELETE_VCPU), 0x202000, 0, 0, NULL);

	printf("\n== Lending memory to the SVSM and taking it back\n");
	list = 0x201000 + SVSM_CAA_OFF_BUFFER;
	e[0] = 0x2000000;
	e[1] = 0x2001000;
	write_list(list, 2, 0, e);
	(void)call(0, "DEPOSIT_MEM 2 x 4K", SVSM_CALL(0, SVSM_CORE_DEPOSIT_MEM),
		   list, 0, 0, NULL);
	(void)call(0, "WITHDRAW_MEM", SVSM_CALL(0, SVSM_CORE_WITHDRAW_MEM),
		   0x2002000, 0, 0, NULL);

	printf("\n== A hostile guest\n");
	e[0] = cfg.svsm_base | 4;
	write_list(list, 1, 0, e);
	(void)call(0, "PVALIDATE the SVSM's own page",
		   SVSM_CALL(0, SVSM_CORE_PVALIDATE), list, 0, 0, NULL);
	(void)call(0, "REMAP_CA into SVSM memory",
		   SVSM_CALL(0, SVSM_CORE_REMAP_CA), cfg.svsm_base, 0, 0, NULL);
	(void)call(0, "PVALIDATE list at an unaligned address",
		   SVSM_CALL(0, SVSM_CORE_PVALIDATE), list + 4, 0, 0, NULL);
	(void)call(0, "unknown protocol 7", SVSM_CALL(7, 0), 0, 0, 0, NULL);
	printf("guest: read of SVSM memory -> %s\n",
	       sim_mem_read(machine, cfg.svsm_base, &eax, 4) == SIM_OK
		       ? "succeeded (BUG)"
		       : "faults");
	{
		char why[128] = "";

		printf("\n== Invariants: %s\n",
		       sim_check_invariants(machine, why, sizeof(why))
			       ? "hold (SVSM memory closed, VMSAs read-only)"
			       : why);
	}
	sim_destroy(machine);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "demo") == 0) {
		return demo();
	}
	if (argc >= 2 && strcmp(argv[1], "vtpm") == 0) {
		return vtpm_mssim_main(argc - 2, argv + 2);
	}
	if (argc >= 2 && strcmp(argv[1], "attest") == 0) {
		return attest_cmd_main(argc - 2, argv + 2);
	}
	fprintf(stderr, "usage: csvsm-sim demo | vtpm --mssim PORT | attest "
			"--nonce HEX --out DIR\n");
	return 2;
}
