/* SPDX-License-Identifier: MIT */
/*
 * The test guest's boot vCPU: discovery, then every suite, then the
 * result through isa-debug-exit. APs run guest_ap_main (tests_vcpu.c).
 */
#include "guest.h"

const struct snp_secrets_page *g_secrets;
unsigned g_cpu_count;

void guest_idt_build(void);
void guest_main(const struct snp_secrets_page *secrets, unsigned cpus);

void guest_main(const struct snp_secrets_page *secrets, unsigned cpus)
{
	guest_idt_build();
	/* An SNP guest's first steps: the C-bit from the hypervisor's SEV
	 * information, the GHCBs' 2 MiB mapped shared; then the console
	 * works (its port I/O is a #VC served through a GHCB). */
	g_map_shared_2m(G_SHARED_BASE);
	g_secrets = secrets;
	g_cpu_count = cpus;
	g_print("[guest] csvsm emu test guest at VMPL1, %u CPUs, secrets page "
		"%llx\n",
		cpus, (unsigned long long)(uint64_t)secrets);
	tests_discovery();
	guest_end_if_asked();
	tests_faults();
	tests_pvalidate();
	tests_rmp_2m();
	tests_remap_ca();
	tests_memory();
	tests_hostile();
	tests_apic();
	tests_xsavec();
	tests_user();
	tests_cpuid();
	tests_vcpu();
	tests_vtpm();
	tests_attest();
	tests_dev();
	bench_world_switch();
	bench_attest();
	tests_crypt(); /* last: it leaves a page of the SVSM shared */
	g_exit(true);
}
