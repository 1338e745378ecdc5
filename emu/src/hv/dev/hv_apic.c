/* SPDX-License-Identifier: MIT */
#include "hv_apic.h"

#include "svsm/std.h"

#include "arch.h"
#include "hv_apic_regs.h"
#include "machine/lapic.h"

/* x2APIC MSRs (0x800 + xAPIC offset / 16). */
#define X_ID 0x802u
#define X_VERSION 0x803u
#define X_TPR 0x808u
#define X_PPR 0x80Au
#define X_EOI 0x80Bu
#define X_LDR 0x80Du
#define X_SVR 0x80Fu
#define X_ISR0 0x810u
#define X_TMR0 0x818u
#define X_IRR0 0x820u
#define X_ESR 0x828u
#define X_LVT_CMCI 0x82Fu
#define X_ICR 0x830u
#define X_LVT_TIMER 0x832u
#define X_LVT_ERROR 0x837u
#define X_TMICT 0x838u
#define X_TMCCT 0x839u
#define X_TDCR 0x83Eu
#define X_SELF_IPI 0x83Fu

/* KVM's: version 0x14, six LVT entries (max LVT index 5, CMCI extra). */
#define APIC_VERSION (0x14u | (5u << 16))
#define SVR_ENABLE (1u << 8)
#define LVT_MASKED (1u << 16)
#define LVT_MODE_SHIFT 17u
#define TIMER_ONESHOT 0u
#define TIMER_PERIODIC 1u
#define TIMER_DEADLINE 2u
#define ICR_MODE(icr) (((icr) >> 8) & 7u)
#define ICR_LOGICAL (1ull << 11)
#define ICR_SHORTHAND(icr) (((icr) >> 18) & 3u)
#define MODE_FIXED 0u
#define MODE_LOWEST 1u
#define MODE_NMI 4u
#define MODE_INIT 5u
#define MODE_SIPI 6u
#define DEST_BROADCAST 0xFFFFFFFFu
/* KVM's X2APIC_ICR_RESERVED_BITS: a write with any of them is #GP. */
#define ICR_RESERVED (0xFFF00000ull | 0x30000ull | 0x2000ull)
/* KVM keeps a periodic timer's period at 200 us or more. */
#define MIN_PERIOD_NS 200000ull

static unsigned apic_count;
static bool told_mode; /* an undelivered IPI mode was logged */

void hv_apic_init(unsigned ncpus)
{
	unsigned i, j;

	apic_count = ncpus;
	for (i = 0; i < ncpus; i++) {
		struct vapic *a = &hv_vcpu_at(i)->apic;
		uint32_t id = hv_vcpu_at(i)->apic_id;

		memset(a, 0, sizeof(*a));
		a->id = id;
		/* x2APIC logical ID: cluster (ID / 16), bit (ID % 16). */
		a->ldr = ((id >> 4) << 16) | (1u << (id & 0xFu));
		a->svr = 0xFFu; /* software-disabled */
		a->mode = APIC_X2APIC;
		a->dfr = 0xFFFFFFFFu;
		for (j = 0; j < LVT_COUNT; j++) {
			a->lvt[j] = LVT_MASKED;
		}
	}
}

/* KVM's kvm_lapic_reset(vcpu, init_event = true), which AP Creation
 * runs on the target vCPU (kvm_vcpu_reset): the mode (APIC_BASE) and
 * the ID stay; the timer stops; every LVT is masked; TPR, ESR, ICR,
 * TDCR, TMICT, IRR, ISR and TMR are 0; SVR 0xFF (software-disabled);
 * xAPIC mode's DFR all ones and logical ID 0. */
static void init_event(struct vapic *a)
{
	unsigned j;

	a->timer.expiry = 0;
	a->timer.period = 0;
	a->deadline = 0;
	a->timer.start = 0;
	for (j = 0; j < LVT_COUNT; j++) {
		a->lvt[j] = LVT_MASKED;
	}
	a->dfr = 0xFFFFFFFFu;
	a->svr = 0xFFu;
	a->tpr = 0;
	if (a->mode != APIC_X2APIC) {
		a->ldr_x = 0;
	}
	a->esr = 0;
	a->icr = 0;
	a->tdcr = 0;
	a->tmict = 0;
	for (j = 0; j < 8; j++) {
		__atomic_store_n(&a->irr[j], 0, __ATOMIC_RELEASE);
		a->isr[j] = 0;
	}
}

void hv_apic_init_event(struct hv_vcpu *target)
{
	__atomic_store_n(&target->apic.init_pending, true, __ATOMIC_RELEASE);
}

/* @c's own APIC, on @c: a pending INIT event is applied first (KVM
 * handles the request on the target vCPU before it runs again). */
static struct vapic *apic_of(struct hv_vcpu *c)
{
	struct vapic *a = &c->apic;

	if (__atomic_load_n(&a->init_pending, __ATOMIC_ACQUIRE) &&
	    __atomic_exchange_n(&a->init_pending, false, __ATOMIC_ACQ_REL)) {
		init_event(a);
	}
	return a;
}

static bool enabled(const struct vapic *a)
{
	return (a->svr & SVR_ENABLE) != 0;
}

/* The highest vector set in an 8-word bitmap, or -1. */
static int highest(const uint32_t *bits, bool atomic)
{
	int w;

	for (w = 7; w >= 0; w--) {
		uint32_t v =
			atomic ? __atomic_load_n(&bits[w], __ATOMIC_ACQUIRE)
			       : bits[w];

		if (v != 0) {
			return w * 32 + 31 - __builtin_clz(v);
		}
	}
	return -1;
}

static uint32_t ppr(const struct vapic *a)
{
	int isr = highest(a->isr, false);
	uint32_t isrv = isr < 0 ? 0 : (uint32_t)isr & 0xF0u;

	return (a->tpr & 0xF0u) >= isrv ? a->tpr & 0xFFu : isrv;
}

/* The vector the APIC would deliver now, or -1. */
static int deliverable(const struct vapic *a)
{
	int irr = highest(a->irr, true);

	if (!enabled(a) || irr < 0 ||
	    ((uint32_t)irr & 0xF0u) <= (ppr(a) & 0xF0u)) {
		return -1;
	}
	return irr;
}

/* Set @vector pending in vCPU @i's APIC and kick its CPU. Vectors 0-15
 * are illegal (KVM sets ESR's "received illegal vector" and drops). */
static void accept(unsigned i, unsigned vector)
{
	struct vapic *a = &hv_vcpu_at(i)->apic;
	struct hv_vcpu *c = hv_vcpu_by_apic(a->id);

	if (vector < 16 || !enabled(a)) {
		return;
	}
	__atomic_fetch_or(&a->irr[vector / 32], 1u << (vector % 32),
			  __ATOMIC_RELEASE);
	if (c != NULL && c != hv_vcpu_this()) {
		lapic_send_ipi(c->apic_id, MACHINE_VEC_WAKEUP);
	}
}

/* An xAPIC-format (8-bit) destination: physical ID or 0xFF, or logical
 * in the flat or cluster model of the target's DFR. */
static bool dest_match8(const struct vapic *a, uint8_t dest, bool logical)
{
	uint8_t ldr = (uint8_t)(a->ldr_x >> 24);

	if (dest == 0xFFu) {
		return true;
	}
	if (!logical) {
		return dest == a->id;
	}
	if ((a->dfr >> 28) == 0xFu) { /* flat */
		return (dest & ldr) != 0;
	}
	return (dest >> 4) == (ldr >> 4) && (dest & ldr & 0xFu) != 0;
}

static bool dest_match(const struct vapic *a, uint32_t dest, bool logical)
{
	if (a->mode == APIC_XAPIC) {
		return dest_match8(
			a, (uint8_t)(dest == DEST_BROADCAST ? 0xFFu : dest),
			logical);
	}
	if (!logical) {
		return dest == DEST_BROADCAST || dest == a->id;
	}
	if (dest == DEST_BROADCAST) {
		return true;
	}
	/* x2APIC cluster mode: same cluster, and the bit is in the mask. */
	return (dest >> 16) == (a->ldr >> 16) && (dest & a->ldr & 0xFFFFu) != 0;
}

/* A write of the ICR: under SNP vCPUs start through AP Creation, so INIT
 * and SIPI do nothing (as for KVM's protected guests); NMIs are not
 * delivered (the model has no NMI Complete yet). */
static void send_ipi(struct hv_vcpu *c, uint64_t icr)
{
	unsigned mode = ICR_MODE(icr), vector = (unsigned)icr & 0xFFu;
	uint32_t dest = (uint32_t)(icr >> 32);
	unsigned i;

	if (apic_of(c)->mode == APIC_XAPIC) { /* ICR[63:56], 8 bits */
		dest = (dest >> 24) == 0xFFu ? DEST_BROADCAST : dest >> 24;
	}

	if (mode != MODE_FIXED && mode != MODE_LOWEST) {
		if (mode != MODE_INIT && mode != MODE_SIPI &&
		    !__atomic_exchange_n(&told_mode, true, __ATOMIC_RELAXED)) {
			mlog("vCPU %u: IPI delivery mode %u not delivered "
			     "(said once)",
			     c->index, mode);
		}
		return;
	}
	for (i = 0; i < apic_count; i++) {
		bool self = i == c->index, hit;

		switch (ICR_SHORTHAND(icr)) {
		case 1:
			hit = self;
			break;
		case 2:
			hit = true;
			break;
		case 3:
			hit = !self;
			break;
		default:
			hit = dest_match(&hv_vcpu_at(i)->apic, dest,
					 (icr & ICR_LOGICAL) != 0);
			break;
		}
		if (hit) {
			accept(i, vector);
		}
	}
}

void hv_apic_deliver(uint8_t dest, bool logical, unsigned vector)
{
	/* An xAPIC-format destination in x2APIC terms: 0xFF is everyone, a
	 * logical bitmap names cluster 0. */
	uint32_t d = dest == 0xFFu ? DEST_BROADCAST : dest;
	unsigned i;

	for (i = 0; i < apic_count; i++) {
		if (dest_match(&hv_vcpu_at(i)->apic, d, logical)) {
			accept(i, vector);
		}
	}
}

static unsigned timer_mode(const struct vapic *a)
{
	return (a->lvt[1] >> LVT_MODE_SHIFT) & 3u;
}

/* The divide configuration as a divisor (1..128). */
static uint64_t divisor(const struct vapic *a)
{
	uint32_t v = (a->tdcr & 3u) | ((a->tdcr & 8u) >> 1);

	return v == 7 ? 1 : 2ull << v;
}

/* Nanoseconds of the APIC bus (KVM's 1 GHz) as TSC cycles. */
static uint64_t ns_to_tsc(uint64_t ns)
{
	uint64_t khz = lapic_tsc_khz();

	if (ns > UINT64_MAX / khz) {
		return UINT64_MAX / 2;
	}
	return ns * khz / 1000000ull;
}

static void timer_rearm(struct vapic *a)
{
	uint64_t now = rdtsc(), tick = a->timer.host_tick, delta;

	if (a->timer.expiry == 0) {
		if (tick != 0) {
			lapic_timer_arm(tick);
		} else {
			lapic_timer_stop();
		}
		return;
	}
	delta = a->timer.expiry > now ? a->timer.expiry - now : 0;
	lapic_timer_arm(tick != 0 && delta > tick ? tick : delta);
}

/* TMICT written, or the mode changed: start the count-down timer. */
static void timer_start(struct vapic *a)
{
	uint64_t ns = (uint64_t)a->tmict * divisor(a);

	a->timer.expiry = 0;
	a->timer.period = 0;
	if (timer_mode(a) == TIMER_DEADLINE || a->tmict == 0) {
		return;
	}
	if (timer_mode(a) == TIMER_PERIODIC) {
		if (ns < MIN_PERIOD_NS) {
			ns = MIN_PERIOD_NS;
		}
		a->timer.period = ns_to_tsc(ns);
	}
	a->timer.start = rdtsc();
	a->timer.expiry = a->timer.start + ns_to_tsc(ns);
	if (a->timer.expiry == 0) {
		a->timer.expiry = 1;
	}
}

static uint32_t timer_current(const struct vapic *a)
{
	uint64_t now = rdtsc(), left_ns, khz = lapic_tsc_khz();

	if (a->timer.expiry == 0 || timer_mode(a) == TIMER_DEADLINE ||
	    now >= a->timer.expiry) {
		return 0;
	}
	/* No overflow: the TSC left is below 2^50 (2^39 ns at most). */
	left_ns = (a->timer.expiry - now) / khz * 1000000ull +
		  (a->timer.expiry - now) % khz * 1000000ull / khz;
	left_ns /= divisor(a);
	return left_ns > a->tmict ? a->tmict : (uint32_t)left_ns;
}

void hv_apic_poll(struct hv_vcpu *c, uint64_t tick)
{
	struct vapic *a = apic_of(c);
	uint64_t now;

	a->timer.host_tick = tick;
	if (a->timer.expiry == 0) {
		if (tick != 0) {
			timer_rearm(a);
		}
		return;
	}
	now = rdtsc();
	if (now < a->timer.expiry) {
		timer_rearm(a);
		return;
	}
	if ((a->lvt[1] & LVT_MASKED) == 0) {
		accept(c->index, a->lvt[1] & 0xFFu);
	}
	if (a->timer.period != 0) {
		a->timer.expiry += a->timer.period;
		if (a->timer.expiry <= now) { /* missed ticks coalesce */
			a->timer.expiry = now + a->timer.period;
		}
	} else {
		a->timer.expiry = 0;
		a->deadline = 0;
	}
	timer_rearm(a);
}

int hv_apic_pending(struct hv_vcpu *c)
{
	return deliverable(apic_of(c));
}

void hv_apic_accept(struct hv_vcpu *c, unsigned vector)
{
	struct vapic *a = apic_of(c);

	__atomic_fetch_and(&a->irr[vector / 32], ~(1u << (vector % 32)),
			   __ATOMIC_ACQ_REL);
	a->isr[vector / 32] |= 1u << (vector % 32);
}

static void eoi(struct vapic *a)
{
	int v = highest(a->isr, false);

	if (v >= 0) {
		a->isr[v / 32] &= ~(1u << (v % 32));
	}
}

static bool lvt_write(struct vapic *a, unsigned idx, uint64_t val)
{
	/* Vector, delivery mode, mask, and for the timer its mode. */
	uint32_t mask = idx == 1 ? 0x000700FFu : 0x000107FFu;
	unsigned old_mode = timer_mode(a);

	if ((val >> 32) != 0) {
		return false;
	}
	if (!enabled(a)) {
		val |= LVT_MASKED; /* a disabled APIC keeps its LVTs masked */
	}
	a->lvt[idx] = ((uint32_t)val & mask) | ((uint32_t)val & LVT_MASKED);
	if (idx == 1 && timer_mode(a) != old_mode) {
		a->tmict = 0; /* a mode change stops the timer */
		a->deadline = 0;
		a->timer.expiry = 0;
		a->timer.period = 0;
	}
	return true;
}

static bool apic_read(struct vapic *a, uint32_t msr, uint64_t *val)
{
	switch (msr) {
	case X_ID:
		*val = a->id;
		return true;
	case X_VERSION:
		*val = APIC_VERSION;
		return true;
	case X_TPR:
		*val = a->tpr;
		return true;
	case X_PPR:
		*val = ppr(a);
		return true;
	case X_LDR:
		*val = a->ldr;
		return true;
	case X_SVR:
		*val = a->svr;
		return true;
	case X_ESR:
		*val = a->esr;
		return true;
	case X_ICR:
		*val = a->icr;
		return true;
	case X_LVT_CMCI:
		*val = a->lvt[0];
		return true;
	case X_TMICT:
		*val = a->tmict;
		return true;
	case X_TMCCT:
		*val = timer_current(a);
		return true;
	case X_TDCR:
		*val = a->tdcr;
		return true;
	default:
		break;
	}
	if (msr >= X_LVT_TIMER && msr <= X_LVT_ERROR) {
		*val = a->lvt[1 + msr - X_LVT_TIMER];
		return true;
	}
	if (msr >= X_ISR0 && msr < X_ISR0 + 8) {
		*val = a->isr[msr - X_ISR0];
		return true;
	}
	if (msr >= X_TMR0 && msr < X_TMR0 + 8) {
		*val = 0; /* edge-triggered only */
		return true;
	}
	if (msr >= X_IRR0 && msr < X_IRR0 + 8) {
		*val = __atomic_load_n(&a->irr[msr - X_IRR0], __ATOMIC_ACQUIRE);
		return true;
	}
	return false; /* EOI, SELF_IPI (write-only), reserved */
}

static bool apic_write(struct hv_vcpu *c, struct vapic *a, uint32_t msr,
		       uint64_t val)
{
	/* Every x2APIC register but the ICR is 32 bits: KVM #GPs a write
	 * with the upper half set. */
	if (msr != X_ICR && (val >> 32) != 0) {
		return false;
	}
	switch (msr) {
	case X_TPR:
		a->tpr = (uint32_t)val & 0xFFu;
		return true;
	case X_EOI:
		if (val != 0) {
			return false;
		}
		eoi(a);
		return true;
	case X_SVR: {
		unsigned i;

		a->svr = (uint32_t)val & 0x11FFu;
		if (!enabled(a)) {
			for (i = 0; i < LVT_COUNT; i++) {
				a->lvt[i] |= LVT_MASKED;
			}
		}
		return true;
	}
	case X_ESR:
		a->esr = 0;
		return true;
	case X_ICR:
		if ((val & ICR_RESERVED) != 0) {
			return false;
		}
		a->icr = val;
		send_ipi(c, val);
		return true;
	case X_LVT_CMCI:
		return lvt_write(a, 0, val);
	case X_TMICT:
		if (timer_mode(a) != TIMER_DEADLINE) {
			a->tmict = (uint32_t)val;
			timer_start(a);
			timer_rearm(a);
		}
		return true;
	case X_TDCR:
		a->tdcr = (uint32_t)val & 0xBu;
		return true;
	case X_SELF_IPI:
		if (val > 0xFF) {
			return false;
		}
		accept(c->index, (unsigned)val);
		return true;
	default:
		break;
	}
	if (msr >= X_LVT_TIMER && msr <= X_LVT_ERROR) {
		bool ok = lvt_write(a, 1 + msr - X_LVT_TIMER, val);

		timer_rearm(a);
		return ok;
	}
	return false; /* read-only or reserved: #GP */
}

bool hv_apic_msr(struct hv_vcpu *c, bool write, uint32_t msr, uint64_t *val)
{
	struct vapic *a = apic_of(c);

	if (a->mode == APIC_OFF ||
	    (a->mode != APIC_X2APIC && msr != MSR_TSC_DEADLINE)) {
		return false; /* KVM: the x2APIC MSRs need x2APIC mode */
	}
	if (msr == MSR_TSC_DEADLINE) {
		if (!write) {
			*val = timer_mode(a) == TIMER_DEADLINE ? a->deadline
							       : 0;
			return true;
		}
		if (timer_mode(a) == TIMER_DEADLINE) {
			a->deadline = *val;
			a->timer.period = 0;
			a->timer.expiry = *val; /* 0 disarms */
			timer_rearm(a);
		}
		return true;
	}
	if (msr < MSR_X2APIC_FIRST || msr > MSR_X2APIC_LAST) {
		return false;
	}
	return write ? apic_write(c, a, msr, *val) : apic_read(a, msr, val);
}

uint64_t hv_apic_base_mode(struct hv_vcpu *c)
{
	return (uint64_t)apic_of(c)->mode;
}

/* KVM's APIC_BASE transitions: x2APIC may only be left to disabled, and
 * entered only from xAPIC. */
bool hv_apic_set_mode(struct hv_vcpu *c, bool en, bool extd)
{
	struct vapic *a = apic_of(c);
	enum apic_mode to = !en ? APIC_OFF : extd ? APIC_X2APIC : APIC_XAPIC;

	if ((!en && extd) || (a->mode == APIC_X2APIC && to == APIC_XAPIC) ||
	    (a->mode == APIC_OFF && to == APIC_X2APIC)) {
		return false;
	}
	if (a->mode == APIC_OFF && to == APIC_XAPIC) {
		a->ldr_x = 0;
		a->dfr = 0xFFFFFFFFu;
	}
	a->mode = to;
	return true;
}

/* xAPIC MMIO: the same registers at offset / 16 + 0x800, but the ID, the
 * logical ID and model, the two halves of the ICR and EOI's value. */
bool hv_apic_mmio(struct hv_vcpu *c, uint32_t off, bool write, uint32_t *val)
{
	struct vapic *a = apic_of(c);
	uint32_t msr = MSR_X2APIC_FIRST + off / 16;
	uint64_t v = *val;

	if (a->mode != APIC_XAPIC || (off & 0xFu) != 0) {
		return false;
	}
	switch (msr) {
	case X_ID:
		if (!write) {
			*val = a->id << 24;
		}
		return true;
	case X_LDR:
		if (write) {
			a->ldr_x = *val & 0xFF000000u;
		} else {
			*val = a->ldr_x;
		}
		return true;
	case 0x80Eu: /* DFR */
		if (write) {
			a->dfr = *val | 0x0FFFFFFFu;
		} else {
			*val = a->dfr;
		}
		return true;
	case X_EOI:
		if (write) {
			eoi(a);
		}
		return true;
	case X_ICR:
		if (write) {
			a->icr = (a->icr & 0xFFFFFFFF00000000ull) | *val;
			send_ipi(c, a->icr & ~ICR_RESERVED);
		} else {
			*val = (uint32_t)a->icr;
		}
		return true;
	case X_ICR + 1: /* ICR high: the destination */
		if (write) {
			a->icr = (a->icr & 0xFFFFFFFFull) |
				 ((uint64_t)(*val & 0xFF000000u) << 32);
		} else {
			*val = (uint32_t)(a->icr >> 32);
		}
		return true;
	case X_SELF_IPI:
		return false; /* x2APIC only */
	default:
		break;
	}
	if (write) {
		return apic_write(c, a, msr, v);
	}
	if (!apic_read(a, msr, &v)) {
		return false;
	}
	*val = (uint32_t)v;
	return true;
}
