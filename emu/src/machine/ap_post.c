/* SPDX-License-Identifier: MIT */
/* AP Creation's posts, one slot per VMPL (ap_post.h). */
#include "ap_post.h"

bool ap_post_put(struct ap_posts *p, unsigned vmpl, uint64_t vmsa, bool destroy)
{
	if (vmpl >= AP_POST_VMPLS) {
		return false;
	}
	p->vmsa[vmpl] = destroy ? 0 : vmsa;
	p->destroy[vmpl] = destroy;
	__atomic_store_n(&p->pending, p->pending | (1u << vmpl),
			 __ATOMIC_RELEASE);
	return true;
}

bool ap_post_any(const struct ap_posts *p)
{
	return __atomic_load_n(&p->pending, __ATOMIC_ACQUIRE) != 0;
}

unsigned ap_post_take(struct ap_posts *p, struct ap_post out[AP_POST_VMPLS])
{
	unsigned vmpl;
	unsigned n = 0;

	for (vmpl = 0; vmpl < AP_POST_VMPLS; vmpl++) {
		out[vmpl].taken = (p->pending & (1u << vmpl)) != 0;
		out[vmpl].destroy = out[vmpl].taken && p->destroy[vmpl];
		out[vmpl].vmsa = out[vmpl].taken ? p->vmsa[vmpl] : 0;
		n += out[vmpl].taken ? 1u : 0u;
	}
	__atomic_store_n(&p->pending, 0, __ATOMIC_RELEASE);
	return n;
}
