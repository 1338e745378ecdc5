/* SPDX-License-Identifier: MIT */
/*
 * Serving one entry into VMPL0. The platform's request loop runs the guest
 * until the hypervisor enters the SVSM on this CPU, then calls
 * request_process(); a platform that cannot tell why it was entered (every
 * platform: the hypervisor decides) relies on its checks.
 */
#ifndef SVSM_REQUEST_H
#define SVSM_REQUEST_H

#include <stdbool.h>

#include "svsm/vcpu.h"

/** Outcome of one entry, for statistics and tests. */
enum request_outcome {
	REQUEST_SERVED,	      /* a call was dispatched and answered */
	REQUEST_NO_GUEST,     /* this CPU serves no guest vCPU */
	REQUEST_NOT_VMGEXIT,  /* the guest did not exit with VMGEXIT */
	REQUEST_NOT_PENDING,  /* call_pending was clear: spurious entry */
	REQUEST_CAA_FAULT,    /* the Calling Area could not be accessed */
	REQUEST_VCPU_DELETED, /* the call deleted its own VMSA */
};

enum request_outcome request_process(struct svsm_cpu *cpu);

#endif /* SVSM_REQUEST_H */
