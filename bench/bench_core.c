/* SPDX-License-Identifier: MIT */
/*
 * Core-protocol instruction counts, run under callgrind by
 * scripts/bench.sh:   csvsm-bench SCOPE PHASE ITERATIONS
 * SCOPE svsm counts only the SVSM's instructions, model only the SNP
 * model's (the "hardware"); the guest side and set-up are never counted.
 * PHASE query: QUERY_PROTOCOL calls; val4k / inval4k: PVALIDATE of 510
 * 4 KiB entries (only the validating / only the invalidating call of each
 * round counted); val2m / inval2m: the same with 64 2 MiB entries;
 * attest: ATTEST_SERVICES as Linux calls it (the emulated PSP's work is
 * the model's, as a real PSP's would be the hardware's).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi/snp.h"
#include "abi/svsm_caa.h"
#include "abi/svsm_call.h"
#include "abi/svsm_core.h"

#include "../sim/src/model/sim_machine.h"

#define RAM 0x2000000ull
#define ATTEST_BUFS 0xC000000ull /* 8 pages: outputs, then the nonce */

static struct sim_machine *m;
static uint64_t list;

static void must(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "csvsm-bench: %s failed\n", what);
		exit(1);
	}
}

static void pvalidate_list(const uint64_t *e, unsigned n)
{
	struct svsm_list_hdr hdr = {.entries = (uint16_t)n};
	struct sim_regs r = {.rax = SVSM_CALL(0, SVSM_CORE_PVALIDATE),
			     .rcx = list};

	must(sim_mem_write(m, list, &hdr, sizeof(hdr)) == SIM_OK, "list");
	must(sim_mem_write(m, list + 8, e, n * 8u) == SIM_OK, "entries");
	must(sim_call(m, 0, &r) == SIM_OK && r.rax == 0, "PVALIDATE");
}

int main(int argc, char **argv)
{
	struct sim_config cfg;
	static uint64_t val[510];
	static uint64_t inval[510];
	enum sim_bench_scope scope;
	unsigned long iterations;
	unsigned long i;
	unsigned k;

	if (argc != 4) {
		fprintf(stderr, "usage: csvsm-bench svsm|model "
				"query|val4k|inval4k|val2m|inval2m|attest "
				"ITERATIONS\n");
		return 2;
	}
	scope = strcmp(argv[1], "model") == 0 ? SIM_BENCH_MODEL
					      : SIM_BENCH_SVSM;
	iterations = strtoul(argv[3], NULL, 10);
	sim_config_default(&cfg);
	cfg.guest_mem_size = 256ull << 20;
	cfg.rmp_2m = strstr(argv[2], "2m") != NULL;
	m = sim_create(&cfg);
	must(m != NULL, "sim_create");
	list = sim_current_caa_gpa(m, 0) + SVSM_CAA_OFF_BUFFER;
	for (k = 0; k < 510; k++) {
		uint64_t step = cfg.rmp_2m ? SNP_PAGE_SIZE_2M : SNP_PAGE_SIZE;
		uint64_t size = cfg.rmp_2m ? 1 : 0;

		val[k] = (RAM + k * step) | size |
			 PVALIDATE_ENTRY_ACTION_VALIDATE;
		inval[k] = (RAM + k * step) | size;
	}
	if (strcmp(argv[2], "attest") == 0) {
		static struct sim_attest_result a;
		uint64_t e[8];
		uint8_t nonce[64];

		for (k = 0; k < 8; k++) {
			e[k] = (ATTEST_BUFS + k * SNP_PAGE_SIZE) |
			       PVALIDATE_ENTRY_ACTION_VALIDATE;
		}
		pvalidate_list(e, 8);
		memset(nonce, 0x42, sizeof(nonce));
		/* One call uncounted: libcrypto initialises itself once per
		 * process (its configuration, its algorithm tables). */
		must(sim_attest(m, 0, NULL, nonce, ATTEST_BUFS + 0x6010,
				ATTEST_BUFS, false, &a) == SIM_OK &&
			     a.result == 0,
		     "ATTEST_SERVICES (warm-up)");
		for (i = 0; i < iterations; i++) {
			sim_bench_set_scope(m, scope);
			must(sim_attest(m, 0, NULL, nonce, ATTEST_BUFS + 0x6010,
					ATTEST_BUFS, false, &a) == SIM_OK &&
				     a.result == 0,
			     "ATTEST_SERVICES");
			sim_bench_set_scope(m, SIM_BENCH_OFF);
		}
		sim_destroy(m);
		return 0;
	}
	for (i = 0; i < iterations; i++) {
		bool inval_counted = strncmp(argv[2], "inval", 5) == 0;
		unsigned n = cfg.rmp_2m ? 64 : 510;

		if (strcmp(argv[2], "query") == 0) {
			struct sim_regs r = {
				.rax = SVSM_CALL(0, SVSM_CORE_QUERY_PROTOCOL),
				.rcx = 1};

			sim_bench_set_scope(m, scope);
			must(sim_call(m, 0, &r) == SIM_OK && r.rax == 0,
			     "QUERY_PROTOCOL");
			sim_bench_set_scope(m, SIM_BENCH_OFF);
			continue;
		}
		sim_bench_set_scope(m, inval_counted ? SIM_BENCH_OFF : scope);
		pvalidate_list(val, n);
		sim_bench_set_scope(m, inval_counted ? scope : SIM_BENCH_OFF);
		pvalidate_list(inval, n);
		sim_bench_set_scope(m, SIM_BENCH_OFF);
	}
	sim_destroy(m);
	return 0;
}
