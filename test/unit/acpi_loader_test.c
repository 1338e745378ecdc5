/* SPDX-License-Identifier: MIT */
/*
 * The ACPI linker/loader (src/lib/acpi_loader.c): QEMU 7.2's own script
 * and tables for q35 -smp 2 -m 512M (test/unit/data/acpi-qemu72-q35/,
 * checked against ACPI itself: every table sums to zero, every pointer
 * lands on a table, the MADT names two CPUs), hand-built scripts for
 * each command and pointer width, and one hostile script per rule.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svsm/acpi_loader.h"
#include "svsm/le.h"
#include "svsm/std.h"

#include "../framework/test.h"

#define DATA "test/unit/data/acpi-qemu72-q35/"
#define QEMU_TABLES_SIZE 0x20000u /* QEMU pads etc/acpi/tables to this */
#define GPA 0x80000ull
#define REGION 0x22000u
#define MAX_FILES 20u

struct mock_file {
	const char *name;
	const uint8_t *data;
	size_t len;
};

struct mock {
	struct mock_file f[MAX_FILES];
	unsigned count, fetches;
};

static bool mock_fetch(void *ctx, const char *name, uint8_t *dst, size_t max,
		       size_t *len)
{
	struct mock *m = ctx;
	unsigned i;

	m->fetches++;
	for (i = 0; i < m->count; i++) {
		if (strcmp(m->f[i].name, name) == 0) {
			if (m->f[i].len > max) {
				return false;
			}
			memcpy(dst, m->f[i].data, m->f[i].len);
			*len = m->f[i].len;
			return true;
		}
	}
	return false;
}

static void mock_add(struct mock *m, const char *name, const void *data,
		     size_t len)
{
	m->f[m->count++] = (struct mock_file){name, data, len};
}

/* --- QEMU's own blob --- */

static uint8_t *slurp(const char *path, size_t pad_to, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	size_t n;

	if (f == NULL) {
		return NULL;
	}
	buf = calloc(1, pad_to);
	n = fread(buf, 1, pad_to, f);
	fclose(f);
	*len = pad_to > n ? pad_to : n;
	return buf;
}

/* One ACPI table at @gpa in the region: inside it, and summing to zero. */
static const uint8_t *table_at(const uint8_t *out, uint64_t gpa,
			       const char *sig)
{
	const uint8_t *t;
	uint32_t len;

	ASSERT_TRUE(gpa >= GPA && gpa + 36 <= GPA + REGION);
	t = out + (gpa - GPA);
	len = le_get32(t + 4);
	ASSERT_TRUE(len >= 36 && gpa + len <= GPA + REGION);
	EXPECT_EQ(acpi_sum8(t, len), 0);
	if (sig != NULL) {
		EXPECT_EQ(memcmp(t, sig, 4), 0);
	}
	return t;
}

static struct {
	uint8_t *script, *tables, *rsdp;
	size_t script_len, tables_len, rsdp_len;
} qemu;

static void qemu_free(void *unused)
{
	(void)unused;
	free(qemu.script);
	free(qemu.tables);
	free(qemu.rsdp);
	memset(&qemu, 0, sizeof(qemu));
}

static void qemu_mock(struct mock *m)
{
	memset(m, 0, sizeof(*m));
	qemu.script = slurp(DATA "table-loader.bin", 4096, &qemu.script_len);
	qemu.tables =
		slurp(DATA "tables.bin", QEMU_TABLES_SIZE, &qemu.tables_len);
	qemu.rsdp = slurp(DATA "rsdp.bin", 20, &qemu.rsdp_len);
	test_defer(qemu_free, NULL);
	ASSERT_TRUE(qemu.script != NULL && qemu.tables != NULL &&
		    qemu.rsdp != NULL);
	mock_add(m, "etc/table-loader", qemu.script, qemu.script_len);
	mock_add(m, "etc/acpi/tables", qemu.tables, qemu.tables_len);
	mock_add(m, "etc/acpi/rsdp", qemu.rsdp, qemu.rsdp_len);
}

TEST(acpi_loader, qemu_q35_tables_link)
{
	static uint8_t out[REGION];
	struct mock m;
	struct acpi_loader_ops ops = {mock_fetch, &m};
	struct acpi_loader_result res;
	const uint8_t *rsdp, *rsdt, *fadt, *madt;
	unsigned i, n, cpus = 0;
	const char *why;

	qemu_mock(&m);
	why = acpi_loader_run(qemu.script, qemu.script_len, &ops, out, GPA,
			      sizeof(out), &res);
	ASSERT_TRUE(why == NULL);
	/* The RSDP is allocated first (16-aligned), the tables at 64. */
	EXPECT_EQ(res.rsdp_gpa, GPA);
	EXPECT_EQ(res.files, 2);
	EXPECT_EQ(res.used, 64 + QEMU_TABLES_SIZE);
	EXPECT_EQ(res.unknown + res.write_pointers, 0);
	rsdp = out + (res.rsdp_gpa - GPA);
	EXPECT_EQ(memcmp(rsdp, "RSD PTR ", 8), 0);
	EXPECT_EQ(acpi_sum8(rsdp, 20), 0);
	rsdt = table_at(out, le_get32(rsdp + 16), "RSDT");
	n = (le_get32(rsdt + 4) - 36) / 4;
	ASSERT_TRUE(n >= 2);
	fadt = madt = NULL;
	for (i = 0; i < n; i++) {
		const uint8_t *t =
			table_at(out, le_get32(rsdt + 36 + 4 * i), NULL);

		if (memcmp(t, "FACP", 4) == 0) {
			fadt = t;
		} else if (memcmp(t, "APIC", 4) == 0) {
			madt = t;
		}
	}
	ASSERT_TRUE(fadt != NULL && madt != NULL);
	/* The FADT's FACS (36) and DSDT (40) pointers were linked too. */
	EXPECT_EQ(memcmp(out + (le_get32(fadt + 36) - GPA), "FACS", 4), 0);
	(void)table_at(out, le_get32(fadt + 40), "DSDT");
	/* MADT entries after its 44-byte header: one Local APIC per CPU. */
	for (i = 44; i + 2 <= le_get32(madt + 4); i += madt[i + 1]) {
		ASSERT_TRUE(madt[i + 1] >= 2);
		if (madt[i] == 0 && (madt[i + 4] & 1) != 0) {
			cpus++;
		}
	}
	EXPECT_EQ(cpus, 2);
}

TEST(acpi_loader, qemu_tables_do_not_fit_128k)
{
	static uint8_t out[QEMU_TABLES_SIZE];
	struct mock m;
	struct acpi_loader_ops ops = {mock_fetch, &m};
	struct acpi_loader_result res;
	size_t i;

	qemu_mock(&m);
	/* RSDP at 0, then 128 KiB of tables at 64: 64 bytes short. */
	EXPECT_TRUE(acpi_loader_run(qemu.script, qemu.script_len, &ops, out,
				    GPA, sizeof(out), &res) != NULL);
	EXPECT_EQ(res.rsdp_gpa, 0);
	for (i = 0; i < sizeof(out); i++) {
		ASSERT_EQ(out[i], 0);
	}
}

/* --- Hand-built scripts --- */

struct script {
	uint8_t b[40 * ACPI_LOADER_ENTRY_SIZE];
	size_t len;
};

static uint8_t *entry(struct script *s, uint32_t cmd)
{
	uint8_t *e = s->b + s->len;

	memset(e, 0, ACPI_LOADER_ENTRY_SIZE);
	le_put32(e, cmd);
	s->len += ACPI_LOADER_ENTRY_SIZE;
	return e;
}

static void name_put(uint8_t *field, const char *name)
{
	memcpy(field, name, strlen(name));
}

static void alloc(struct script *s, const char *name, uint32_t align,
		  uint8_t zone)
{
	uint8_t *e = entry(s, ACPI_LOADER_CMD_ALLOCATE);

	name_put(e + 4, name);
	le_put32(e + 60, align);
	e[64] = zone;
}

static void pointer(struct script *s, const char *dst, const char *src,
		    uint32_t offset, uint8_t size)
{
	uint8_t *e = entry(s, ACPI_LOADER_CMD_ADD_POINTER);

	name_put(e + 4, dst);
	name_put(e + 60, src);
	le_put32(e + 116, offset);
	e[120] = size;
}

static void checksum(struct script *s, const char *name, uint32_t offset,
		     uint32_t start, uint32_t length)
{
	uint8_t *e = entry(s, ACPI_LOADER_CMD_ADD_CHECKSUM);

	name_put(e + 4, name);
	le_put32(e + 60, offset);
	le_put32(e + 64, start);
	le_put32(e + 68, length);
}

/*
 * A small valid set: an RSDP (FSEG) whose RSDT is table "t" at offset 0;
 * "t" is a 64-byte RSDT-like table with a 4-byte pointer to its own
 * second half at 36, then room for other pointer widths at 40..63.
 */
struct world {
	struct mock m;
	struct acpi_loader_ops ops;
	struct script s;
	uint8_t rsdp[20];
	uint8_t t[64];
	uint8_t out[0x3000];
	struct acpi_loader_result res;
};

static struct world *world_new(void)
{
	struct world *w = calloc(1, sizeof(*w));

	test_defer(free, w);
	memcpy(w->rsdp, "RSD PTR ", 8);
	memcpy(w->rsdp + 9, "CSVSM ", 6);
	le_put32(w->rsdp + 16, 0); /* RSDT: offset 0 in "t" */
	memcpy(w->t, "RSDT", 4);
	le_put32(w->t + 4, 40);
	le_put32(w->t + 36, 0); /* entry: "t" itself */
	mock_add(&w->m, "etc/acpi/rsdp", w->rsdp, sizeof(w->rsdp));
	mock_add(&w->m, "t", w->t, sizeof(w->t));
	w->ops = (struct acpi_loader_ops){mock_fetch, &w->m};
	alloc(&w->s, "etc/acpi/rsdp", 16, ACPI_LOADER_ZONE_FSEG);
	alloc(&w->s, "t", 64, ACPI_LOADER_ZONE_HIGH);
	pointer(&w->s, "t", "t", 36, 4);
	checksum(&w->s, "t", 9, 0, 40);
	pointer(&w->s, "etc/acpi/rsdp", "t", 16, 4);
	checksum(&w->s, "etc/acpi/rsdp", 8, 0, 20);
	return w;
}

static const char *world_run(struct world *w, uint64_t gpa)
{
	return acpi_loader_run(w->s.b, w->s.len, &w->ops, w->out, gpa,
			       sizeof(w->out), &w->res);
}

TEST(acpi_loader, hand_built_links_and_sums)
{
	struct world *w = world_new();

	ASSERT_TRUE(world_run(w, GPA) == NULL);
	EXPECT_EQ(w->res.rsdp_gpa, GPA);
	EXPECT_EQ(w->res.pointers, 2);
	EXPECT_EQ(w->res.checksums, 2);
	/* "t" at GPA + 64 (20 bytes of RSDP, aligned up to 64). */
	EXPECT_EQ(le_get32(w->out + 16), GPA + 64);
	EXPECT_EQ(le_get32(w->out + 64 + 36), GPA + 64);
	EXPECT_EQ(acpi_sum8(w->out, 20), 0);
	EXPECT_EQ(acpi_sum8(w->out + 64, 40), 0);
	EXPECT_EQ(w->res.used, 128);
}

TEST(acpi_loader, pointer_widths)
{
	struct world *w = world_new();

	w->t[40] = 3;		    /* u8 */
	le_put16(w->t + 42, 5);	    /* u16 */
	le_put32(w->t + 44, 7);	    /* u32 */
	le_put64(w->t + 48, 60);    /* u64 */
	le_put64(w->t + 56, 0x3Fu); /* u64, last byte of "t" */
	pointer(&w->s, "t", "t", 42, 2);
	pointer(&w->s, "t", "t", 44, 4);
	pointer(&w->s, "t", "t", 48, 8);
	pointer(&w->s, "t", "t", 56, 8);
	/* A 1-byte pointer to GPA 0x40 + 3 fits when the region is at 0. */
	pointer(&w->s, "t", "t", 40, 1);
	ASSERT_TRUE(world_run(w, 0) == NULL);
	EXPECT_EQ(w->out[64 + 40], 64 + 3);
	EXPECT_EQ(le_get16(w->out + 64 + 42), 64 + 5);
	EXPECT_EQ(le_get32(w->out + 64 + 44), 64 + 7);
	EXPECT_EQ(le_get64(w->out + 64 + 48), 64 + 60);
	EXPECT_EQ(le_get64(w->out + 64 + 56), 64 + 0x3F);
	EXPECT_EQ(w->res.pointers, 7);
}

TEST(acpi_loader, high_gpa_needs_wide_pointer)
{
	struct world *w = world_new();
	uint64_t high = 0x100000000ull;

	/* RSDT pointers are 32 bits: tables above 4 GiB cannot be named. */
	EXPECT_TRUE(world_run(w, high) != NULL);
	EXPECT_EQ(w->res.rsdp_gpa, 0);
	EXPECT_TRUE(mem_all_zero(w->out, sizeof(w->out)));
}

TEST(acpi_loader, unknown_and_write_pointer_skipped)
{
	struct world *w = world_new();
	uint8_t *e;

	(void)entry(&w->s, 0x80000001u);
	(void)entry(&w->s, 7);
	e = entry(&w->s, ACPI_LOADER_CMD_WRITE_POINTER);
	name_put(e + 4, "etc/vmgenid_addr");
	name_put(e + 60, "t");
	(void)entry(&w->s, 0); /* padding */
	ASSERT_TRUE(world_run(w, GPA) == NULL);
	EXPECT_EQ(w->res.unknown, 2);
	EXPECT_EQ(w->res.write_pointers, 1);
	EXPECT_EQ(w->res.rsdp_gpa, GPA);
}

TEST(acpi_loader, alignment_of_gpa_not_offset)
{
	struct world *w = world_new();

	/* A region at ...0x10: the RSDP sits at 0x10 (16-aligned), "t"
	 * at the next 64-aligned GPA, offset 0x30 in the region. */
	ASSERT_TRUE(world_run(w, GPA + 0x10) == NULL);
	EXPECT_EQ(w->res.rsdp_gpa, GPA + 0x10);
	EXPECT_EQ(le_get32(w->out + 16), GPA + 0x40);
}

/* --- Hostile scripts: each fails, leaving nothing behind --- */

static void expect_refused(struct world *w, const char *what)
{
	const char *why = world_run(w, GPA);

	if (why == NULL) {
		test_fail(__FILE__, __LINE__, false, "accepted: %s", what);
		return;
	}
	EXPECT_EQ(w->res.rsdp_gpa, 0);
	EXPECT_TRUE(mem_all_zero(w->out, sizeof(w->out)));
}

TEST(acpi_loader, hostile_names)
{
	struct world *w = world_new();
	uint8_t *e;

	e = entry(&w->s, ACPI_LOADER_CMD_ALLOCATE);
	memset(e + 4, 'x', ACPI_LOADER_NAME_SIZE); /* no NUL */
	le_put32(e + 60, 1);
	e[64] = 1;
	expect_refused(w, "name without NUL");

	w = world_new();
	alloc(&w->s, "t", 64, 1);
	expect_refused(w, "file allocated twice");

	w = world_new();
	pointer(&w->s, "t", "nope", 36, 4);
	expect_refused(w, "pointer to a file never allocated");

	w = world_new();
	checksum(&w->s, "", 0, 0, 1);
	expect_refused(w, "empty name");

	w = world_new();
	alloc(&w->s, "missing", 1, 1);
	expect_refused(w, "fw_cfg has no such file");
}

TEST(acpi_loader, hostile_allocations)
{
	static const uint32_t bad_align[] = {0, 3, 8192, 0x80000000u};
	struct world *w;
	unsigned i;

	for (i = 0; i < sizeof(bad_align) / sizeof(bad_align[0]); i++) {
		w = world_new();
		mock_add(&w->m, "x", "x", 1);
		alloc(&w->s, "x", bad_align[i], 1);
		expect_refused(w, "bad alignment");
	}
	w = world_new();
	mock_add(&w->m, "x", "x", 1);
	alloc(&w->s, "x", 1, 3);
	expect_refused(w, "unknown zone");

	/* A file bigger than what is left of the region. */
	w = world_new();
	{
		static uint8_t big[0x3000];

		mock_add(&w->m, "big", big, sizeof(big));
		alloc(&w->s, "big", 1, 1);
		expect_refused(w, "exhausted");
	}

	/* More files than the loader tracks. */
	w = world_new();
	for (i = 0; i < ACPI_LOADER_MAX_FILES; i++) {
		static char names[ACPI_LOADER_MAX_FILES][8];

		names[i][0] = 'f';
		names[i][1] = (char)('a' + i);
		mock_add(&w->m, names[i], "y", 1);
		alloc(&w->s, names[i], 1, 1);
	}
	expect_refused(w, "too many files");
}

TEST(acpi_loader, hostile_pointers)
{
	static const uint8_t bad_size[] = {0, 3, 5, 16, 255};
	struct world *w;
	unsigned i;

	for (i = 0; i < sizeof(bad_size); i++) {
		w = world_new();
		pointer(&w->s, "t", "t", 40, bad_size[i]);
		expect_refused(w, "pointer size");
	}
	w = world_new();
	pointer(&w->s, "t", "t", 61, 4); /* 61 + 4 > 64 */
	expect_refused(w, "pointer past its file");
	w = world_new();
	pointer(&w->s, "t", "t", 0xFFFFFFFFu, 8);
	expect_refused(w, "pointer offset wraps");
	w = world_new();
	le_put32(w->t + 44, 64); /* == size of "t" */
	pointer(&w->s, "t", "t", 44, 4);
	expect_refused(w, "old value outside the target");
	w = world_new();
	w->t[40] = 1;
	pointer(&w->s, "t", "t", 40, 1); /* GPA 0x80041 > 0xFF */
	expect_refused(w, "address does not fit 1 byte");
}

TEST(acpi_loader, hostile_checksums)
{
	struct world *w;

	w = world_new();
	checksum(&w->s, "t", 64, 0, 1);
	expect_refused(w, "checksum byte past the file");
	w = world_new();
	checksum(&w->s, "t", 0, 1, 64);
	expect_refused(w, "range past the file");
	w = world_new();
	checksum(&w->s, "t", 0, 0xFFFFFFFFu, 2);
	expect_refused(w, "range wraps");
}

TEST(acpi_loader, hostile_rsdp)
{
	struct world *w;
	uint8_t *e;

	w = world_new();
	w->rsdp[0] = 'X';
	expect_refused(w, "RSDP without its signature");

	w = world_new();
	w->s.len -= ACPI_LOADER_ENTRY_SIZE; /* no RSDP checksum */
	w->rsdp[8] = 0x55;
	expect_refused(w, "RSDP checksum wrong");

	w = world_new();
	w->s.len = 0;
	mock_add(&w->m, "u", w->t, sizeof(w->t));
	alloc(&w->s, "u", 64, 1);
	expect_refused(w, "no RSDP allocated");

	/* RSDT not linked: it names GPA 0, outside the region. */
	w = world_new();
	le_put32(w->rsdp + 16, 1);
	memmove(w->s.b + 4 * ACPI_LOADER_ENTRY_SIZE,
		w->s.b + 5 * ACPI_LOADER_ENTRY_SIZE, ACPI_LOADER_ENTRY_SIZE);
	w->s.len -= ACPI_LOADER_ENTRY_SIZE;
	expect_refused(w, "RSDT outside the region");

	/* Revision 2 with a length longer than the file. */
	w = world_new();
	w->rsdp[15] = 2;
	expect_refused(w, "v2 RSDP shorter than 36 bytes");

	w = world_new();
	e = w->s.b + w->s.len;
	memset(e, 0, 64);
	w->s.len += 64; /* half a command */
	expect_refused(w, "script not whole commands");
}

TEST(acpi_loader, region_wraps)
{
	struct world *w = world_new();

	EXPECT_TRUE(acpi_loader_run(w->s.b, w->s.len, &w->ops, w->out,
				    UINT64_MAX - 0x100, sizeof(w->out),
				    &w->res) != NULL);
	EXPECT_EQ(w->res.rsdp_gpa, 0);
}

/* QEMU's newer layout: a revision 2 RSDP (36 bytes) naming an XSDT with
 * an 8-byte pointer and carrying both checksums. */
TEST(acpi_loader, rsdp_v2_with_xsdt)
{
	struct world *w = calloc(1, sizeof(*w));
	static uint8_t rsdp[36];
	static uint8_t xsdt[44];

	test_defer(free, w);
	memset(rsdp, 0, sizeof(rsdp));
	memcpy(rsdp, "RSD PTR ", 8);
	rsdp[15] = 2;
	le_put32(rsdp + 20, sizeof(rsdp));
	memset(xsdt, 0, sizeof(xsdt));
	memcpy(xsdt, "XSDT", 4);
	le_put32(xsdt + 4, sizeof(xsdt));
	mock_add(&w->m, "etc/acpi/rsdp", rsdp, sizeof(rsdp));
	mock_add(&w->m, "etc/acpi/tables", xsdt, sizeof(xsdt));
	w->ops = (struct acpi_loader_ops){mock_fetch, &w->m};
	alloc(&w->s, "etc/acpi/rsdp", 16, ACPI_LOADER_ZONE_FSEG);
	alloc(&w->s, "etc/acpi/tables", 64, ACPI_LOADER_ZONE_HIGH);
	pointer(&w->s, "etc/acpi/tables", "etc/acpi/tables", 36, 8);
	checksum(&w->s, "etc/acpi/tables", 9, 0, sizeof(xsdt));
	pointer(&w->s, "etc/acpi/rsdp", "etc/acpi/tables", 24, 8);
	checksum(&w->s, "etc/acpi/rsdp", 8, 0, 20);
	checksum(&w->s, "etc/acpi/rsdp", 32, 0, sizeof(rsdp));
	ASSERT_TRUE(world_run(w, 0x100000000ull) == NULL);
	EXPECT_EQ(w->res.rsdp_gpa, 0x100000000ull);
	EXPECT_EQ(le_get64(w->out + 24), 0x100000040ull);
	EXPECT_EQ(le_get64(w->out + 64 + 36), 0x100000040ull);
	EXPECT_EQ(acpi_sum8(w->out, 20), 0);
	EXPECT_EQ(acpi_sum8(w->out, 36), 0);
	EXPECT_EQ(acpi_sum8(w->out + 64, sizeof(xsdt)), 0);

	/* The extended checksum left out: refused. */
	w->s.len -= ACPI_LOADER_ENTRY_SIZE;
	rsdp[32] = 1;
	expect_refused(w, "v2 RSDP extended checksum wrong");
}
