/* SPDX-License-Identifier: MIT */
#include "hv_kvmclock.h"

#include "svsm/std.h"

#include "model/snpmodel.h"

#include "arch.h"
#include "hw/rmp.h"
#include "machine/chipset.h"
#include "machine/lapic.h"

#define SYSTEM_TIME_ENABLE 1ull
#define PVCLOCK_TSC_STABLE 1u
#define NSEC_PER_SEC 1000000000ull

/* Linux's struct pvclock_vcpu_time_info and pvclock_wall_clock: packed
 * there, naturally aligned here with the same layout (asserted). */
struct pvclock_time {
	uint32_t version;
	uint32_t pad0;
	uint64_t tsc_timestamp;
	uint64_t system_time;
	uint32_t tsc_to_system_mul;
	int8_t tsc_shift;
	uint8_t flags;
	uint8_t pad[2];
};
_Static_assert(sizeof(struct pvclock_time) == 32 &&
		       __builtin_offsetof(struct pvclock_time, tsc_shift) == 28,
	       "pvclock_vcpu_time_info");

struct pvclock_wall {
	uint32_t version;
	uint32_t sec;
	uint32_t nsec;
};
_Static_assert(sizeof(struct pvclock_wall) == 12, "pvclock_wall_clock");

/* The clock's zero (system_time 0) as a TSC value and as wall time. */
static uint64_t zero_tsc, zero_wall_sec;
static uint64_t tsc_khz;
static uint32_t scale_mul;
static int8_t scale_shift;

/* ns = ((tsc << shift) * mul) >> 32, shift negative for a right shift,
 * mul in [2^31, 2^32): KVM's kvm_get_time_scale() in this machine's own
 * words, which Linux's pvclock_tsc_khz() inverts into the TSC's rate. */
void hv_kvmclock_init(void)
{
	uint64_t f;

	tsc_khz = lapic_tsc_khz();
	f = tsc_khz * 1000u;
	scale_shift = 0;
	while (f > 2 * NSEC_PER_SEC) {
		f >>= 1;
		scale_shift--;
	}
	while (f <= NSEC_PER_SEC) {
		f <<= 1;
		scale_shift++;
	}
	scale_mul = (uint32_t)((NSEC_PER_SEC << 32) / f);
	zero_wall_sec = chipset_rtc_seconds();
	zero_tsc = rdtsc();
}

static uint64_t ns_since_zero(uint64_t tsc)
{
	uint64_t d = tsc - zero_tsc;

	return d / tsc_khz * 1000000u + d % tsc_khz * 1000000u / tsc_khz;
}

/* Take rmp_lock and return the struct of @len bytes at @gpa if it lies in
 * one shared page of guest RAM; else drop the lock, say so and return
 * NULL. The caller writes it and drops the lock. */
static void *shared_open(unsigned cpu, uint64_t gpa, uint64_t len,
			 const char *what)
{
	uint64_t page = gpa & ~(uint64_t)(PAGE - 1);

	rmp_lock();
	if (gpa < guest_ram_size && (gpa & (PAGE - 1)) <= PAGE - len &&
	    rmp_check_shared_access(&machine_rmp, page) == RMP_ACCESS_OK) {
		return guest_ptr(gpa, len);
	}
	rmp_unlock();
	mlog("emu: kvmclock: vCPU %u's %s at 0x%llx is not in a shared page; "
	     "not written",
	     cpu, what, (unsigned long long)gpa);
	return NULL;
}

/* The version, odd while the fields change (the guest retries), even
 * after. */
static uint32_t version_odd(uint32_t *version)
{
	uint32_t v = (__atomic_load_n(version, __ATOMIC_RELAXED) + 1u) | 1u;

	__atomic_store_n(version, v, __ATOMIC_RELEASE);
	return v;
}

static void write_time(unsigned cpu, uint64_t gpa)
{
	struct pvclock_time *t = shared_open(cpu, gpa, sizeof(*t), "time");
	uint64_t tsc = rdtsc();
	uint32_t version;

	if (t == NULL) {
		return;
	}
	version = version_odd(&t->version);
	t->tsc_timestamp = tsc;
	t->system_time = ns_since_zero(tsc);
	t->tsc_to_system_mul = scale_mul;
	t->tsc_shift = scale_shift;
	t->flags = PVCLOCK_TSC_STABLE;
	__atomic_store_n(&t->version, version + 1u, __ATOMIC_RELEASE);
	rmp_unlock();
}

static void write_wall(unsigned cpu, uint64_t gpa)
{
	struct pvclock_wall *w =
		shared_open(cpu, gpa, sizeof(*w), "wall clock");
	uint32_t version;

	if (w == NULL) {
		return;
	}
	version = version_odd(&w->version);
	w->sec = (uint32_t)zero_wall_sec;
	w->nsec = 0;
	__atomic_store_n(&w->version, version + 1u, __ATOMIC_RELEASE);
	rmp_unlock();
}

bool hv_kvmclock_msr(struct hv_vcpu *c, bool write, uint32_t msr, uint64_t *val)
{
	uint64_t *reg;

	if (msr == MSR_KVM_SYSTEM_TIME_NEW) {
		reg = &c->kvmclock_system_time;
	} else if (msr == MSR_KVM_WALL_CLOCK_NEW) {
		reg = &c->kvmclock_wall_clock;
	} else {
		return false;
	}
	if (!write) {
		*val = *reg;
		return true;
	}
	*reg = *val;
	if (msr == MSR_KVM_WALL_CLOCK_NEW) {
		write_wall(c->index, *val);
	} else if ((*val & SYSTEM_TIME_ENABLE) != 0) {
		write_time(c->index, *val & ~SYSTEM_TIME_ENABLE);
	}
	return true;
}
