#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Valid inputs for fuzz-vmlinux (test/fuzz/vmlinux.c), one per stage, so
the fuzzer starts past the magic numbers: a small vmlinux-shaped ELF64
(two PT_LOAD segments from 16 MiB, a NOTE, trailing "relocations"); it
gzip-compressed, and zstd-compressed with the size appended when the
zstd tool is there (Linux's size_append); a bzImage (4 setup sectors,
release 6.18) whose payload_offset and payload_length name the gzip one.
Usage: vmlinux_seed.py DIR
"""
import gzip
import os
import shutil
import struct
import subprocess
import sys

BASE = 0x1000000


def elf():
    phdrs = [(1, 5, 0x100, BASE, 0x80, 0x1000),
             (1, 6, 0x180, BASE + 0x2000, 0x40, 0x2000),
             (4, 4, 0x1C0, BASE + 0x10, 0x10, 0x10)]
    eh = (b"\x7fELF" + bytes([2, 1, 1]) + bytes(9)
          + struct.pack("<HHIQQQIHHHHHH", 2, 62, 1, BASE + 0x2010, 64, 0,
                        0, 64, 56, len(phdrs), 64, 0, 0))
    ph = b"".join(struct.pack("<IIQQQQQQ", t, f, off, 0xffffffff80000000
                              + pa, pa, fs, ms, 0x200000)
                  for t, f, off, pa, fs, ms in phdrs)
    body = bytearray((eh + ph).ljust(0x1D0, b"\0"))
    for i in range(0x100, 0x1D0):
        body[i] = (i * 7 + 1) & 0xFF
    return bytes(body) + bytes(range(64))


def bzimage(payload):
    setup = 5 * 512
    pm = bytes(0x40) + payload
    b = bytearray(setup)
    b[0x1F1] = 4
    struct.pack_into("<I", b, 0x1F4, (len(pm) + 15) // 16)
    struct.pack_into("<HBB4sHIHH", b, 0x1FE, 0xAA55, 0xEB, 0x6A, b"HdrS",
                     0x20F, 0, 0, 0x400)
    b[0x211] = 1
    struct.pack_into("<IIBBHI", b, 0x22C, 0x7FFFFFFF, 0x200000, 1, 0, 0x7F,
                     2047)
    struct.pack_into("<II", b, 0x248, 0x40, len(payload))
    struct.pack_into("<QI", b, 0x258, BASE, 0x4000)
    b[0x600:0x606] = b"6.18.0"
    return bytes(b) + pm


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    e = elf()
    gz = gzip.compress(e, compresslevel=9, mtime=0)
    seeds = {"seed-elf": b"\0" + e, "seed-gzip": b"\1" + gz,
             "seed-bzimage": b"\2" + bzimage(gz)}
    if shutil.which("zstd"):
        z = subprocess.run(["zstd", "-q", "-19", "-c"], input=e,
                           capture_output=True, check=True).stdout
        seeds["seed-zstd"] = b"\1" + z + struct.pack("<I", len(e))
    for name, data in seeds.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


main()
