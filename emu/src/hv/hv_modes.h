/* SPDX-License-Identifier: MIT */
/*
 * The one list of the machine's hostile behaviours (docs/emu.md, "The
 * hypervisor and its hostile behaviours"; docs/threat-model.md, "The
 * hostile host on the running image"). Each is chosen at start by its
 * name (fw_cfg opt/csvsm/hv, scripts/emu-run.sh --hv NAME). hv.c makes
 * enum hv_mode and the names from it; mk/machine.mk reads it through the
 * C preprocessor (its hv_modes) and runs every behaviour but the
 * first with an outcome on build/csvsm.igvm (emu-hostile-check) and
 * those with one on build/csvsm-linux.igvm (linux-hostile-check).
 *
 * X(ID, "name", kvm_behaviour, psp_fault, when,
 *   QEMU status on the test image, what that log must show,
 *   QEMU status on Linux, what that log must show)
 * when (hv.h, enum hv_when): HV_BOOT, the lie is told from the first
 * exit on, to whoever meets it (so mostly to the SVSM while it boots);
 * HV_RUN_SVSM ("NAME@run"), to the SVSM only, from the first exit the
 * guest (VMPL1) makes: the SVSM meets it while it serves a running
 * guest (its Run VMPL, its console, its guest requests); HV_RUN_GUEST
 * ("NAME@guest"), to the guest only, from its first exit: lies of the
 * MSR protocol and of page-state changes, which the SVSM makes only
 * while it boots, told to the running guest and its SVSM calls.
 * A log pattern is a grep basic regular expression; "": not run on
 * that image. A status is a name of machine_exits.h's list, which
 * emu-run.sh --expect reads (0: not run): SVSM_TERM, the SVSM terminated
 * (its reason in the log: a TERM_CSVSM_ name, the SVSM's line or the
 * machine's, or a set 0 code), GUEST_TERM: the guest did, GUEST_PASSED:
 * the test guest passed, GUEST_FAILED: it failed a call the SVSM refused
 * and went on, LAUNCH_REFUSED: the PSP refused the launch,
 * GUEST_POWEROFF: the guest powered off (Linux after its self-test: a
 * lie Linux and its SVSM survive, the pattern saying what the self-test
 * saw; the Linux runs have a relying party on the console, so the
 * self-test never waits for one).
 * Every run's log must also show the lie ("lies").
 */
#ifndef MACHINE_HV_MODES_H
#define MACHINE_HV_MODES_H

#define HV_MODES(X)                                                            \
	X(HONEST, "honest", KVM_HONEST, PSP_HONEST, HV_BOOT, GUEST_PASSED, "", \
	  0, "")                                                               \
	X(CPUID_LIE, "cpuid-lie", KVM_HONEST, PSP_HONEST, HV_BOOT,             \
	  LAUNCH_REFUSED, "launch refused: .*CPUID", LAUNCH_REFUSED,           \
	  "launch refused: .*CPUID")                                           \
	X(SEV_INFO_LIE, "sev-info-lie", KVM_OLD_VERSION, PSP_HONEST, HV_BOOT,  \
	  SVSM_TERM, "asked to terminate: reason set 0 code 1", SVSM_TERM,     \
	  "asked to terminate: reason set 0 code 1")                           \
	X(NO_MULTI_VMPL, "no-multi-vmpl", KVM_NO_MULTI_VMPL, PSP_HONEST,       \
	  HV_BOOT, SVSM_TERM, "asked to terminate: reason set 0 code 2",       \
	  SVSM_TERM, "asked to terminate: reason set 0 code 2")                \
	X(WRONG_ECHO, "wrong-echo", KVM_WRONG_ECHO, PSP_HONEST, HV_BOOT,       \
	  SVSM_TERM, "TERM_CSVSM_GHCB_RESPONSE", SVSM_TERM,                    \
	  "TERM_CSVSM_GHCB_RESPONSE")                                          \
	X(WRONG_RESPONSE_CODE, "wrong-response-code", KVM_WRONG_RESPONSE_CODE, \
	  PSP_HONEST, HV_BOOT, SVSM_TERM, "TERM_CSVSM_GHCB_RESPONSE",          \
	  SVSM_TERM, "TERM_CSVSM_GHCB_RESPONSE")                               \
	X(NO_VALID_BITS, "no-valid-bits", KVM_NO_VALID_BITS, PSP_HONEST,       \
	  HV_BOOT, SVSM_TERM, "TERM_CSVSM_GHCB_RESPONSE", SVSM_TERM,           \
	  "TERM_CSVSM_GHCB_RESPONSE")                                          \
	X(EXCEPTION_RESULT, "exception-result", KVM_EXCEPTION_RESULT,          \
	  PSP_HONEST, HV_BOOT, SVSM_TERM, "TERM_CSVSM_GHCB_RESPONSE",          \
	  SVSM_TERM, "TERM_CSVSM_GHCB_RESPONSE")                               \
	X(MSR_CHANGED, "msr-changed", KVM_MSR_CHANGED, PSP_HONEST, HV_BOOT,    \
	  SVSM_TERM, "TERM_CSVSM_GHCB_RESPONSE", SVSM_TERM,                    \
	  "TERM_CSVSM_GHCB_RESPONSE")                                          \
	X(PSC_LIE, "psc-lie", KVM_PSC_LIE, PSP_HONEST, HV_BOOT, SVSM_TERM,     \
	  "TERM_CSVSM_GHCB_RESPONSE", SVSM_TERM, "TERM_CSVSM_GHCB_RESPONSE")   \
	X(PSC_WRONG_PAGE, "psc-wrong-page", KVM_PSC_WRONG_PAGE, PSP_HONEST,    \
	  HV_BOOT, SVSM_TERM, "TERM_CSVSM_PSC_FAILED", SVSM_TERM,              \
	  "TERM_CSVSM_PSC_FAILED")                                             \
	X(PSC_BACKWARDS, "psc-backwards", KVM_PSC_BACKWARDS, PSP_HONEST,       \
	  HV_BOOT, SVSM_TERM, "TERM_CSVSM_PSC_FAILED", SVSM_TERM,              \
	  "TERM_CSVSM_PSC_FAILED")                                             \
	X(PSC_STALL, "psc-stall", KVM_PSC_STALL, PSP_HONEST, HV_BOOT,          \
	  SVSM_TERM, "TERM_CSVSM_PSC_FAILED", SVSM_TERM,                       \
	  "TERM_CSVSM_PSC_FAILED")                                             \
	X(PSC_ERROR, "psc-error", KVM_PSC_ERROR, PSP_HONEST, HV_BOOT,          \
	  SVSM_TERM, "TERM_CSVSM_PSC_FAILED", SVSM_TERM,                       \
	  "TERM_CSVSM_PSC_FAILED")                                             \
	X(PSC_PARTIAL, "psc-partial", KVM_PSC_PARTIAL, PSP_HONEST, HV_BOOT,    \
	  GUEST_PASSED, "guest. [0-9]* passed, 0 failed", GUEST_POWEROFF,      \
	  "^[0-9]* passed, 0 failed")                                          \
	X(REFUSE_RUN_VMPL, "refuse-run-vmpl", KVM_REFUSE_RUN_VMPL, PSP_HONEST, \
	  HV_BOOT, SVSM_TERM, "TERM_CSVSM_RUN_VMPL_REFUSED", SVSM_TERM,        \
	  "TERM_CSVSM_RUN_VMPL_REFUSED")                                       \
	X(CERTS_NO_RBX, "certs-no-rbx", KVM_CERTS_NO_RBX, PSP_HONEST, HV_BOOT, \
	  SVSM_TERM, "TERM_CSVSM_GHCB_RESPONSE", SVSM_TERM,                    \
	  "TERM_CSVSM_GHCB_RESPONSE")                                          \
	X(MSR_NO_RAX, "msr-no-rax", KVM_MSR_NO_RAX, PSP_HONEST, HV_BOOT,       \
	  GUEST_PASSED, "guest. [0-9]* passed, 0 failed", GUEST_TERM,          \
	  "VMPL1 asked to terminate: reason set 0 code 0")                     \
	X(DOORBELL_ELSEWHERE, "doorbell-elsewhere", KVM_DOORBELL_ELSEWHERE,    \
	  PSP_HONEST, HV_BOOT, SVSM_TERM, "TERM_CSVSM_GHCB_RESPONSE",          \
	  SVSM_TERM, "TERM_CSVSM_GHCB_RESPONSE")                               \
	X(FLIP_PSC, "flip-psc", KVM_FLIP_SHARED, PSP_HONEST, HV_BOOT,          \
	  SVSM_TERM, "TERM_CSVSM_PSC_FAILED", SVSM_TERM,                       \
	  "TERM_CSVSM_PSC_FAILED")                                             \
	X(FLIP_SHARED, "flip-shared", KVM_FLIP_RESPONSE, PSP_HONEST, HV_BOOT,  \
	  SVSM_TERM, "TERM_CSVSM_GUEST_MSG_TAMPERED", SVSM_TERM,               \
	  "TERM_CSVSM_GUEST_MSG_TAMPERED")                                     \
	X(INJECT_RI, "inject-ri", KVM_HONEST, PSP_HONEST, HV_BOOT, SVSM_TERM,  \
	  "TERM_CSVSM_UNEXPECTED_EVENT", SVSM_TERM,                            \
	  "TERM_CSVSM_UNEXPECTED_EVENT")                                       \
	X(PSP_BAD_TAG, "psp-bad-tag", KVM_HONEST, PSP_FAULT_BAD_TAG, HV_BOOT,  \
	  SVSM_TERM, "TERM_CSVSM_GUEST_MSG_TAMPERED", SVSM_TERM,               \
	  "TERM_CSVSM_GUEST_MSG_TAMPERED")                                     \
	X(PSP_WRONG_SEQNO, "psp-wrong-seqno", KVM_HONEST,                      \
	  PSP_FAULT_WRONG_SEQNO, HV_BOOT, SVSM_TERM,                           \
	  "TERM_CSVSM_GUEST_MSG_TAMPERED", SVSM_TERM,                          \
	  "TERM_CSVSM_GUEST_MSG_TAMPERED")                                     \
	X(PSP_TRUNCATED, "psp-truncated", KVM_HONEST, PSP_FAULT_TRUNCATED,     \
	  HV_BOOT, GUEST_FAILED, "attest: PSP answered status 0x0, 288 of",    \
	  GUEST_POWEROFF,                                                      \
	  "FAIL attest-svsm: reading outblob: .*Invalid argument")             \
	X(PSP_WRONG_TYPE, "psp-wrong-type", KVM_HONEST, PSP_FAULT_WRONG_TYPE,  \
	  HV_BOOT, SVSM_TERM, "TERM_CSVSM_GUEST_MSG_TAMPERED", SVSM_TERM,      \
	  "TERM_CSVSM_GUEST_MSG_TAMPERED")                                     \
	X(PSP_BAD_STATUS, "psp-bad-status", KVM_HONEST, PSP_FAULT_BAD_STATUS,  \
	  HV_BOOT, GUEST_FAILED, "attest: PSP answered status 0x16",           \
	  GUEST_POWEROFF,                                                      \
	  "FAIL attest-svsm: reading outblob: .*Invalid argument")             \
	X(NO_VALID_BITS_RUN, "no-valid-bits@run", KVM_NO_VALID_BITS,           \
	  PSP_HONEST, HV_RUN_SVSM, SVSM_TERM, "TERM_CSVSM_GHCB_RESPONSE",      \
	  SVSM_TERM, "TERM_CSVSM_GHCB_RESPONSE")                               \
	X(EXCEPTION_RESULT_RUN, "exception-result@run", KVM_EXCEPTION_RESULT,  \
	  PSP_HONEST, HV_RUN_SVSM, SVSM_TERM, "TERM_CSVSM_GHCB_RESPONSE",      \
	  SVSM_TERM, "TERM_CSVSM_GHCB_RESPONSE")                               \
	X(MSR_CHANGED_RUN, "msr-changed@run", KVM_MSR_CHANGED, PSP_HONEST,     \
	  HV_RUN_SVSM, SVSM_TERM, "TERM_CSVSM_GHCB_RESPONSE", SVSM_TERM,       \
	  "TERM_CSVSM_GHCB_RESPONSE")                                          \
	X(REFUSE_RUN_VMPL_RUN, "refuse-run-vmpl@run", KVM_REFUSE_RUN_VMPL,     \
	  PSP_HONEST, HV_RUN_SVSM, SVSM_TERM, "TERM_CSVSM_RUN_VMPL_REFUSED",   \
	  SVSM_TERM, "TERM_CSVSM_RUN_VMPL_REFUSED")                            \
	X(SEV_INFO_LIE_GUEST, "sev-info-lie@guest", KVM_OLD_VERSION,           \
	  PSP_HONEST, HV_RUN_GUEST, 0, "", GUEST_TERM,                         \
	  "VMPL1 asked to terminate: reason set 0 code 2")                     \
	X(NO_MULTI_VMPL_GUEST, "no-multi-vmpl@guest", KVM_NO_MULTI_VMPL,       \
	  PSP_HONEST, HV_RUN_GUEST, 0, "", GUEST_TERM,                         \
	  "VMPL1 asked to terminate: reason set 1 code 3")                     \
	X(WRONG_ECHO_GUEST, "wrong-echo@guest", KVM_WRONG_ECHO, PSP_HONEST,    \
	  HV_RUN_GUEST, 0, "", GUEST_TERM,                                     \
	  "VMPL1 asked to terminate: reason set 1 code 0")                     \
	X(WRONG_RESPONSE_CODE_GUEST, "wrong-response-code@guest",              \
	  KVM_WRONG_RESPONSE_CODE, PSP_HONEST, HV_RUN_GUEST, 0, "",            \
	  GUEST_TERM, "VMPL1 asked to terminate: reason set 0 code 0")         \
	X(NO_VALID_BITS_GUEST, "no-valid-bits@guest", KVM_NO_VALID_BITS,       \
	  PSP_HONEST, HV_RUN_GUEST, 0, "", GUEST_TERM,                         \
	  "VMPL1 asked to terminate: reason set 1 code 5")                     \
	X(EXCEPTION_RESULT_GUEST, "exception-result@guest",                    \
	  KVM_EXCEPTION_RESULT, PSP_HONEST, HV_RUN_GUEST, 0, "", GUEST_TERM,   \
	  "VMPL1 asked to terminate: reason set 1 code 5")                     \
	X(MSR_CHANGED_GUEST, "msr-changed@guest", KVM_MSR_CHANGED, PSP_HONEST, \
	  HV_RUN_GUEST, GUEST_TERM,                                            \
	  "VMPL1 asked to terminate: reason set 0 code 0", GUEST_POWEROFF,     \
	  "^[0-9]* passed, 0 failed")                                          \
	X(PSC_LIE_GUEST, "psc-lie@guest", KVM_PSC_LIE, PSP_HONEST,             \
	  HV_RUN_GUEST, 0, "", GUEST_TERM,                                     \
	  "VMPL1 asked to terminate: reason set 1 code 2")                     \
	X(PSC_WRONG_PAGE_GUEST, "psc-wrong-page@guest", KVM_PSC_WRONG_PAGE,    \
	  PSP_HONEST, HV_RUN_GUEST, 0, "", GUEST_TERM,                         \
	  "VMPL1 asked to terminate: reason set 0 code 0")

#endif /* MACHINE_HV_MODES_H */
