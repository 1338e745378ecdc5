#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A seed for fuzz-emu_vblk_dma (test/fuzz/emu_vblk_dma.c): a guest whose
last page is private, a 64-sector disk, an honest device, and a driver
that lays out one chain (header, 512 bytes, status) in shared pages, sets
the device up with its rings there and notifies: a read of sector 3; then
the same chain as a write; then the data buffer moved into the private
page (the device must refuse it)."""
import struct
import sys

DESC, AVAIL, USED, HDR, DATA, STATUS, PRIVATE = (
    0x1000, 0x2000, 0x3000, 0x4000, 0x5000, 0x6000, 0xF000)
NEXT, WRITE = 1, 2
T_IN, T_OUT = 0, 1


def poke(at, eight):
    assert len(eight) == 8
    return bytes([2]) + struct.pack('<H', at) + eight


def desc(i, addr, length, flags, nxt):
    raw = struct.pack('<QIHH', addr, length, flags, nxt)
    return poke(DESC + 16 * i, raw[:8]) + poke(DESC + 16 * i + 8, raw[8:])


def header(kind, sector):
    return poke(HDR, struct.pack('<II', kind, 0)) + \
        poke(HDR + 8, struct.pack('<Q', sector))


def avail(idx):
    # flags, idx, ring[0..1] = head 0
    return poke(AVAIL, struct.pack('<HHHH', 0, idx, 0, 0))


NOTIFY = bytes([4])
# set-up: FLUSH offered, queue size 1 << 3, the rings' addresses
SETUP = bytes([5, 1, 3]) + struct.pack('<HHH', DESC, AVAIL, USED)

seed = struct.pack('<H', 0x7FFF) + bytes([64, 0])
seed += desc(0, HDR, 16, NEXT, 1) + desc(1, DATA, 512, NEXT | WRITE, 2)
seed += desc(2, STATUS, 1, WRITE, 0) + header(T_IN, 3) + avail(1)
seed += SETUP + NOTIFY
seed += header(T_OUT, 5) + desc(1, DATA, 512, NEXT, 2) + avail(2) + NOTIFY
seed += desc(1, PRIVATE, 512, NEXT | WRITE, 2) + header(T_IN, 3)
seed += poke(AVAIL, struct.pack('<HHHH', 0, 3, 0, 0)) + NOTIFY
with open(sys.argv[1], 'wb') as f:
    f.write(seed)
