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
  vmsa-elsewhere the boot VMSA at GPA 0x1000, guest RAM, where QEMU takes
                a VP context only at 0xFFFFFFFFF000 (checksum fixed)
  vmsa-field    the boot VMSA with CR2 set, a field QEMU does not load
                (KVM would measure another VMSA than the file's)
  vmsa-features the boot VMSA asking for DebugSwap, which the machine's
                KVM does not offer
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
    elif mode == "vmsa-elsewhere":
        body = next(b for t, b in structures(data) if t == VP_CONTEXT)
        struct.pack_into("<Q", data, body, 0x1000)
        fix_checksum(data)
    elif mode in ("vmsa-field", "vmsa-features"):
        # VP_CONTEXT: gpa u64, mask u32, file_offset u32: the VMSA's bytes
        # (APM vol. 2 Table B-4: CR2 at 0x240, SEV_FEATURES at 0x3B0),
        # outside the checksummed headers.
        body = next(b for t, b in structures(data) if t == VP_CONTEXT)
        vmsa = struct.unpack_from("<I", data, body + 12)[0]
        if mode == "vmsa-field":
            struct.pack_into("<Q", data, vmsa + 0x240, 1)
        else:
            feat = struct.unpack_from("<Q", data, vmsa + 0x3B0)[0]
            struct.pack_into("<Q", data, vmsa + 0x3B0, feat | 1 << 5)
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
