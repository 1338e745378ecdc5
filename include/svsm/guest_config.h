/* SPDX-License-Identifier: MIT */
/*
 * The guest's configuration, apart from start-up: the VMPL the SVSM serves
 * and the SEV features its VMSAs may carry. svsm_init() sets the VMPL once,
 * before any request is served; afterwards it only is read.
 */
#ifndef SVSM_GUEST_CONFIG_H
#define SVSM_GUEST_CONFIG_H

#include <stdint.h>

/** Set the guest's VMPL (1..3); svsm_init() only, once, at start-up. */
void guest_config_set_vmpl(uint8_t vmpl);

uint8_t svsm_guest_vmpl(void);
/** SEV_FEATURES bits a guest VMSA may carry (docs/protocols/core.md). */
uint64_t svsm_permitted_sev_features(void);

#endif /* SVSM_GUEST_CONFIG_H */
