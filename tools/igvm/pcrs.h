/* SPDX-License-Identifier: MIT */
/*
 * csvsm-igvm pcrs: the PCR 8 and 9 values a relying party expects from a
 * Linux image (docs/vtpm.md, "Measured boot"), computed on the host with
 * libcrypto, independently of the firmware's code.
 */
#ifndef IGVM_PCRS_H
#define IGVM_PCRS_H

/** argv[0] is "pcrs": IMAGE, or --linux BZIMAGE [--initrd F] [--cmdline S]. */
int pcrs_main(int argc, char **argv);

#endif /* IGVM_PCRS_H */
