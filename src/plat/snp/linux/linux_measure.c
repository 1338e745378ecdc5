/* SPDX-License-Identifier: MIT */
/*
 * Measured boot as Linux's loader (docs/vtpm.md, "Measured boot and the
 * event log"): GRUB's scheme, since csvsm plays GRUB's part. PCR 9,
 * EV_IPL "csvsm:linux": the bzImage's bytes as the image carries them
 * (its protected-mode part), or EV_IPL "csvsm:vmlinux": the kernel
 * proper as loaded, for CSVSM_LINUX_ENTRY_STARTUP_64 (its segments at
 * their offsets, zero between them: the linux_kernel_size bytes);
 * PCR 9, EV_IPL "csvsm:initrd": the initrd's bytes (if any); PCR 8,
 * EV_IPL "kernel_cmdline: <line>" with its NUL: the line's bytes alone.
 * Nothing else is extended: PCRs 0-7 stay zero (no firmware ran; no
 * separator, no SVSM version event: the SNP report measures the SVSM).
 *
 * Threats: the bytes are launched pages (the PSP measured them, the host
 * cannot change them now: they are validated and the SVSM's until the
 * guest runs). A read that fails is the hypervisor's doing (terminate).
 * The vTPM is the SVSM's own: an extend it refuses is a broken invariant
 * and panics, so Linux never runs with PCRs that omit what it booted.
 */
#include "svsm/check.h"
#include "svsm/guestmem.h"
#include "svsm/log.h"
#include "svsm/owner_lock.h"
#include "svsm/plat.h"
#include "svsm/std.h"
#include "svsm/terminate.h"
#include "svsm/vtpm.h"

#include "abi/snp.h"

#include "../ghcb.h"
#include "linux_boot.h"

#define PAGE SNP_PAGE_SIZE
#define CHUNK (16 * PAGE)
#define PCR_CMDLINE 8u
#define PCR_FILES 9u
#define CMDLINE_PREFIX "kernel_cmdline: "
#define CMDLINE_PREFIX_LEN (sizeof(CMDLINE_PREFIX) - 1)

static uint8_t chunk[CHUNK];
static char event[CMDLINE_PREFIX_LEN + PAGE + 1];

static void read_guest(uint64_t gpa, void *dst, size_t len)
{
	enum svsm_err err;

	owner_lock();
	err = guestmem_read(gpa_init(gpa), dst, len);
	owner_unlock();
	if (err != SVSM_OK) {
		SNP_TERMINATE_HV(TERM_CSVSM_RMP_FAILURE,
				 "snp: Linux: reading 0x%llx to measure it "
				 "failed (%d)",
				 (unsigned long long)gpa, (int)err);
	}
}

static void must(enum svsm_err err, const char *what)
{
	if (err == SVSM_E_NOMEM) {
		SNP_TERMINATE_HV(TERM_CSVSM_BAD_BOOT_INFO,
				 "snp: Linux: %s does not fit the event log",
				 what);
	}
	if (err != SVSM_OK) {
		panic("snp: Linux: measuring %s failed (%d)", what, (int)err);
	}
}

/* Extend PCR 9 with the @size bytes at @gpa, logged as @name (@name_len
 * bytes with its NUL). */
static void measure_range(uint64_t gpa, uint64_t size, const char *name,
			  uint32_t name_len)
{
	uint64_t off;
	uint64_t t0 = plat_clock_ns();

	must(vtpm_measure_start(), name);
	for (off = 0; off < size; off += CHUNK) {
		size_t n = size - off < CHUNK ? (size_t)(size - off) : CHUNK;

		read_guest(gpa + off, chunk, n);
		must(vtpm_measure_update(chunk, n), name);
	}
	must(vtpm_measure_finish(PCR_FILES, VTPM_EV_IPL, name, name_len), name);
	/* Its share of the SVSM's boot, for scripts/bench-linux.sh. */
	LOG_INFO("snp: Linux: measured %s, %llu bytes in every PCR bank, "
		 "%llu us",
		 name, (unsigned long long)size,
		 (unsigned long long)(plat_clock_ns() - t0) / 1000);
}

size_t snp_linux_measure(const struct csvsm_boot_params *p, uint8_t *log,
			 size_t cap)
{
	size_t len;

	if (!vtpm_service_active()) {
		LOG_NOTICE("snp: Linux: no vTPM, nothing measured");
		return 0;
	}
	must(vtpm_measure_begin(log, cap), "the Spec ID event");
	if (p->linux_entry == CSVSM_LINUX_ENTRY_STARTUP_64) {
		measure_range(p->linux_kernel_gpa, p->linux_kernel_size,
			      "csvsm:vmlinux", sizeof("csvsm:vmlinux"));
	} else {
		measure_range(p->linux_kernel_gpa, p->linux_kernel_size,
			      "csvsm:linux", sizeof("csvsm:linux"));
	}
	if (p->linux_initrd_size != 0) {
		measure_range(p->linux_initrd_gpa, p->linux_initrd_size,
			      "csvsm:initrd", sizeof("csvsm:initrd"));
	}
	/* The line Linux reads: up to its NUL within cmdline_size (at
	 * most a page, linux_layout_check). */
	CHECK(p->linux_cmdline_size <= PAGE);
	read_guest(p->linux_cmdline_gpa, chunk, PAGE);
	for (len = 0; len < p->linux_cmdline_size && chunk[len] != 0; len++) {
	}
	memcpy(event, CMDLINE_PREFIX, CMDLINE_PREFIX_LEN);
	memcpy(event + CMDLINE_PREFIX_LEN, chunk, len);
	event[CMDLINE_PREFIX_LEN + len] = '\0';
	must(vtpm_measure_start(), "the command line");
	must(vtpm_measure_update(chunk, len), "the command line");
	must(vtpm_measure_finish(PCR_CMDLINE, VTPM_EV_IPL, event,
				 (uint32_t)(CMDLINE_PREFIX_LEN + len + 1)),
	     "the command line");
	LOG_INFO("snp: Linux: measured into PCRs 8 and 9, event log %zu "
		 "bytes",
		 vtpm_measure_log_len());
	return vtpm_measure_log_len();
}
