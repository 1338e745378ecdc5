/* SPDX-License-Identifier: MIT */
/*
 * The harness (sim/src/harness): what boots the SVSM on the simulated
 * machine, enters it as the hypervisor does, and plays the guest for the
 * tests (csvsm_sim.h). It calls the machine (sim/src/model) and the SVSM;
 * neither calls it back by name.
 */
#ifndef SIM_HARNESS_H
#define SIM_HARNESS_H

#include <stdbool.h>
#include <stdint.h>

#include "svsm/addr.h"

#include "../model/sim_machine.h"

/**
 * Run @fn(@arg) as SVSM code outside a guest call (boot, an injected
 * #HV): a termination ends it and returns false (the reason recorded).
 */
bool sim_svsm_call(struct sim_machine *m, void (*fn)(void *), void *arg);
/** Enter the SVSM on the CPU with @apic_id (one VMPL0 entry). */
void sim_enter_svsm(struct sim_machine *m, uint32_t apic_id);
/* sim_config.snp_ghcb: the SVSM boots and is entered as on snp. */
bool sim_snp_boot(struct sim_machine *m, gpa_t *boot_vmsa);
/**
 * Is the linked platform the snp one (libcsvsm_sim_snp.a: plat_snp.c over
 * snp_insn_sim.c) rather than the sim one (libcsvsm_sim.a: plat_sim.c)?
 * The file linked with each answers (snp_linked.c, sim_linked.c).
 */
bool sim_platform_snp(void);

#endif /* SIM_HARNESS_H */
