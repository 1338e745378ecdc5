/* SPDX-License-Identifier: MIT */
/*
 * The one list of the ways the KVM model lies (model/kvm.h), one way at a
 * time, honest first. Every lie is one a hostile host can tell; the SVSM
 * must notice it before it uses it. From this list come the model's enum
 * kvm_behaviour (KVM_ID) and the simulator's public enum
 * sim_ghcb_behaviour (SIM_GHCB_ID, sim/include/csvsm_sim.h), value for
 * value; emu's hostile modes name the KVM_ values they use
 * (emu/src/hv/hv_modes.h). A new lie is one line here. No includes: the
 * simulator's public header includes it.
 */
#ifndef KVMMODEL_KVM_BEHAVIOURS_H
#define KVMMODEL_KVM_BEHAVIOURS_H

#define KVM_BEHAVIOURS(X)                                                      \
	X(HONEST)                                                              \
	X(OLD_VERSION)	       /* SEV info: versions 1..1 */                   \
	X(NO_MULTI_VMPL)       /* features without bit 5 */                    \
	X(WRONG_ECHO)	       /* registration echoes GFN + 1 */               \
	X(WRONG_RESPONSE_CODE) /* MSR replies with another code */             \
	X(NO_VALID_BITS)       /* page replies mark nothing valid */           \
	X(EXCEPTION_RESULT)    /* exit_info_1 = 1 (inject) */                  \
	X(MSR_CHANGED)	       /* GHCB MSR altered on return */                \
	X(PSC_LIE)	       /* PSC reports success, does nothing */         \
	X(PSC_WRONG_PAGE)      /* PSC converts the next page */                \
	X(PSC_BACKWARDS)       /* cur_entry moves back */                      \
	X(PSC_STALL)	       /* returns early, never progressing */          \
	X(PSC_ERROR)	       /* exit_info_2 non-zero */                      \
	X(PSC_PARTIAL)	       /* honest, 3 entries per call */                \
	X(REFUSE_RUN_VMPL)     /* run VMPL answered with an error */           \
	X(CERTS_NO_RBX)	       /* INVALID_LEN without RBX valid */             \
	X(MSR_NO_RAX)	       /* RDMSR/IN answered, RAX not valid */          \
	X(DOORBELL_ELSEWHERE)  /* #HV doorbell "set" at another GPA */         \
	/* during a call, after reading the request, flips a byte of the */    \
	/* PSC buffer / guest-request response */                              \
	X(FLIP_SHARED)                                                         \
	/* the guest-request response only (so a guest whose PSCs come */      \
	/* first reaches its request) */                                       \
	X(FLIP_RESPONSE)

#endif /* KVMMODEL_KVM_BEHAVIOURS_H */
