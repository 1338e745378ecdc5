// SPDX-License-Identifier: MIT
/*
 * tpm-rtt: make bench's TPM round trip, in the Linux guest
 * (test/linux/csvsm-tpmbench). Sends one fixed TPM 2.0 command N times
 * through a TPM character device (/dev/tpmrm0) and prints what each
 * write-to-response took on CLOCK_MONOTONIC: the TPM's own cost seen
 * from Linux, without tpm2-tools' start-up (tens of milliseconds under
 * TCG, which the tools' figures carry in every run).
 *
 *   tpm-rtt DEVICE getrandom|pcrread|pcrextend N
 *   -> "tpm-rtt: NAME: N commands, min A us, median B us, mean C us"
 *
 * The commands are TPM 2.0 Part 3 byte strings, big-endian: GetRandom of
 * 32 bytes; PCR_Read of SHA-256 PCR 16; PCR_Extend of PCR 16 with one
 * SHA-256 digest under a password session (TPM_RS_PW, empty auth: PCR
 * 16 is the debug PCR, resettable and extendable by anyone). Every
 * response must have a TPM_ST tag, TPM_RC_SUCCESS and a size equal to
 * the bytes read, or the tool fails: a failed command is never timed.
 * Built static by scripts/linux-initrd.sh (the initramfs has no libc of
 * its own beyond tpm2-tools' libraries).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { RESPONSE_MAX = 4096, RUNS_MAX = 100000 };

struct command {
	const char *name;
	const uint8_t *bytes;
	size_t size;
};

/* TPM_ST_NO_SESSIONS, 12 bytes, TPM_CC_GetRandom, bytesRequested 32. */
static const uint8_t getrandom_cmd[] = {
	0x80, 0x01, 0x00, 0x00, 0x00, 0x0c, 0x00, 0x00, 0x01, 0x7b, 0x00, 0x20,
};

/*
 * TPM_ST_NO_SESSIONS, 20 bytes, TPM_CC_PCR_Read, TPML_PCR_SELECTION:
 * count 1, TPM_ALG_SHA256, sizeofSelect 3, PCR 16 (byte 2, bit 0).
 */
static const uint8_t pcrread_cmd[] = {
	0x80, 0x01, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x01, 0x7e,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x0b, 0x03, 0x00, 0x00, 0x01,
};

/*
 * TPM_ST_SESSIONS, 65 bytes, TPM_CC_PCR_Extend, handle PCR 16,
 * authorizationSize 9: TPM_RS_PW, empty nonce, attributes 0, empty
 * password; TPML_DIGEST_VALUES: count 1, TPM_ALG_SHA256, 32 bytes 0x5a.
 */
static const uint8_t pcrextend_cmd[] = {
	0x80, 0x02, 0x00, 0x00, 0x00, 0x41, 0x00, 0x00, 0x01, 0x82, 0x00,
	0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x09, 0x40, 0x00, 0x00, 0x09,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x0b,
	0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a,
	0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a,
	0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a,
};

static const struct command commands[] = {
	{"getrandom", getrandom_cmd, sizeof(getrandom_cmd)},
	{"pcrread", pcrread_cmd, sizeof(pcrread_cmd)},
	{"pcrextend", pcrextend_cmd, sizeof(pcrextend_cmd)},
};

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static int64_t now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) {
		perror("tpm-rtt: clock_gettime");
		exit(1);
	}
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* One command and its checked response; returns the nanoseconds taken. */
static int64_t round_trip(int fd, const struct command *c)
{
	uint8_t rsp[RESPONSE_MAX];
	int64_t t0 = now_ns();
	ssize_t w = write(fd, c->bytes, c->size);
	ssize_t r;
	int64_t t1;

	if (w != (ssize_t)c->size) {
		fprintf(stderr, "tpm-rtt: %s: write: %s\n", c->name,
			w < 0 ? strerror(errno) : "short");
		exit(1);
	}
	r = read(fd, rsp, sizeof(rsp));
	t1 = now_ns();
	if (r < 10) {
		fprintf(stderr, "tpm-rtt: %s: read: %s\n", c->name,
			r < 0 ? strerror(errno) : "short response");
		exit(1);
	}
	if ((rsp[0] != 0x80 || (rsp[1] != 0x01 && rsp[1] != 0x02)) ||
	    be32(rsp + 2) != (uint32_t)r || be32(rsp + 6) != 0) {
		fprintf(stderr,
			"tpm-rtt: %s: response tag %02x%02x, size %u of %zd "
			"read, code 0x%x\n",
			c->name, rsp[0], rsp[1], be32(rsp + 2), r,
			be32(rsp + 6));
		exit(1);
	}
	return t1 - t0;
}

static int by_value(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a;
	int64_t y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	const struct command *c = NULL;
	int64_t *ns;
	int64_t sum = 0;
	long runs;
	char *end;
	int fd;

	if (argc != 4) {
		fprintf(stderr, "usage: tpm-rtt DEVICE "
				"getrandom|pcrread|pcrextend N\n");
		return 2;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[2], commands[i].name) == 0) {
			c = &commands[i];
		}
	}
	errno = 0;
	runs = strtol(argv[3], &end, 10);
	if (c == NULL || errno != 0 || *end != '\0' || runs < 1 ||
	    runs > RUNS_MAX) {
		fprintf(stderr, "tpm-rtt: unknown command or N not 1-%d\n",
			RUNS_MAX);
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "tpm-rtt: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	ns = calloc((size_t)runs, sizeof(*ns));
	if (ns == NULL) {
		perror("tpm-rtt: calloc");
		return 1;
	}
	for (long i = 0; i < runs; i++) {
		ns[i] = round_trip(fd, c);
		sum += ns[i];
	}
	qsort(ns, (size_t)runs, sizeof(*ns), by_value);
	printf("tpm-rtt: %s: %ld commands, min %lld us, median %lld us, "
	       "mean %lld us\n",
	       c->name, runs, (long long)(ns[0] / 1000),
	       (long long)(ns[runs / 2] / 1000),
	       (long long)(sum / runs / 1000));
	free(ns);
	close(fd);
	return 0;
}
