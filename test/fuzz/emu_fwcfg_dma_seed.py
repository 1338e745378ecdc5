#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A seed for fuzz-emu_fwcfg_dma (test/fuzz/emu_fwcfg_dma.c): a guest whose
pages are all shared, four items, and a run of accesses as OVMF chains
them: SELECT with SKIP, a READ across pages, a port select and a data
byte, SELECT with READ started where it was written, a WRITE (refused)."""
import struct
import sys


def dma(where, control, length, addr, start=None):
    op = bytes([2]) + struct.pack('<H', where)
    if start is None:
        op += bytes([1])  # started where it was written
    else:
        op += bytes([0]) + struct.pack('<Q', start)
    return op + struct.pack('>IIQ', control, length, addr)


SELECT, SKIP, READ, WRITE = 0x08, 0x04, 0x02, 0x10
seed = struct.pack('<H', 0xFFFF) + struct.pack('<IIII', 0x100, 0x2000, 0x10,
                                               0x80000010)
seed += dma(0x100, 1 << 16 | SELECT | SKIP, 0x10, 0)
seed += dma(0x100, READ, 0x1800, 0x1000)
seed += bytes([0]) + struct.pack('<H', 0) + bytes([1])
seed += dma(0x200, 3 << 16 | SELECT | READ, 0x20, 0x3000, start=0x200)
seed += dma(0x300, WRITE, 4, 0x4000)
with open(sys.argv[1], 'wb') as f:
    f.write(seed)
