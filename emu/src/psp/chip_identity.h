/* SPDX-License-Identifier: MIT */
/*
 * The emulated chip's identity, as its fuses would hold it: the VCEK key
 * it signs reports with, the CHIP_ID it reports (the VCEK certificate's
 * hwID) and the host's certificate table carrying that chip's VCEK
 * certificate (the hypervisor hands it to extended guest requests, as a
 * host fetches its own chip's VCEK from AMD's KDS). From fw_cfg
 * opt/csvsm/chip-id (scripts/emu-chip.sh, chip-identity.py); without it
 * (QEMU run by hand) the build's TEST identity, psp_test_identity.
 */
#ifndef MACHINE_CHIP_IDENTITY_H
#define MACHINE_CHIP_IDENTITY_H

#include "model/psp_model.h"

/**
 * The identity the PSP launches with into *@id; NULL, or why the file is
 * refused (then nothing launches: a chip must not sign as another).
 */
const char *chip_identity_load(const struct psp_identity **id);

#endif /* MACHINE_CHIP_IDENTITY_H */
