/* SPDX-License-Identifier: MIT */
/*
 * QEMU's ACPI tables through fw_cfg (snp_acpi.h; docs/acpi.md).
 * fw_cfg's port interface (QEMU docs/specs/fw_cfg.rst): a 16-bit write
 * of a key to the selector port 0x510 rewinds that item, byte reads from
 * the data port 0x511 return its next bytes (`rep insb` 2 KiB an exit
 * where the hypervisor serves string input, one IN a byte elsewhere). Key
 * 0x0000 reads "QEMU"; key 0x0019 the file directory: a big-endian u32 count,
 * then per file a big-endian u32 size and u16 key, u16 reserved and a 56-byte
 * name.
 *
 * Threat (T22): every byte is the host's. The SVSM reads into its own
 * heap (the script, at most SCRIPT_MAX bytes; the tables, at most the
 * region's size and 1 MiB), links them there (acpi_loader_run,
 * which checks every offset), and only then copies the result to the
 * guest region through guestmem; a failure leaves the region zeroed.
 * No fw_cfg write and no DMA: the host never writes SVSM or guest
 * memory on the SVSM's behalf. What the tables say is the guest's to
 * trust, from its host, as under OVMF.
 */
#include "snp_acpi.h"

#include "svsm/acpi_loader.h"
#include "svsm/check.h"
#include "svsm/guestmem.h"
#include "svsm/log.h"
#include "svsm/mem.h"
#include "svsm/owner_lock.h"
#include "svsm/plat.h"
#include "svsm/std.h"

#include "abi/fw_cfg.h"
#include "abi/ghcb.h"

#include "../ghcb.h"
#include "../snp_main.h"

/* QEMU offers a few dozen files; more is a host wasting boot time. */
#define FW_CFG_DIR_MAX 1024u
#define SCRIPT_FILE "etc/table-loader"
/* 128 commands; QEMU's q35 script is 20, padded to 4 KiB. */
#define SCRIPT_ORDER 2u
#define SCRIPT_MAX (SNP_PAGE_SIZE << SCRIPT_ORDER)
/* The tables are linked in SVSM memory first: at most 1 MiB of them. */
#define STAGE_MAX_ORDER 8u

struct fw_cfg {
	struct ghcb_cpu *g;
	uint64_t bytes; /* read from the data port, for the log */
	uint64_t exits; /* IOIO events for them */
	bool bytewise;	/* the hypervisor refused string input */
};

static void fw_cfg_select(struct fw_cfg *f, uint16_t key)
{
	ghcb_io_out(f->g, FW_CFG_PORT_SEL, 2, key);
}

/*
 * @len bytes of the selected item: `rep insb` through the GHCB, 2 KiB an
 * exit, as KVM serves it; a hypervisor that refuses string input gets
 * one IN per byte from then on (slower, the same bytes).
 */
static void fw_cfg_read(struct fw_cfg *f, uint8_t *dst, size_t len)
{
	size_t done = 0;

	while (done < len && !f->bytewise) {
		size_t n = len - done < GHCB_SHARED_BUFFER_SIZE
				   ? len - done
				   : GHCB_SHARED_BUFFER_SIZE;

		f->exits++;
		if (!ghcb_io_ins8(f->g, FW_CFG_PORT_DATA, dst + done, n)) {
			LOG_NOTICE("acpi: the host refuses string input: "
				   "fw_cfg byte by byte");
			f->bytewise = true;
			break;
		}
		done += n;
	}
	for (; done < len; done++) {
		f->exits++;
		dst[done] = (uint8_t)ghcb_io_in(f->g, FW_CFG_PORT_DATA, 1);
	}
	f->bytes += len;
}

static uint32_t be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
	       ((uint32_t)p[2] << 8) | p[3];
}

static bool fw_cfg_present(struct fw_cfg *f)
{
	uint8_t sig[4];

	fw_cfg_select(f, FW_CFG_SIGNATURE);
	fw_cfg_read(f, sig, sizeof(sig));
	return memcmp(sig, "QEMU", sizeof(sig)) == 0;
}

/* The directory entry of @name: its key and size; false if none. */
static bool fw_cfg_find(struct fw_cfg *f, const char *name, uint16_t *key,
			uint32_t *size)
{
	uint8_t e[sizeof(struct fw_cfg_file)];
	size_t n = 0;
	uint32_t count, i;

	while (n < ACPI_LOADER_NAME_SIZE && name[n] != '\0') {
		n++;
	}
	CHECK(n < ACPI_LOADER_NAME_SIZE);
	fw_cfg_select(f, FW_CFG_FILE_DIR);
	fw_cfg_read(f, e, 4);
	count = be32(e);
	for (i = 0; i < count && i < FW_CFG_DIR_MAX; i++) {
		fw_cfg_read(f, e, sizeof(e));
		/* Our name and its NUL: an entry without a NUL never
		 * matches, and nothing past the entry is compared. */
		if (memcmp(e + offsetof(struct fw_cfg_file, name), name,
			   n + 1) == 0) {
			*size = be32(e);
			*key = (uint16_t)((e[4] << 8) | e[5]);
			return true;
		}
	}
	return false;
}

static bool fw_cfg_fetch(void *ctx, const char *name, uint8_t *dst, size_t max,
			 size_t *len)
{
	struct fw_cfg *f = ctx;
	uint16_t key = 0;
	uint32_t size = 0;

	if (!fw_cfg_find(f, name, &key, &size) || size > max) {
		LOG_NOTICE("acpi: fw_cfg file %s missing or over %lu bytes",
			   name, (unsigned long)max);
		return false;
	}
	fw_cfg_select(f, key);
	fw_cfg_read(f, dst, size);
	*len = size;
	return true;
}

static unsigned order_for(uint64_t bytes)
{
	unsigned order = 0;

	while (order < STAGE_MAX_ORDER && (SNP_PAGE_SIZE << order) < bytes) {
		order++;
	}
	return order;
}

/* Copy the linked tables out (rest of the region zero), or zero it all. */
static bool region_write(uint64_t base, uint64_t size, const uint8_t *stage,
			 size_t used)
{
	enum svsm_err err = SVSM_OK;

	owner_lock();
	if (used != 0) {
		err = guestmem_write(gpa_init(base), stage, used);
	}
	if (err == SVSM_OK && size > used) {
		err = guestmem_zero(gpa_init(base + used), size - used);
	}
	owner_unlock();
	return err == SVSM_OK;
}

uint64_t snp_acpi_load(uint64_t base, uint64_t size)
{
	struct fw_cfg f = {.g = snp_this_ghcb()};
	struct acpi_loader_ops ops = {fw_cfg_fetch, &f};
	struct acpi_loader_result res = {0};
	uint8_t *script = NULL, *stage = NULL;
	size_t script_len = 0, stage_len;
	unsigned order = order_for(size);
	uint64_t t0 = plat_clock_ns(), rsdp = 0;
	const char *why = NULL;

	stage_len = (size_t)SNP_PAGE_SIZE << order;
	if (stage_len > size) {
		stage_len = (size_t)size;
	}
	if (size == 0 || base + size < base) {
		why = "empty or wrapping region";
	} else if (!fw_cfg_present(&f)) {
		why = "no fw_cfg (signature is not QEMU)";
	} else {
		script = page_alloc(SCRIPT_ORDER);
		stage = page_alloc(order);
		if (script == NULL || stage == NULL) {
			why = "no heap for the script and tables";
		} else if (!fw_cfg_fetch(&f, SCRIPT_FILE, script, SCRIPT_MAX,
					 &script_len)) {
			why = "no " SCRIPT_FILE " (or too long)";
		} else {
			why = acpi_loader_run(script, script_len, &ops, stage,
					      base, stage_len, &res);
		}
	}
	if (why == NULL && !region_write(base, size, stage, res.used)) {
		why = "the region is not guest RAM the SVSM may write";
	}
	if (why == NULL) {
		rsdp = res.rsdp_gpa;
		if (res.write_pointers != 0 || res.unknown != 0) {
			/* WRITE_POINTER would write a GPA back into fw_cfg,
			 * which the SVSM never does (acpi_loader.c). */
			LOG_NOTICE("acpi: %u WRITE_POINTER and %u unknown "
				   "commands ignored",
				   res.write_pointers, res.unknown);
		}
		LOG_NOTICE("acpi: QEMU's tables at 0x%llx (%lu bytes, %u files,"
			   " %u pointers, %u checksums), RSDP 0x%llx; %llu "
			   "fw_cfg bytes in %llu exits, %llu us",
			   (unsigned long long)base, (unsigned long)res.used,
			   res.files, res.pointers, res.checksums,
			   (unsigned long long)rsdp,
			   (unsigned long long)f.bytes,
			   (unsigned long long)f.exits,
			   (unsigned long long)(plat_clock_ns() - t0) / 1000);
	} else {
		/* Hygiene, not safety: no half-linked or host-chosen bytes. */
		if (size != 0 && base + size > base) {
			(void)region_write(base, size, NULL, 0);
		}
		LOG_NOTICE("acpi: no ACPI tables for the guest: %s", why);
	}
	if (stage != NULL) {
		page_free(stage);
	}
	if (script != NULL) {
		page_free(script);
	}
	return rsdp;
}
