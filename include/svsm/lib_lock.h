/* SPDX-License-Identifier: MIT */
/*
 * One lock for every call into the linked libraries (libtpms, libcrypto).
 * libtpms is single-threaded, and plat_simd_begin/end keep one save area
 * on emu: so the vTPM service and the SVSM's own cryptography
 * (svsm/crypto.h) never run at the same time on two CPUs. Not recursive:
 * a holder never calls another holder.
 */
#ifndef SVSM_LIB_LOCK_H
#define SVSM_LIB_LOCK_H

void lib_lock(void);
void lib_unlock(void);

#endif /* SVSM_LIB_LOCK_H */
