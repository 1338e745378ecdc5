#!/usr/bin/env python3
"""The loaded kernel a bzImage's startup_64 entry runs, computed apart
from csvsm's C code (tools/igvm/vmlinux.c), for the host's check of PCR 9
(test/linux/check.py --linux-entry startup_64; docs/linux.md, "The
startup_64 entry").

    vmlinux-image.py BZIMAGE     prints the SHA-256 of the loaded image

From Linux's boot protocol (Documentation/arch/x86/boot.rst): the
protected-mode part starts at (setup_sects + 1) * 512 (setup_sects 0
means 4); payload_offset (0x248) and payload_length (0x24C) name the
compressed vmlinux inside it. Debian's kernels compress with zstd
(decompressed by Debian's zstd tool), others may use gzip. The vmlinux is
an ELF64 file; the loaded image is each PT_LOAD segment's file bytes at
its p_paddr minus the first segment's, zero between, up to the end of the
last segment's file bytes.
"""

import gzip
import hashlib
import struct
import subprocess
import sys

PT_LOAD = 1


def die(msg):
    print(f"vmlinux-image: {msg}", file=sys.stderr)
    sys.exit(2)


def payload(bz):
    if len(bz) < 0x250 or bz[0x202:0x206] != b"HdrS":
        die("not a bzImage (no HdrS)")
    sects = bz[0x1F1] or 4
    pm = (sects + 1) * 512
    off, length = struct.unpack_from("<II", bz, 0x248)
    start = pm + off
    if length == 0 or start + length > len(bz):
        die("payload_offset/payload_length outside the file")
    return bz[start:start + length]


def decompress(data):
    if data[:4] == b"\x28\xb5\x2f\xfd":
        # Linux appends the decompressed size (u32) after the frame.
        r = subprocess.run(["zstd", "-d", "-c", "-q"], input=data[:-4],
                           stdout=subprocess.PIPE, check=False)
        if r.returncode != 0:
            die("zstd could not decompress the payload")
        return r.stdout
    if data[:2] == b"\x1f\x8b":
        return gzip.decompress(data[:-4])
    die(f"payload compression {data[:4].hex()} not handled here")
    return b""


def loaded_image(elf):
    if elf[:4] != b"\x7fELF" or elf[4] != 2:
        die("the payload is not an ELF64 vmlinux")
    phoff, = struct.unpack_from("<Q", elf, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", elf, 0x36)
    segs = []
    for i in range(phnum):
        p_type, _flags, p_offset, _vaddr, p_paddr, p_filesz, _memsz = \
            struct.unpack_from("<IIQQQQQ", elf, phoff + i * phentsize)
        if p_type == PT_LOAD:
            segs.append((p_paddr, p_offset, p_filesz))
    if not segs:
        die("no PT_LOAD segment")
    segs.sort()
    base = segs[0][0]
    end = max(paddr + filesz for paddr, _off, filesz in segs)
    image = bytearray(end - base)
    for paddr, off, filesz in segs:
        image[paddr - base:paddr - base + filesz] = elf[off:off + filesz]
    return bytes(image)


def main():
    if len(sys.argv) != 2:
        die("usage: vmlinux-image.py BZIMAGE")
    with open(sys.argv[1], "rb") as f:
        bz = f.read()
    image = loaded_image(decompress(payload(bz)))
    print(hashlib.sha256(image).hexdigest())


if __name__ == "__main__":
    main()
