/* SPDX-License-Identifier: MIT */
/* The names csvsm-igvm dump gives IGVM structure types. */
#include "igvm.h"

const char *igvm_type_name(uint32_t type)
{
	switch (type & ~IGVM_VHT_IGNORABLE) {
	case IGVM_VHT_SUPPORTED_PLATFORM:
		return "SUPPORTED_PLATFORM";
	case IGVM_VHT_GUEST_POLICY:
		return "GUEST_POLICY";
	case IGVM_VHT_RELOCATABLE_REGION:
		return "RELOCATABLE_REGION";
	case IGVM_VHT_PAGE_TABLE_RELOCATION_REGION:
		return "PAGE_TABLE_RELOCATION_REGION";
	case IGVM_VHT_PARAMETER_AREA:
		return "PARAMETER_AREA";
	case IGVM_VHT_PAGE_DATA:
		return "PAGE_DATA";
	case IGVM_VHT_PARAMETER_INSERT:
		return "PARAMETER_INSERT";
	case IGVM_VHT_VP_CONTEXT:
		return "VP_CONTEXT";
	case IGVM_VHT_REQUIRED_MEMORY:
		return "REQUIRED_MEMORY";
	case IGVM_VHT_VP_COUNT_PARAMETER:
		return "VP_COUNT_PARAMETER";
	case IGVM_VHT_SRAT:
		return "SRAT";
	case IGVM_VHT_MADT:
		return "MADT";
	case IGVM_VHT_MMIO_RANGES:
		return "MMIO_RANGES";
	case IGVM_VHT_SNP_ID_BLOCK:
		return "SNP_ID_BLOCK";
	case IGVM_VHT_MEMORY_MAP:
		return "MEMORY_MAP";
	case IGVM_VHT_ERROR_RANGE:
		return "ERROR_RANGE";
	case IGVM_VHT_COMMAND_LINE:
		return "COMMAND_LINE";
	case IGVM_VHT_SLIT:
		return "SLIT";
	case IGVM_VHT_PPTT:
		return "PPTT";
	case IGVM_VHT_VBS_MEASUREMENT:
		return "VBS_MEASUREMENT";
	case IGVM_VHT_DEVICE_TREE:
		return "DEVICE_TREE";
	case IGVM_VHT_ENVIRONMENT_INFO:
		return "ENVIRONMENT_INFO";
	default:
		return NULL;
	}
}
