/* SPDX-License-Identifier: MIT */
/* The SEV-SNP launch digest of an IGVM file (igvm_measure.c). */
#ifndef TOOLS_IGVM_MEASURE_H
#define TOOLS_IGVM_MEASURE_H

#include "igvm.h"

struct igvm_measure {
	uint8_t digest[48];
	uint64_t policy;
	unsigned pages[8]; /* by enum psp_page_type */
};

/** NULL on success, else why the file cannot be measured. */
const char *igvm_measure_snp(struct igvm_file *f, struct igvm_measure *m);

#endif /* TOOLS_IGVM_MEASURE_H */
