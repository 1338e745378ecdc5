/* SPDX-License-Identifier: MIT */
#ifndef EMU_PSP_H
#define EMU_PSP_H

#include <stdint.h>

/** Start the emulated PSP from 4*32+48 random bytes; its VMPCKs out. */
void emu_psp_init(const uint8_t *entropy, uint8_t vmpck[4][32]);

#endif /* EMU_PSP_H */
