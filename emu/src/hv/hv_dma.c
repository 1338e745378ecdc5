/* SPDX-License-Identifier: MIT */
#include "hv_dma.h"

#include "svsm/std.h"

#define DMA_PAGE 4096ull

/* Every page of [@gpa, @gpa + @len) shared, in guest memory. */
static bool all_shared(const struct rmp *rmp,
		       uint8_t *(*map)(uint64_t gpa, uint64_t len),
		       uint64_t gpa, size_t len)
{
	uint64_t page = gpa & ~(DMA_PAGE - 1);
	uint64_t end = gpa + len; /* no overflow: checked by the caller */

	for (; page < end; page += DMA_PAGE) {
		if (map(page, DMA_PAGE) == NULL ||
		    rmp_check_shared_access(rmp, page) != RMP_ACCESS_OK) {
			return false;
		}
	}
	return true;
}

bool hv_dma_copy(const struct rmp *rmp,
		 uint8_t *(*map)(uint64_t gpa, uint64_t len), uint64_t c_mask,
		 uint64_t gpa, uint8_t *mine, size_t len, bool to_guest)
{
	if (len == 0) {
		return true;
	}
	if ((gpa & c_mask) != 0 || gpa > UINT64_MAX - len ||
	    !all_shared(rmp, map, gpa, len)) {
		return false;
	}
	/* Page by page: consecutive GPAs need not be consecutive host
	 * pages (another bank, a window). */
	while (len > 0) {
		size_t n = (size_t)(DMA_PAGE - gpa % DMA_PAGE);
		uint8_t *host;

		n = n < len ? n : len;
		host = map(gpa, n);
		if (host == NULL) {
			return false; /* unreachable: all_shared mapped it */
		}
		if (to_guest) {
			memcpy(host, mine, n);
		} else {
			memcpy(mine, host, n);
		}
		gpa += n;
		mine += n;
		len -= n;
	}
	return true;
}
