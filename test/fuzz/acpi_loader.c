/* SPDX-License-Identifier: MIT */
/*
 * Fuzz the ACPI linker/loader (src/lib/acpi_loader.c) as the host would
 * drive it: the input is the region's GPA (u32 LE), then two fw_cfg
 * files, "etc/acpi/rsdp" and "etc/acpi/tables", each a u16 LE length and
 * its bytes, then the command script. The region is a heap block of its
 * exact size, so ASan sees any write past it. Checks: a refused script
 * leaves the region all zero and no RSDP; an accepted one returns a
 * valid RSDP inside the used part, and nothing past it is written.
 */
#include "svsm/acpi_loader.h"

#include <stdlib.h>
#include <string.h>

#include "svsm/le.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REGION 0x2000u

struct file {
	const char *name;
	const uint8_t *data;
	size_t len;
};

static struct file files[2];

static bool fetch(void *ctx, const char *name, uint8_t *dst, size_t max,
		  size_t *len)
{
	unsigned i;

	(void)ctx;
	for (i = 0; i < 2; i++) {
		if (strcmp(files[i].name, name) == 0) {
			if (files[i].len > max) {
				return false;
			}
			memcpy(dst, files[i].data, files[i].len);
			*len = files[i].len;
			return true;
		}
	}
	return false;
}

/* Take a u16-length-prefixed field; false if the input ends first. */
static bool take(const uint8_t **p, size_t *left, struct file *f)
{
	size_t n;

	if (*left < 2) {
		return false;
	}
	n = le_get16(*p);
	*p += 2;
	*left -= 2;
	f->len = n < *left ? n : *left;
	f->data = *p;
	*p += f->len;
	*left -= f->len;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct acpi_loader_ops ops = {fetch, NULL};
	struct acpi_loader_result res;
	const uint8_t *p = data;
	size_t left = size, i;
	uint64_t gpa;
	uint8_t *out;
	const char *why;

	if (left < 4) {
		return 0;
	}
	gpa = le_get32(p);
	p += 4;
	left -= 4;
	files[0].name = ACPI_LOADER_RSDP_FILE;
	files[1].name = "etc/acpi/tables";
	if (!take(&p, &left, &files[0]) || !take(&p, &left, &files[1])) {
		return 0;
	}
	out = malloc(REGION);
	if (out == NULL) {
		abort();
	}
	memset(out, 0xA5, REGION);
	why = acpi_loader_run(p, left, &ops, out, gpa, REGION, &res);
	if (why != NULL) {
		if (res.rsdp_gpa != 0) {
			abort();
		}
		for (i = 0; i < REGION; i++) {
			if (out[i] != 0) {
				abort();
			}
		}
	} else {
		const uint8_t *r;

		if (res.used > REGION || res.rsdp_gpa < gpa ||
		    res.rsdp_gpa - gpa + 20 > res.used) {
			abort();
		}
		r = out + (res.rsdp_gpa - gpa);
		if (memcmp(r, "RSD PTR ", 8) != 0 || acpi_sum8(r, 20) != 0) {
			abort();
		}
		for (i = res.used; i < REGION; i++) {
			if (out[i] != 0) {
				abort();
			}
		}
	}
	free(out);
	return 0;
}
