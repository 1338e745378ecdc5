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
 *
 * Freestanding: no C library, Linux's x86-64 system calls made directly
 * and its own _start, so the binary is a function of this file and the
 * compiler alone, never of the host's libc (a static glibc would put the
 * host's libc.a into the measured initramfs, whose userspace otherwise
 * comes from pinned Debian packages: docs/linux.md, "The guest's
 * userspace"). scripts/linux-initrd.sh builds it with -ffreestanding
 * -nostdlib -static; a call the compiler would need from a libc fails
 * that link. CLOCK_MONOTONIC is read with the clock_gettime system call,
 * not glibc's vDSO, so each reading costs a system call; both ends of a
 * round trip pay it alike, microseconds against the TPM's milliseconds
 * under TCG.
 */
#include <stddef.h>
#include <stdint.h>

enum { RESPONSE_MAX = 4096, RUNS_MAX = 100000, LINE_MAX = 256 };

/* Linux x86-64: asm/unistd_64.h, asm-generic/fcntl.h, linux/time.h. */
enum {
	NR_READ = 0,
	NR_WRITE = 1,
	NR_OPEN = 2,
	NR_CLOSE = 3,
	NR_CLOCK_GETTIME = 228,
	NR_EXIT_GROUP = 231,
	OPEN_RDWR = 2,
	CLOCK_ID_MONOTONIC = 1,
	FD_STDOUT = 1,
	FD_STDERR = 2,
};

struct kernel_timespec {
	int64_t tv_sec;
	int64_t tv_nsec;
};

struct command {
	const char *name;
	const uint8_t *bytes;
	size_t size;
};

/* A line of output, written with one system call. */
struct line {
	char buf[LINE_MAX];
	size_t len;
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

/* The round trips, in nanoseconds (bss: 800 KB only as far as used). */
static int64_t ns[RUNS_MAX];

static long sys3(long nr, long a, long b, long c)
{
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return ret;
}

static _Noreturn void exit_group(int status)
{
	for (;;) {
		sys3(NR_EXIT_GROUP, status, 0, 0);
	}
}

static void put(struct line *l, const char *s)
{
	while (*s != '\0' && l->len < sizeof(l->buf)) {
		l->buf[l->len++] = *s++;
	}
}

static void put_u64(struct line *l, uint64_t v)
{
	char digits[20];
	size_t n = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	while (n > 0 && l->len < sizeof(l->buf)) {
		l->buf[l->len++] = digits[--n];
	}
}

static void put_hex(struct line *l, uint64_t v, int width)
{
	static const char hex[] = "0123456789abcdef";

	for (int i = width - 1; i >= 0 && l->len < sizeof(l->buf); i--) {
		l->buf[l->len++] = hex[(v >> (4 * i)) & 0xf];
	}
}

/* Why a system call failed, for the messages csvsm-tpmbench prints. */
static void put_errno(struct line *l, long err)
{
	static const struct {
		long err;
		const char *what;
	} names[] = {
		{2, "No such file or directory"},
		{5, "I/O error"},
		{13, "Permission denied"},
		{16, "Device or resource busy"},
		{19, "No such device"},
		{22, "Invalid argument"},
		{62, "Timer expired"},
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (names[i].err == err) {
			put(l, names[i].what);
			return;
		}
	}
	put(l, "errno ");
	put_u64(l, (uint64_t)err);
}

static void emit(int fd, struct line *l)
{
	size_t off = 0;

	put(l, "\n");
	while (off < l->len) {
		long w = sys3(NR_WRITE, fd, (long)(l->buf + off),
			      (long)(l->len - off));
		if (w <= 0) {
			break;
		}
		off += (size_t)w;
	}
	l->len = 0;
}

/* "tpm-rtt: A: B" on stderr, then exit status 1. */
static _Noreturn void die2(const char *a, const char *b, long err)
{
	struct line l;

	l.len = 0;
	put(&l, "tpm-rtt: ");
	put(&l, a);
	put(&l, ": ");
	put(&l, b);
	if (err != 0) {
		put(&l, ": ");
		put_errno(&l, err);
	}
	emit(FD_STDERR, &l);
	exit_group(1);
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static int64_t now_ns(void)
{
	struct kernel_timespec ts;
	long r = sys3(NR_CLOCK_GETTIME, CLOCK_ID_MONOTONIC, (long)&ts, 0);

	if (r != 0) {
		die2("clock_gettime", "CLOCK_MONOTONIC", -r);
	}
	return ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* One command and its checked response; returns the nanoseconds taken. */
static int64_t round_trip(int fd, const struct command *c)
{
	uint8_t rsp[RESPONSE_MAX];
	int64_t t0 = now_ns();
	long w = sys3(NR_WRITE, fd, (long)c->bytes, (long)c->size);
	long r;
	int64_t t1;
	struct line l;

	if (w != (long)c->size) {
		die2(c->name, w < 0 ? "write" : "write: short", w < 0 ? -w : 0);
	}
	r = sys3(NR_READ, fd, (long)rsp, sizeof(rsp));
	t1 = now_ns();
	if (r < 10) {
		die2(c->name, r < 0 ? "read" : "read: short response",
		     r < 0 ? -r : 0);
	}
	if ((rsp[0] != 0x80 || (rsp[1] != 0x01 && rsp[1] != 0x02)) ||
	    be32(rsp + 2) != (uint32_t)r || be32(rsp + 6) != 0) {
		l.len = 0;
		put(&l, "tpm-rtt: ");
		put(&l, c->name);
		put(&l, ": response tag ");
		put_hex(&l, (uint64_t)rsp[0] << 8 | rsp[1], 4);
		put(&l, ", size ");
		put_u64(&l, be32(rsp + 2));
		put(&l, " of ");
		put_u64(&l, (uint64_t)r);
		put(&l, " read, code 0x");
		put_hex(&l, be32(rsp + 6), 8);
		emit(FD_STDERR, &l);
		exit_group(1);
	}
	return t1 - t0;
}

/* Heapsort, ascending: no libc's qsort here. */
static void sift_down(int64_t *a, size_t root, size_t n)
{
	for (;;) {
		size_t child = 2 * root + 1;
		int64_t t;

		if (child >= n) {
			return;
		}
		if (child + 1 < n && a[child + 1] > a[child]) {
			child++;
		}
		if (a[root] >= a[child]) {
			return;
		}
		t = a[root];
		a[root] = a[child];
		a[child] = t;
		root = child;
	}
}

static void sort(int64_t *a, size_t n)
{
	for (size_t i = n / 2; i > 0; i--) {
		sift_down(a, i - 1, n);
	}
	for (size_t end = n; end > 1; end--) {
		int64_t t = a[0];

		a[0] = a[end - 1];
		a[end - 1] = t;
		sift_down(a, 0, end - 1);
	}
}

static int same(const char *a, const char *b)
{
	while (*a != '\0' && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/* A decimal in 1..RUNS_MAX, or 0. */
static long parse_runs(const char *s)
{
	long v = 0;

	if (*s == '\0') {
		return 0;
	}
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9') {
			return 0;
		}
		v = v * 10 + (*s - '0');
		if (v > RUNS_MAX) {
			return 0;
		}
	}
	return v;
}

static int tpm_rtt(int argc, char **argv)
{
	const struct command *c = NULL;
	int64_t sum = 0;
	long runs;
	long fd;
	struct line l;

	l.len = 0;
	if (argc != 4) {
		put(&l, "usage: tpm-rtt DEVICE getrandom|pcrread|pcrextend N");
		emit(FD_STDERR, &l);
		return 2;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (same(argv[2], commands[i].name)) {
			c = &commands[i];
		}
	}
	runs = parse_runs(argv[3]);
	if (c == NULL || runs == 0) {
		put(&l, "tpm-rtt: unknown command or N not 1-");
		put_u64(&l, RUNS_MAX);
		emit(FD_STDERR, &l);
		return 2;
	}
	fd = sys3(NR_OPEN, (long)argv[1], OPEN_RDWR, 0);
	if (fd < 0) {
		put(&l, "tpm-rtt: ");
		put(&l, argv[1]);
		put(&l, ": ");
		put_errno(&l, -fd);
		emit(FD_STDERR, &l);
		return 1;
	}
	for (long i = 0; i < runs; i++) {
		ns[i] = round_trip((int)fd, c);
		sum += ns[i];
	}
	sort(ns, (size_t)runs);
	put(&l, "tpm-rtt: ");
	put(&l, c->name);
	put(&l, ": ");
	put_u64(&l, (uint64_t)runs);
	put(&l, " commands, min ");
	put_u64(&l, (uint64_t)(ns[0] / 1000));
	put(&l, " us, median ");
	put_u64(&l, (uint64_t)(ns[runs / 2] / 1000));
	put(&l, " us, mean ");
	put_u64(&l, (uint64_t)(sum / runs / 1000));
	put(&l, " us");
	emit(FD_STDOUT, &l);
	sys3(NR_CLOSE, fd, 0, 0);
	return 0;
}

/*
 * The process starts at _start with argc at the stack pointer and argv
 * after it (the x86-64 psABI); the stack is 16-byte aligned there, and
 * the call keeps the alignment a C function expects.
 */
_Noreturn void tpm_rtt_start(const long *sp);

_Noreturn void tpm_rtt_start(const long *sp)
{
	exit_group(tpm_rtt((int)sp[0], (char **)(sp + 1)));
}

__asm__(".text\n"
	".globl _start\n"
	".type _start, @function\n"
	"_start:\n"
	"	xorl %ebp, %ebp\n"
	"	movq %rsp, %rdi\n"
	"	andq $-16, %rsp\n"
	"	call tpm_rtt_start\n"
	"	hlt\n");
