#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write a broken copy of an IGVM image, for the machine's PSP to refuse.

  bad_image.py MODE IN OUT
  truncated     the file cut in half
  checksum      one byte of the variable headers changed, checksum kept
  vmsa-outside  the boot VMSA's GPA beyond the guest physical space the
                machine backs (checksum fixed)
  page-outside  one page's GPA beyond it (checksum fixed)
  page-twice    the second page's GPA the first's: launched twice
                (checksum fixed)
(A GPA above RAM but inside that space is backed, as QEMU's IGVM loader
makes memory for it: docs/emu.md, "Memory and the C-bit".)

Reads the format itself (IGVM, format version 1: a 24-byte fixed header,
then 8-byte-aligned type/length structures), independently of the C
reader it tests.
"""
import struct
import sys
import zlib

PAGE_DATA = 0x302
VP_CONTEXT = 0x304
OUTSIDE = 1 << 50  # beyond the 48 bits of guest physical space emu backs


def structures(data):
    var_off, var_size = struct.unpack_from("<II", data, 8)
    pos = var_off
    while pos + 8 <= var_off + var_size:
        typ, length = struct.unpack_from("<II", data, pos)
        yield typ & 0x7FFFFFFF, pos + 8
        pos += 8 + ((length + 7) & ~7)


def fix_checksum(data):
    var_off, var_size = struct.unpack_from("<II", data, 8)
    struct.pack_into("<I", data, 20, 0)
    struct.pack_into("<I", data, 20, zlib.crc32(bytes(data[:var_off + var_size])))


def main():
    mode, src, dst = sys.argv[1:4]
    data = bytearray(open(src, "rb").read())
    if mode == "truncated":
        data = data[: len(data) // 2]
    elif mode == "checksum":
        var_off = struct.unpack_from("<I", data, 8)[0]
        data[var_off + 8] ^= 0x01
    elif mode in ("vmsa-outside", "page-outside"):
        want = VP_CONTEXT if mode == "vmsa-outside" else PAGE_DATA
        body = next(b for t, b in structures(data) if t == want)
        struct.pack_into("<Q", data, body, OUTSIDE)
        fix_checksum(data)
    elif mode == "page-twice":
        pages = [b for t, b in structures(data) if t == PAGE_DATA]
        first = struct.unpack_from("<Q", data, pages[0])[0]
        struct.pack_into("<Q", data, pages[1], first)
        fix_checksum(data)
    else:
        sys.exit(f"bad_image.py: unknown mode {mode}")
    open(dst, "wb").write(data)


if __name__ == "__main__":
    main()
