/* SPDX-License-Identifier: MIT */
#include "host.h"

#include "svsm/log.h"
#include "svsm/memmap.h"

#include "arch.h"
#include "lapic.h"
#include "layout.h"
#include "smp.h"

#define AP_STOP 1ull /* start_vmsa value meaning "destroy" (not aligned) */

void host_interrupt(struct emu_cpu *cpu)
{
	(void)cpu;
	/* The IPI handler runs (EOI) in the one-instruction window. */
	__asm__ volatile("sti; nop; cli" ::: "memory");
}

void host_idle(struct emu_cpu *cpu)
{
	__asm__ volatile("cli" ::: "memory");
	if (__atomic_load_n(&cpu->start_vmsa, __ATOMIC_ACQUIRE) == 0) {
		/* STI's shadow covers HLT: no wake-up is lost in between. */
		__asm__ volatile("sti; hlt; cli" ::: "memory");
	}
}

void host_poll_requests(struct emu_cpu *cpu)
{
	uint64_t req =
		__atomic_exchange_n(&cpu->start_vmsa, 0, __ATOMIC_ACQ_REL);

	if (req == 0) {
		return;
	}
	if (req == AP_STOP) {
		emu_vcpu_unload(cpu);
		return;
	}
	if (emu_vcpu_load(cpu, req)) {
		LOG_INFO("host: CPU %u runs vCPU %llx", cpu->index,
			 (unsigned long long)req);
	}
}

void host_hlt(struct emu_cpu *cpu, struct emu_vcpu *v)
{
	LOG_INFO("host: vCPU %llx on CPU %u halted",
		 (unsigned long long)v->vmsa_gpa, cpu->index);
	v->vmsa->rip += 1;
	emu_vcpu_unload(cpu);
}

/* As QEMU does for a triple fault with -no-reboot: the VM is over. */
void host_guest_shutdown(struct emu_cpu *cpu, struct emu_vcpu *v,
			 const char *why)
{
	LOG_NOTICE("host: vCPU %llx on CPU %u: %s at RIP %llx",
		   (unsigned long long)v->vmsa_gpa, cpu->index, why,
		   (unsigned long long)v->vmsa->rip);
	emu_vcpu_unload(cpu);
	outb(EMU_EXIT_PORT, EMU_EXIT_GUEST_TERM);
	halt_forever();
}

void host_guest_terminate(uint32_t set, uint32_t code)
{
	LOG_NOTICE("host: the guest asked to terminate (set %u, code %u)", set,
		   code);
	outb(EMU_EXIT_PORT, EMU_EXIT_GUEST_TERM);
	halt_forever();
}

/*
 * KVM's checks: a known APIC ID, a page-aligned VMSA in guest RAM. Whether
 * it is a runnable VMSA is the hardware's VMRUN check, made when the
 * target CPU loads it. A CPU does not create its own vCPU anew.
 */
uint64_t host_ap_creation(struct emu_cpu *cpu, uint32_t request,
			  uint32_t apic_id, uint64_t vmsa_gpa)
{
	struct emu_cpu *target = emu_cpu_by_apic(apic_id);
	uint64_t post;

	if (target == NULL || target == cpu) {
		return 1;
	}
	switch (request) {
	case AP_CREATE:
	case AP_CREATE_ON_INIT:
		if ((vmsa_gpa & 0xFFF) != 0 ||
		    !memmap_is_guest_ram(gpa_init(vmsa_gpa), 4096)) {
			return 1;
		}
		post = vmsa_gpa;
		break;
	case AP_DESTROY:
		post = AP_STOP;
		break;
	default:
		return 1;
	}
	__atomic_store_n(&target->start_vmsa, post, __ATOMIC_RELEASE);
	lapic_send_ipi(target->apic_id, EMU_VEC_WAKEUP);
	return 0;
}
