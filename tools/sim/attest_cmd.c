/* SPDX-License-Identifier: MIT */
/*
 * csvsm-sim attest: boot a simulated machine with a vTPM, let its guest
 * ask the SVSM for ATTEST_SERVICES (or ATTEST_SINGLE_SERVICE for the
 * vTPM) with the given nonce, as Linux's configfs-tsm does, and write what
 * the guest received: DIR/report.bin, DIR/manifest.bin, DIR/certs.bin.
 * A relying party then checks them with csvsm-verify. With --vtpm-disk
 * FILE the vTPM keeps its state in FILE (tools/sim/file_disk.h), so runs
 * in a row are boots of one machine on one disk.
 */
#include "attest_cmd.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "abi/svsm_attest.h"
#include "abi/svsm_call.h"

#include "../common/hex.h"
#include "csvsm_sim.h"
#include "file_disk.h"

#define BUFS 0x2000000ull
#define NONCE (BUFS + 0x6010ull)

/* Exactly 64 bytes of hex, as Linux's configfs-tsm inblob must be. */
static bool parse_nonce(const char *s, uint8_t out[64])
{
	size_t n = 0;

	return hex_parse(s, out, 64, &n) && n == 64;
}

static bool write_file(const char *dir, const char *name, const void *p,
		       size_t len)
{
	char path[4096];
	FILE *f;
	bool ok;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    sizeof(path)) {
		return false;
	}
	f = fopen(path, "wb");
	if (f == NULL) {
		return false;
	}
	ok = fwrite(p, 1, len, f) == len;
	return fclose(f) == 0 && ok;
}

/* Validate the guest's output pages, as Linux's memory is. */
static bool accept_bufs(struct sim_machine *m)
{
	uint64_t caa = sim_current_caa_gpa(m, 0);
	uint64_t hdr = 8; /* entries */
	uint64_t e[8];
	struct sim_regs r = {.rax = SVSM_CALL(0, 1), .rcx = caa + 8};
	unsigned i;

	for (i = 0; i < 8; i++) {
		e[i] = (BUFS + i * 0x1000ull) | 4; /* 4 KiB, validate */
	}
	return sim_mem_write(m, caa + 8, &hdr, 8) == SIM_OK &&
	       sim_mem_write(m, caa + 16, e, sizeof(e)) == SIM_OK &&
	       sim_call(m, 0, &r) == SIM_OK && r.rax == 0;
}

int attest_cmd_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"nonce", required_argument, NULL, 'n'},
		{"out", required_argument, NULL, 'o'},
		{"single-vtpm", no_argument, NULL, 's'},
		{"vtpm-disk", required_argument, NULL, 'd'},
		{NULL, 0, NULL, 0},
	};
	static const uint8_t vtpm_guid[16] = SVSM_VTPM_SERVICE_GUID;
	static struct sim_attest_result a;
	const char *out = NULL;
	const char *disk = NULL;
	uint8_t nonce[64];
	bool have_nonce = false, single = false;
	struct sim_config cfg;
	struct sim_machine *m;
	int c;

	optind = 1;
	while ((c = getopt_long(argc + 1, argv - 1, "", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			have_nonce = parse_nonce(optarg, nonce);
			break;
		case 'o':
			out = optarg;
			break;
		case 's':
			single = true;
			break;
		case 'd':
			disk = optarg;
			break;
		default:
			have_nonce = false;
			break;
		}
	}
	if (!have_nonce || out == NULL) {
		fprintf(stderr,
			"usage: csvsm-sim attest --nonce HEX(64 bytes) "
			"--out DIR [--single-vtpm] [--vtpm-disk FILE]\n");
		return 2;
	}
	if (disk != NULL && !file_disk_open(disk)) {
		fprintf(stderr, "csvsm-sim: cannot open %s\n", disk);
		return 2;
	}
	sim_config_default(&cfg);
	cfg.vtpm = true;
	cfg.vtpm_disk = disk != NULL ? &file_disk : NULL;
	m = sim_create(&cfg);
	if (m == NULL || !accept_bufs(m)) {
		fprintf(stderr, "csvsm-sim: the machine did not boot\n");
		return 1;
	}
	if (sim_attest(m, 0, single ? vtpm_guid : NULL, nonce, NONCE, BUFS,
		       false, &a) != SIM_OK ||
	    a.result != SVSM_SUCCESS) {
		fprintf(stderr, "csvsm-sim: attestation failed (0x%x)\n",
			a.result);
		sim_destroy(m);
		return 1;
	}
	sim_destroy(m);
	file_disk_close();
	if (!write_file(out, "report.bin", a.report, a.report_len) ||
	    !write_file(out, "manifest.bin", a.manifest, a.manifest_len) ||
	    !write_file(out, "certs.bin", a.certs, a.certs_len)) {
		fprintf(stderr, "csvsm-sim: cannot write to %s\n", out);
		return 1;
	}
	printf("attest: report %llu bytes, manifest %llu, certificates %llu "
	       "(%u call%s)\n",
	       (unsigned long long)a.report_len,
	       (unsigned long long)a.manifest_len,
	       (unsigned long long)a.certs_len, a.calls,
	       a.calls == 1 ? "" : "s");
	return 0;
}
