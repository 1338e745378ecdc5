/* SPDX-License-Identifier: MIT */
/*
 * AP Creation's posts to a target vCPU: what the hypervisor hands the
 * world switch when one vCPU creates or destroys another's VMSA, taken by
 * the target at its next loop turn (world.c). One slot per VMPL, as a
 * multi-VMPL KVM keeps a VMSA per plane: a VMPL0 and a VMPL1 request that
 * arrive before the target's turn are both taken; a second one for the
 * same VMPL supersedes the first, as KVM's snp_vmsa_gpa does.
 * Pure: the caller holds the target's post lock around put and take.
 */
#ifndef MACHINE_AP_POST_H
#define MACHINE_AP_POST_H

#include <stdbool.h>
#include <stdint.h>

/* The VMPLs of a vCPU (machine.h checks it equals MACHINE_VMPLS). */
#define AP_POST_VMPLS 4u

struct ap_posts {
	uint64_t vmsa[AP_POST_VMPLS];
	bool destroy[AP_POST_VMPLS];
	/* A VMPL bit each; also read without the lock, to know whether to
	 * look (ap_post_any). */
	unsigned pending;
};

/** What one VMPL's slot held when it was taken. */
struct ap_post {
	bool taken;
	bool destroy;
	uint64_t vmsa; /* 0 for a destroy */
};

/** Post @vmsa (or a destroy) for @vmpl; false (nothing posted) for a
 * VMPL out of range. */
bool ap_post_put(struct ap_posts *p, unsigned vmpl, uint64_t vmsa,
		 bool destroy);

/** Whether anything is posted (lock-free, acquire). */
bool ap_post_any(const struct ap_posts *p);

/** Take every posted slot into @out (one per VMPL) and empty @p;
 * returns the number taken. */
unsigned ap_post_take(struct ap_posts *p, struct ap_post out[AP_POST_VMPLS]);

#endif /* MACHINE_AP_POST_H */
