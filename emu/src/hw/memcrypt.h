/* SPDX-License-Identifier: MIT */
/*
 * Memory encryption, the hardware's (SEV-SNP): a guest page's bytes are
 * ciphertext under the guest's key, so a page whose owner changes in the
 * RMP (the hypervisor's RMPUPDATE: page-state changes, KVM's implicit
 * conversions) never shows its former owner's bytes to the new one. The
 * machine's memory holds plaintext, so it re-encrypts such a page in
 * place (the RMP model's owner_changed hook, model/snpmodel.h).
 */
#ifndef MACHINE_MEMCRYPT_H
#define MACHINE_MEMCRYPT_H

#include <stdint.h>

#include "model/snpmodel.h"

/** Draw this boot's key and hook @rmp (@pages entries, every page
 * hypervisor-owned and never written by a guest). */
void memcrypt_setup(struct rmp *rmp, uint64_t pages);

#endif /* MACHINE_MEMCRYPT_H */
