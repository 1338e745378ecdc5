/* SPDX-License-Identifier: MIT */
/* TEMP: no ACPI tables until the fw_cfg table loader lands. */
#include "snp_acpi.h"

#include "svsm/log.h"

uint64_t snp_acpi_load(uint64_t base, uint64_t size)
{
	(void)base;
	(void)size;
	LOG_NOTICE("snp: ACPI: no table loader yet (TEMP stub): no RSDP");
	return 0;
}
