/* SPDX-License-Identifier: MIT */
/*
 * The shape of a UEFI firmware image (PI spec vol. 3, "Firmware Volume"):
 * a sequence of firmware volumes tiling the file, each with the "_FVH"
 * signature, a header whose 16-bit words sum to zero, revision 2, and a
 * length that stays inside the file. OVMF.fd is three (variables, the
 * compressed main volume, SEC); OVMF_CODE.fd two. csvsm-igvm refuses a
 * truncated or damaged image here, before it is measured and launched,
 * rather than let OVMF fail to find its volumes at boot. The bytes inside
 * a volume (compressed, without a checksum of their own) are not checked:
 * damage there ends in the firmware's own exception report at boot.
 */
#ifndef IGVM_FV_CHECK_H
#define IGVM_FV_CHECK_H

#include <stddef.h>
#include <stdint.h>

/** NULL if @img (@len bytes) is a sequence of sound firmware volumes,
 * else what is wrong (and where: in *@at, the offset). */
const char *fv_check(const uint8_t *img, size_t len, size_t *at);

#endif /* IGVM_FV_CHECK_H */
