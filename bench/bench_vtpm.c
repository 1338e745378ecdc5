/* SPDX-License-Identifier: MIT */
/*
 * vTPM benchmark: wall-clock time per command, three ways in one run:
 * - our full path on sim: the guest's request block, an SVSM call through
 *   the Calling Area, protocol 2, the engine, the response block;
 * - libtpms called in-process (the same engine, no SVSM in between);
 * - swtpm over its TCP data port (one persistent connection).
 *   csvsm-bench-vtpm SWTPM_PORT
 * Commands: GetRandom(32), PCR_Extend(16), PCR_Read(16), CreatePrimary
 * (NULL hierarchy, ECC P-256) + FlushContext. Times are medians of
 * rounds, so a stall of the machine does not decide a ratio.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "svsm/vtpm.h"

#include "abi/svsm_call.h"

#include "csvsm_sim.h"

#define BLOCK 0x2000000ull
#define ROUNDS 7

struct tpm_cmd {
	const char *name;
	unsigned iterations;
	uint8_t bytes[96];
	uint32_t len;
};

static const uint8_t flush_tmpl[] = {0x80, 0x01, 0, 0, 0, 14, 0, 0, 0x01, 0x65};

static struct tpm_cmd cmds[] = {
	{"GetRandom(32)",
	 2000,
	 {0x80, 0x01, 0, 0, 0, 0x0C, 0, 0, 0x01, 0x7B, 0, 32},
	 12},
	{"PCR_Extend",
	 2000,
	 {0x80, 0x02, 0,  0,  0,  0x41, 0,    0,  0x01, 0x82, 0,  0,  0,
	  16,	0,    0,  0,  9,  0x40, 0,    0,  9,	0,    0,  0,  0,
	  0,	0,    0,  0,  1,  0,	0x0B, 1,  2,	3,    4,  5,  6,
	  7,	8,    9,  10, 11, 12,	13,   14, 15,	16,   17, 18, 19,
	  20,	21,   22, 23, 24, 25,	26,   27, 28,	29,   30, 31, 32},
	 0x41},
	{"PCR_Read",
	 2000,
	 {0x80, 0x01, 0, 0, 0, 0x14, 0, 0, 0x01, 0x7E,
	  0,	0,    0, 1, 0, 0x0B, 3, 0, 0,	 1},
	 20},
	/* CreatePrimary(TPM_RH_NULL, ECC P-256, sign|decrypt... restricted
	 * decrypt storage key, AES-128-CFB), then FlushContext. */
	{"CreatePrimary(ECC)",
	 40,
	 {0x80, 0x02, 0,    0, 0,    0x43, 0,	 0, 0x01, 0x31, 0x40, 0,
	  0,	0x07, 0,    0, 0,    9,	   0x40, 0, 0,	  9,	0,    0,
	  0,	0,    0,    0, 4,    0,	   0,	 0, 0,	  0,	0x1A, 0,
	  0x23, 0,    0x0B, 0, 0x03, 0,	   0x72, 0, 0,	  0,	0x06, 0,
	  0x80, 0,    0x43, 0, 0x10, 0,	   0x03, 0, 0x10, 0,	0,    0,
	  0,	0,    0,    0, 0,    0,	   0},
	 0x43},
};

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static uint32_t be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
	       ((uint32_t)p[2] << 8) | p[3];
}

typedef bool (*exec_fn)(const uint8_t *cmd, uint32_t len, uint8_t *rsp,
			uint32_t *rsp_len);

static struct sim_machine *machine;
static int swtpm_fd = -1;

static bool via_svsm(const uint8_t *cmd, uint32_t len, uint8_t *rsp,
		     uint32_t *rsp_len)
{
	uint32_t result = 0;

	return sim_vtpm_command(machine, 0, BLOCK, cmd, len, rsp, 4096, rsp_len,
				&result) == SIM_OK &&
	       result == SVSM_SUCCESS;
}

static bool via_libtpms(const uint8_t *cmd, uint32_t len, uint8_t *rsp,
			uint32_t *rsp_len)
{
	return vtpm_engine_libtpms.execute(cmd, len, rsp, 4096, rsp_len) ==
	       SVSM_OK;
}

static bool via_swtpm(const uint8_t *cmd, uint32_t len, uint8_t *rsp,
		      uint32_t *rsp_len)
{
	uint32_t got = 0;
	uint32_t want = 10;

	if (send(swtpm_fd, cmd, len, 0) != (ssize_t)len) {
		return false;
	}
	while (got < want) {
		ssize_t r = recv(swtpm_fd, rsp + got, 4096 - got, 0);

		if (r <= 0) {
			return false;
		}
		got += (uint32_t)r;
		if (got >= 6) {
			want = be32(rsp + 2);
			if (want > 4096 || want < 10) {
				return false;
			}
		}
	}
	*rsp_len = got;
	return true;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a;
	double y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median over rounds of the mean µs per command (+ its flush). */
static double time_cmd(exec_fn fn, const struct tpm_cmd *c)
{
	static uint8_t rsp[4096];
	double r[ROUNDS];
	unsigned k;

	for (k = 0; k < ROUNDS; k++) {
		double t0 = now_us();
		unsigned i;

		for (i = 0; i < c->iterations; i++) {
			uint32_t n = 0;

			if (!fn(c->bytes, c->len, rsp, &n) || n < 10 ||
			    be32(rsp + 6) != 0) {
				fprintf(stderr, "bench: %s failed (rc %x)\n",
					c->name, n >= 10 ? be32(rsp + 6) : 0);
				exit(1);
			}
			if (c->bytes[9] == 0x31) { /* flush the new primary */
				uint8_t f[14];

				memcpy(f, flush_tmpl, sizeof(flush_tmpl));
				memcpy(f + 10, rsp + 10, 4);
				if (!fn(f, sizeof(f), rsp, &n)) {
					exit(1);
				}
			}
		}
		r[k] = (now_us() - t0) / c->iterations;
	}
	qsort(r, ROUNDS, sizeof(r[0]), cmp_double);
	return r[ROUNDS / 2];
}

static void validate_block(void)
{
	uint64_t caa = sim_current_caa_gpa(machine, 0);
	uint64_t hdr = 1;
	uint64_t e = BLOCK | 4;
	struct sim_regs r = {.rax = SVSM_CALL(0, 1), .rcx = caa + 8};

	if (sim_mem_write(machine, caa + 8, &hdr, 8) != SIM_OK ||
	    sim_mem_write(machine, caa + 16, &e, 8) != SIM_OK ||
	    sim_call(machine, 0, &r) != SIM_OK || r.rax != 0) {
		fprintf(stderr, "bench: PVALIDATE failed\n");
		exit(1);
	}
}

int main(int argc, char **argv)
{
	static const uint8_t startup[] = {0x80, 0x01, 0, 0,    0, 0x0C,
					  0,	0,    1, 0x44, 0, 0};
	double t[3][sizeof(cmds) / sizeof(cmds[0])];
	struct sockaddr_in a = {.sin_family = AF_INET};
	struct sim_config cfg;
	uint8_t rsp[4096];
	uint32_t n;
	unsigned i;
	int one = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: csvsm-bench-vtpm SWTPM_PORT\n");
		return 2;
	}
	sim_config_default(&cfg);
	cfg.vtpm = true;
	machine = sim_create(&cfg);
	if (machine == NULL) {
		return 1;
	}
	validate_block();
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		t[0][i] = time_cmd(via_svsm, &cmds[i]);
	}
	sim_destroy(machine); /* the engine is a singleton: free it */

	if (vtpm_engine_libtpms.init(4087, NULL, 0) != SVSM_OK ||
	    !via_libtpms(startup, sizeof(startup), rsp, &n)) {
		return 1;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		t[1][i] = time_cmd(via_libtpms, &cmds[i]);
	}
	vtpm_engine_libtpms.shutdown();

	a.sin_port = htons((uint16_t)strtoul(argv[1], NULL, 10));
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	swtpm_fd = socket(AF_INET, SOCK_STREAM, 0);
	if (swtpm_fd < 0 ||
	    connect(swtpm_fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
		perror("bench: swtpm");
		return 1;
	}
	(void)setsockopt(swtpm_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		t[2][i] = time_cmd(via_swtpm, &cmds[i]);
	}
	close(swtpm_fd);

	printf("csvsm vTPM: microseconds per command (median of %d rounds)\n",
	       ROUNDS);
	printf("%-20s %10s %10s %10s %10s %10s\n", "", "SVSM path", "libtpms",
	       "swtpm", "SVSM/lib", "swtpm/SVSM");
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		printf("%-20s %10.2f %10.2f %10.2f %9.2fx %9.1fx\n",
		       cmds[i].name, t[0][i], t[1][i], t[2][i],
		       t[0][i] / t[1][i], t[2][i] / t[0][i]);
	}
	printf("goals: SVSM/lib <= 1.5x, swtpm/SVSM >= 20x\n");
	return 0;
}
