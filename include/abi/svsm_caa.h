/* SPDX-License-Identifier: MIT */
/*
 * The Calling Area (CAA): one 4 KiB page per vCPU.
 * AMD publication 58019 rev 1.00, Table 2; Linux struct svsm_ca.
 */
#ifndef ABI_SVSM_CAA_H
#define ABI_SVSM_CAA_H

#include <stddef.h>
#include <stdint.h>

#define SVSM_CAA_SIZE 4096u

/* call_pending values (58019 Table 2). Other values are INVALID_FORMAT. */
#define SVSM_CALL_PENDING_NONE 0u
#define SVSM_CALL_PENDING_SET 1u

struct svsm_caa {
	uint8_t call_pending;	   /* 0x000 */
	uint8_t mem_available;	   /* 0x001 */
	uint8_t reserved[6];	   /* 0x002: need not be checked (58019) */
	uint8_t svsm_buffer[4088]; /* 0x008: memory-passed parameters */
};

#define SVSM_CAA_OFF_CALL_PENDING 0x000u
#define SVSM_CAA_OFF_MEM_AVAILABLE 0x001u
#define SVSM_CAA_OFF_BUFFER 0x008u

_Static_assert(sizeof(struct svsm_caa) == SVSM_CAA_SIZE,
	       "58019 Table 2: the Calling Area is 4 KiB");
_Static_assert(offsetof(struct svsm_caa, call_pending) ==
		       SVSM_CAA_OFF_CALL_PENDING,
	       "58019 Table 2: SVSM_CALL_PENDING at 0x000");
_Static_assert(offsetof(struct svsm_caa, mem_available) ==
		       SVSM_CAA_OFF_MEM_AVAILABLE,
	       "58019 Table 2: SVSM_MEM_AVAILABLE at 0x001");
_Static_assert(offsetof(struct svsm_caa, svsm_buffer) == SVSM_CAA_OFF_BUFFER,
	       "58019 Table 2: SVSM buffer at 0x008");

#endif /* ABI_SVSM_CAA_H */
