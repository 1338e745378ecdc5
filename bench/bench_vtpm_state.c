/* SPDX-License-Identifier: MIT */
/*
 * vTPM stored-state benchmark (docs/vtpm.md, "Persistent state"), on sim
 * with a host file as the SVSM's disk (tools/sim/file_disk.c: pwrite and
 * fsync, so a write costs what the host's file system makes it cost):
 * - boot: sim_create() to a running vTPM, without a disk, on an empty
 *   disk (manufacture, EK generation, the first write) and on a stored
 *   state (restore, EKs read back);
 * - per command: NV_DefineSpace and NV_UndefineSpace alternating (each
 *   changes NV: one sealed write and a flush) and GetRandom (none), with
 *   and without the disk.
 * Medians of rounds.  csvsm-bench-vtpm-state DIR (for the disk file)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "svsm/vtpm_store.h"

#include "abi/svsm_call.h"

#include "../tools/sim/file_disk.h"
#include "csvsm_sim.h"

#define BLOCK 0x2000000ull
#define ROUNDS 5
#define NV_PAIRS 100

/* TPM2_NV_DefineSpace(owner, 0x01500016, 8 bytes), empty password. */
static const uint8_t nv_define[] = {
	0x80, 0x02, 0,	  0,	0,    0x2D, 0,	  0, 1, 0x2A, 0x40, 0, 0, 1, 0,
	0,    0,    9,	  0x40, 0,    0,    9,	  0, 0, 1,    0,    0, 0, 0, 0,
	0x0E, 1,    0x50, 0,	0x16, 0,    0x0B, 0, 6, 0,    6,    0, 0, 0, 8};
_Static_assert(sizeof(nv_define) == 0x2D, "commandSize");
/* TPM2_NV_UndefineSpace(owner, 0x01500016), empty password. */
static const uint8_t nv_undefine[] = {
	0x80, 0x02, 0, 0, 0, 0x1F, 0,	 0, 1, 0x22, 0x40, 0, 0, 1, 1, 0x50,
	0,    0x16, 0, 0, 0, 9,	   0x40, 0, 0, 9,    0,	   0, 1, 0, 0};
_Static_assert(sizeof(nv_undefine) == 0x1F, "commandSize");
static const uint8_t get_random[] = {0x80, 0x01, 0, 0,	  0, 0x0C,
				     0,	   0,	 1, 0x7B, 0, 0x10};

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v)
{
	qsort(v, ROUNDS, sizeof(v[0]), cmp_double);
	return v[ROUNDS / 2];
}

static struct sim_machine *boot(bool disk, double *us)
{
	struct sim_config cfg;
	struct sim_machine *m;
	double t0 = now_us();

	sim_config_default(&cfg);
	cfg.vtpm = true;
	cfg.vtpm_disk = disk ? &file_disk : NULL;
	m = sim_create(&cfg);
	*us = now_us() - t0;
	if (m == NULL) {
		fprintf(stderr, "bench: the machine did not boot\n");
		exit(1);
	}
	return m;
}

static void validate_block(struct sim_machine *m)
{
	uint64_t caa = sim_current_caa_gpa(m, 0);
	uint64_t hdr = 1;
	uint64_t e = BLOCK | 4;
	struct sim_regs r = {.rax = SVSM_CALL(0, 1), .rcx = caa + 8};

	if (sim_mem_write(m, caa + 8, &hdr, 8) != SIM_OK ||
	    sim_mem_write(m, caa + 16, &e, 8) != SIM_OK ||
	    sim_call(m, 0, &r) != SIM_OK || r.rax != 0) {
		fprintf(stderr, "bench: PVALIDATE failed\n");
		exit(1);
	}
}

static void run(struct sim_machine *m, const uint8_t *cmd, uint32_t len)
{
	static uint8_t rsp[4096];
	uint32_t rsp_len = 0;
	uint32_t result = 0;

	if (sim_vtpm_command(m, 0, BLOCK, cmd, len, rsp, sizeof(rsp), &rsp_len,
			     &result) != SIM_OK ||
	    result != 0 || rsp_len < 10 || rsp[6] != 0 || rsp[7] != 0 ||
	    rsp[8] != 0 || rsp[9] != 0) {
		fprintf(stderr, "bench: TPM command 0x%02x%02x failed\n",
			cmd[8], cmd[9]);
		exit(1);
	}
}

/* Microseconds per command: NV define/undefine, then GetRandom. */
static void per_command(bool disk, double *nv, double *rnd)
{
	double a[ROUNDS], b[ROUNDS], us = 0;
	struct sim_machine *m = boot(disk, &us);
	unsigned r, i;

	validate_block(m);
	for (r = 0; r < ROUNDS; r++) {
		double t0 = now_us();

		for (i = 0; i < NV_PAIRS; i++) {
			run(m, nv_define, sizeof(nv_define));
			run(m, nv_undefine, sizeof(nv_undefine));
		}
		a[r] = (now_us() - t0) / (2 * NV_PAIRS);
		t0 = now_us();
		for (i = 0; i < 2 * NV_PAIRS; i++) {
			run(m, get_random, sizeof(get_random));
		}
		b[r] = (now_us() - t0) / (2 * NV_PAIRS);
	}
	*nv = median(a);
	*rnd = median(b);
	sim_destroy(m);
}

int main(int argc, char **argv)
{
	double none[ROUNDS], fresh[ROUNDS], stored[ROUNDS];
	double nv_disk, rnd_disk, nv_none, rnd_none;
	struct vtpm_store_stats s;
	char path[4096];
	unsigned r;

	if (argc != 2 || snprintf(path, sizeof(path), "%s/vtpm-state.img",
				  argv[1]) >= (int)sizeof(path)) {
		fprintf(stderr, "usage: csvsm-bench-vtpm-state DIR\n");
		return 2;
	}
	for (r = 0; r < ROUNDS; r++) {
		sim_destroy(boot(false, &none[r]));
		unlink(path);
		if (!file_disk_open(path)) {
			fprintf(stderr, "bench: cannot open %s\n", path);
			return 1;
		}
		sim_destroy(boot(true, &fresh[r]));
		sim_destroy(boot(true, &stored[r]));
		vtpm_store_get_stats(&s);
		file_disk_close();
	}
	printf("vtpm state: boot without a disk %.1f ms, manufacturing on an "
	       "empty disk %.1f ms, from stored state %.1f ms (state %llu "
	       "bytes)\n",
	       median(none) / 1000, median(fresh) / 1000, median(stored) / 1000,
	       (unsigned long long)s.state_len);
	per_command(false, &nv_none, &rnd_none);
	unlink(path);
	if (!file_disk_open(path)) {
		return 1;
	}
	per_command(true, &nv_disk, &rnd_disk);
	file_disk_close();
	unlink(path);
	printf("vtpm state: per command, NV_DefineSpace/UndefineSpace %.1f us "
	       "with the disk (one sealed write and fsync each), %.1f us "
	       "without; GetRandom %.1f us with, %.1f us without\n",
	       nv_disk, nv_none, rnd_disk, rnd_none);
	return 0;
}
