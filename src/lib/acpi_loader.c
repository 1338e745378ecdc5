/* SPDX-License-Identifier: MIT */
/*
 * QEMU's ACPI linker/loader (svsm/acpi_loader.h). Command layouts, from
 * QEMU's BiosLinkerLoaderEntry (little endian, packed, 128 bytes):
 *   0   u32 command
 *   ALLOCATE       4 file[56], 60 u32 align, 64 u8 zone
 *   ADD_POINTER    4 dest[56], 60 src[56], 116 u32 offset, 120 u8 size
 *   ADD_CHECKSUM   4 file[56], 60 u32 offset, 64 u32 start, 68 u32 length
 *   WRITE_POINTER  4 dest[56], 60 src[56], 116 u32 dst_offset,
 *                  120 u32 src_offset, 124 u8 size
 * Threat (T22): all of it is the host's. Checks beyond SeaBIOS's follow
 * OVMF's (OvmfPkg/AcpiPlatformDxe): names NUL-terminated, alignment a
 * power of two up to a page, a pointer's old value an offset inside its
 * target file and its new value fitting its width.
 */
#include "svsm/acpi_loader.h"

#include "svsm/le.h"
#include "svsm/overflow.h"
#include "svsm/std.h"

#define OFF_NAME1 4u
#define OFF_NAME2 60u
#define RSDP_V1_LEN 20u
#define RSDP_V2_LEN 36u
#define SDT_HEADER_LEN 36u

struct loaded_file {
	char name[ACPI_LOADER_NAME_SIZE]; /* NUL-padded */
	size_t off, size;		  /* in the region */
};

struct loader {
	const struct acpi_loader_ops *ops;
	uint8_t *out;
	uint64_t gpa;
	size_t size;
	struct loaded_file file[ACPI_LOADER_MAX_FILES];
	struct acpi_loader_result res;
};

uint8_t acpi_sum8(const uint8_t *p, size_t len)
{
	uint8_t sum = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		sum = (uint8_t)(sum + p[i]);
	}
	return sum;
}

/* A name field: NUL within its 56 bytes, not empty; copied NUL-padded. */
static bool name_get(const uint8_t *field, char *name)
{
	size_t n = 0;

	while (n < ACPI_LOADER_NAME_SIZE && field[n] != 0) {
		n++;
	}
	if (n == 0 || n == ACPI_LOADER_NAME_SIZE) {
		return false;
	}
	memset(name, 0, ACPI_LOADER_NAME_SIZE);
	memcpy(name, field, n);
	return true;
}

static struct loaded_file *find(struct loader *l, const uint8_t *field)
{
	char name[ACPI_LOADER_NAME_SIZE];
	unsigned i;

	if (!name_get(field, name)) {
		return NULL;
	}
	for (i = 0; i < l->res.files; i++) {
		if (memcmp(l->file[i].name, name, sizeof(name)) == 0) {
			return &l->file[i];
		}
	}
	return NULL;
}

static const char *cmd_allocate(struct loader *l, const uint8_t *e)
{
	uint32_t align = le_get32(e + 60);
	uint8_t zone = e[64];
	struct loaded_file *f;
	uint64_t at, off;
	size_t len = 0;

	if (l->res.files == ACPI_LOADER_MAX_FILES) {
		return "ALLOCATE: too many files";
	}
	f = &l->file[l->res.files];
	if (!name_get(e + OFF_NAME1, f->name)) {
		return "ALLOCATE: file name not NUL-terminated or empty";
	}
	if (find(l, e + OFF_NAME1) != NULL) {
		return "ALLOCATE: file allocated twice";
	}
	if (align == 0 || (align & (align - 1)) != 0 ||
	    align > ACPI_LOADER_MAX_ALIGN) {
		return "ALLOCATE: alignment not a power of two up to 4096";
	}
	/* Both zones share the region: Linux gets the RSDP's address from
	 * boot_params and never scans the F segment for it. */
	if (zone != ACPI_LOADER_ZONE_HIGH && zone != ACPI_LOADER_ZONE_FSEG) {
		return "ALLOCATE: unknown zone";
	}
	/* The GPA is aligned, not the offset: base need not be. */
	if (!add_ok_u64(l->gpa, l->res.used, &at) ||
	    !add_ok_u64(at, align - 1, &at)) {
		return "ALLOCATE: region address overflows";
	}
	at &= ~((uint64_t)align - 1);
	off = at - l->gpa;
	if (off > l->size) {
		return "ALLOCATE: region exhausted";
	}
	if (!l->ops->fetch(l->ops->ctx, f->name, l->out + off,
			   l->size - (size_t)off, &len) ||
	    len > l->size - off) {
		return "ALLOCATE: file missing or larger than the space left";
	}
	f->off = (size_t)off;
	f->size = len;
	l->res.used = (size_t)off + len;
	l->res.files++;
	return NULL;
}

static const char *cmd_add_pointer(struct loader *l, const uint8_t *e)
{
	const struct loaded_file *dst = find(l, e + OFF_NAME1);
	const struct loaded_file *src = find(l, e + OFF_NAME2);
	uint32_t offset = le_get32(e + 116);
	uint8_t width = e[120];
	uint8_t *p;
	uint64_t v = 0, end;
	unsigned i;

	if (dst == NULL || src == NULL) {
		return "ADD_POINTER: file not allocated (or bad name)";
	}
	if (width != 1 && width != 2 && width != 4 && width != 8) {
		return "ADD_POINTER: pointer size not 1, 2, 4 or 8";
	}
	if (!add_ok_u64(offset, width, &end) || end > dst->size) {
		return "ADD_POINTER: pointer outside its file";
	}
	p = l->out + dst->off + offset;
	for (i = 0; i < width; i++) {
		v |= (uint64_t)p[i] << (8 * i);
	}
	/* The old value is an offset into the target file. */
	if (v >= src->size) {
		return "ADD_POINTER: target offset outside the target file";
	}
	v += l->gpa + src->off; /* no overflow: inside the region */
	if (width < 8 && (v >> (8 * width)) != 0) {
		return "ADD_POINTER: address does not fit the pointer";
	}
	for (i = 0; i < width; i++) {
		p[i] = (uint8_t)(v >> (8 * i));
	}
	l->res.pointers++;
	return NULL;
}

static const char *cmd_add_checksum(struct loader *l, const uint8_t *e)
{
	const struct loaded_file *f = find(l, e + OFF_NAME1);
	uint32_t offset = le_get32(e + 60);
	uint32_t start = le_get32(e + 64);
	uint32_t length = le_get32(e + 68);
	uint64_t end;
	uint8_t *base;

	if (f == NULL) {
		return "ADD_CHECKSUM: file not allocated (or bad name)";
	}
	if (offset >= f->size || !add_ok_u64(start, length, &end) ||
	    end > f->size) {
		return "ADD_CHECKSUM: range outside its file";
	}
	base = l->out + f->off;
	base[offset] =
		(uint8_t)(base[offset] - acpi_sum8(base + start, length));
	l->res.checksums++;
	return NULL;
}

/* An SDT address from the RSDP: 0, or a table header inside the region. */
static bool sdt_ok(const struct loader *l, uint64_t addr)
{
	return addr == 0 || (addr >= l->gpa && addr - l->gpa <= l->res.used &&
			     l->res.used - (addr - l->gpa) >= SDT_HEADER_LEN);
}

/* The RSDP must be one a guest accepts (ACPI 6.5 section 5.2.5.3). */
static const char *rsdp_check(struct loader *l)
{
	static const char file[ACPI_LOADER_NAME_SIZE] = ACPI_LOADER_RSDP_FILE;
	const struct loaded_file *f = find(l, (const uint8_t *)file);
	const uint8_t *r;
	uint64_t rsdt, xsdt = 0;

	if (f == NULL) {
		return "no " ACPI_LOADER_RSDP_FILE " allocated";
	}
	r = l->out + f->off;
	if (f->size < RSDP_V1_LEN || memcmp(r, "RSD PTR ", 8) != 0 ||
	    acpi_sum8(r, RSDP_V1_LEN) != 0) {
		return "the RSDP has no signature or a wrong checksum";
	}
	rsdt = le_get32(r + 16);
	if (r[15] >= 2) {
		uint32_t len = f->size >= RSDP_V2_LEN ? le_get32(r + 20) : 0;

		if (len < RSDP_V2_LEN || len > f->size ||
		    acpi_sum8(r, len) != 0) {
			return "the RSDP's extended length or checksum is "
			       "wrong";
		}
		xsdt = le_get64(r + 24);
	}
	if ((rsdt == 0 && xsdt == 0) || !sdt_ok(l, rsdt) || !sdt_ok(l, xsdt)) {
		return "the RSDP's RSDT or XSDT is not in the loaded tables";
	}
	l->res.rsdp_gpa = l->gpa + f->off;
	return NULL;
}

static const char *run(struct loader *l, const uint8_t *script, size_t len)
{
	const char *why = NULL;
	size_t at;

	if (len % ACPI_LOADER_ENTRY_SIZE != 0) {
		return "the script is not whole commands";
	}
	for (at = 0; at < len && why == NULL; at += ACPI_LOADER_ENTRY_SIZE) {
		const uint8_t *e = script + at;
		uint32_t cmd = le_get32(e);

		switch (cmd) {
		case ACPI_LOADER_CMD_ALLOCATE:
			why = cmd_allocate(l, e);
			break;
		case ACPI_LOADER_CMD_ADD_POINTER:
			why = cmd_add_pointer(l, e);
			break;
		case ACPI_LOADER_CMD_ADD_CHECKSUM:
			why = cmd_add_checksum(l, e);
			break;
		case ACPI_LOADER_CMD_WRITE_POINTER:
			/* It asks the firmware to write a table's GPA into a
			 * fw_cfg file, so that a QEMU device (vmgenid, the
			 * GHES error source) writes into that table: a write
			 * to the host the SVSM never makes, for a device that
			 * cannot reach private memory anyway. The tables stay
			 * whole without it; the device's table is inert. The
			 * caller logs the count. */
			l->res.write_pointers++;
			break;
		case 0:
			/* QEMU pads the script to a page with zeroes. */
			break;
		default:
			/* Unknown commands are skipped, as by SeaBIOS and
			 * OVMF: newer QEMUs may add optional ones. */
			l->res.unknown++;
			break;
		}
	}
	return why != NULL ? why : rsdp_check(l);
}

const char *acpi_loader_run(const uint8_t *script, size_t script_len,
			    const struct acpi_loader_ops *ops, uint8_t *out,
			    uint64_t gpa, size_t size,
			    struct acpi_loader_result *res)
{
	struct loader l;
	uint64_t end;
	const char *why;

	memset(&l, 0, sizeof(l));
	memset(res, 0, sizeof(*res));
	if (!add_ok_u64(gpa, size, &end)) {
		return "the region wraps";
	}
	memset(out, 0, size);
	l.ops = ops;
	l.out = out;
	l.gpa = gpa;
	l.size = size;
	why = run(&l, script, script_len);
	if (why != NULL) {
		/* Nothing half-linked stays behind. */
		memset(out, 0, size);
		return why;
	}
	*res = l.res;
	return NULL;
}
