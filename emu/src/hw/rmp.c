/* SPDX-License-Identifier: MIT */
#include "rmp.h"

#include "arch.h"
#include "machine/lapic.h"
#include "machine/layout.h"
#include "machine/machine.h"
#include "mcpu.h"
#include "memcrypt.h"
#include "npt.h"

struct rmp machine_rmp;
static struct spinlock lock;
static uint64_t flush_gen;

void rmp_setup(const struct guest_mem_plan *plan)
{
	uint64_t pages = (plan->ram + plan->ram_high) / PAGE;
	uint64_t bytes;
	unsigned i;

	for (i = 0; i < plan->windows; i++) {
		pages += plan->window[i].pages;
	}
	bytes = pages * sizeof(struct rmp_entry);
	rmp_init(&machine_rmp, mm_alloc_pages((bytes + PAGE - 1) / PAGE),
		 plan->ram / PAGE);
	if (plan->ram_high != 0) {
		MCHECK(rmp_add_bank(&machine_rmp, GUEST_MEM_HIGH,
				    plan->ram_high / PAGE));
	}
	for (i = 0; i < plan->windows; i++) {
		MCHECK(rmp_add_bank(&machine_rmp, plan->window[i].gpa,
				    plan->window[i].pages));
	}
	memcrypt_setup(&machine_rmp, pages);
	rmp_lock();
	npt_init(&machine_rmp);
	rmp_unlock();
}

void rmp_lock(void)
{
	spin_lock(&lock);
}

void rmp_unlock(void)
{
	spin_unlock(&lock);
}

void rmp_changed(uint64_t gpa, uint64_t len)
{
	npt_sync(&machine_rmp, gpa, len);
}

void rmp_commit(uint64_t gpa, uint64_t len, bool revoked)
{
	rmp_changed(gpa, len);
	rmp_unlock();
	if (revoked) {
		rmp_flush_tlbs();
	}
}

uint64_t rmp_flush_gen(void)
{
	return __atomic_load_n(&flush_gen, __ATOMIC_ACQUIRE);
}

void rmp_flush_tlbs(void)
{
	struct mcpu *self = mcpu_this();
	uint64_t gen = __atomic_add_fetch(&flush_gen, 1, __ATOMIC_SEQ_CST);
	unsigned i, n = mcpu_count();

	for (i = 0; i < n; i++) {
		struct mcpu *c = mcpu_by_apic(i);

		if (c != self &&
		    __atomic_load_n(&c->in_guest, __ATOMIC_SEQ_CST)) {
			lapic_send_ipi(c->apic_id, MACHINE_VEC_WAKEUP);
		}
	}
	for (i = 0; i < n; i++) {
		struct mcpu *c = mcpu_by_apic(i);

		while (c != self &&
		       __atomic_load_n(&c->in_guest, __ATOMIC_SEQ_CST) &&
		       __atomic_load_n(&c->flush_gen_seen, __ATOMIC_SEQ_CST) <
			       gen) {
			cpu_relax();
		}
	}
}

void *guest_ptr(uint64_t gpa, uint64_t len)
{
	uint64_t index;

	gpa &= ~MACHINE_C_MASK;
	if (!rmp_backed(&machine_rmp, gpa, len) ||
	    !rmp_index(&machine_rmp, gpa, &index)) {
		return NULL;
	}
	/* A bank's pages are consecutive in the RMP and in host memory. */
	return (void *)(MACHINE_GUEST_BASE + index * PAGE + gpa % PAGE);
}
