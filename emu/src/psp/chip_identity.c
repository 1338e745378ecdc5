/* SPDX-License-Identifier: MIT */
/*
 * The chip identity file (scripts/chip-identity.py), little endian:
 *   "CSVSMCID", u32 key length, the PKCS#8 DER VCEK key, the 64-byte
 *   CHIP_ID, u32 table length, the certificate table.
 * Its lengths are bounded and must add up to the file's size exactly; the
 * key and table are used as they are (the key by libcrypto, which refuses
 * what is not a P-384 key; the table by the guest's relying party, which
 * checks it). The TCB stays the build's: every chip runs one firmware.
 */
#include "chip_identity.h"

#include "svsm/std.h"

#include "machine/fwcfg.h"
#include "machine/machine.h"

#define ID_MAGIC "CSVSMCID"
#define ID_MAGIC_LEN 8u
#define ID_KEY_MAX 512u	    /* a P-384 PKCS#8 key is about 185 bytes */
#define ID_TABLE_MAX 16384u /* the guest's certificate buffer, 4 pages */
#define ID_CHIP_ID_LEN 64u
#define ID_FILE_MAX                                                            \
	(ID_MAGIC_LEN + 4u + ID_KEY_MAX + ID_CHIP_ID_LEN + 4u + ID_TABLE_MAX)

static uint8_t file[ID_FILE_MAX];
static struct psp_identity chip;

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
	       ((uint32_t)p[3] << 24);
}

/* The fields of @size bytes in @file into chip; false if they do not
 * add up. Each length is bounded before it is added to an offset. */
static bool parse(uint32_t size)
{
	uint32_t off = ID_MAGIC_LEN;
	uint32_t key_len, table_len;

	if (size < ID_MAGIC_LEN + 4u ||
	    memcmp(file, ID_MAGIC, ID_MAGIC_LEN) != 0) {
		return false;
	}
	key_len = le32(file + off);
	off += 4u;
	if (key_len == 0 || key_len > ID_KEY_MAX ||
	    size - off < key_len + ID_CHIP_ID_LEN + 4u) {
		return false;
	}
	chip.vcek_key_der = file + off;
	chip.vcek_key_len = key_len;
	off += key_len;
	chip.chip_id = file + off;
	off += ID_CHIP_ID_LEN;
	table_len = le32(file + off);
	off += 4u;
	if (table_len == 0 || table_len > ID_TABLE_MAX ||
	    size - off != table_len) {
		return false;
	}
	chip.certs = file + off;
	chip.certs_len = table_len;
	chip.reported_tcb = psp_test_identity.reported_tcb;
	return true;
}

const char *chip_identity_load(const struct psp_identity **id)
{
	uint32_t size = 0;
	uint16_t sel = 0;

	if (!fwcfg_file("opt/csvsm/chip-id", &size, &sel)) {
		mlog("chip: no identity named (no opt/csvsm/chip-id): the "
		     "build's TEST VCEK and CHIP_ID");
		*id = &psp_test_identity;
		return NULL;
	}
	if (size > sizeof(file) || !fwcfg_read_file(sel, file, size) ||
	    !parse(size)) {
		return "opt/csvsm/chip-id is not a chip identity file "
		       "(\"" ID_MAGIC
		       "\", a VCEK key, a CHIP_ID, a certificate table)";
	}
	mlog("chip: its VCEK and CHIP_ID %02x%02x%02x%02x... from "
	     "opt/csvsm/chip-id",
	     chip.chip_id[0], chip.chip_id[1], chip.chip_id[2],
	     chip.chip_id[3]);
	*id = &chip;
	return NULL;
}
