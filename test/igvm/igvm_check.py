#!/usr/bin/env python3
# csvsm-igvm against an independent reading of the IGVM format (the
# igvm_defs layouts, zlib's CRC32, hashlib's SHA-384): the image built
# from the SVSM ELF and Debian's OVMF holds every ELF page and every
# OVMF byte where they belong, the boot VMSA starts at the ELF entry at
# VMPL0, dump's counts and the measurement agree with this script's, a
# copy is byte-identical, and damaged files are refused.
import hashlib
import os
import struct
import subprocess
import sys
import tempfile
import zlib

TOOL, ELF, OVMF = sys.argv[1], sys.argv[2], sys.argv[3]
fails = 0
checks = 0


def expect(cond, what):
    global fails, checks
    checks += 1
    if not cond:
        fails += 1
        print(f"FAIL: {what}")


def run(*args):
    return subprocess.run([TOOL, *args], capture_output=True, text=True)


def elf_pages(path):
    b = open(path, "rb").read()
    entry, phoff = struct.unpack_from("<QQ", b, 0x18)
    phentsize, phnum = struct.unpack_from("<HH", b, 0x36)
    pages = {}
    for i in range(phnum):
        (ptype, _flags, off, _va, pa, filesz, memsz,
         _al) = struct.unpack_from("<IIQQQQQQ", b, phoff + i * phentsize)
        if ptype != 1 or memsz == 0:
            continue
        seg = b[off:off + filesz].ljust(memsz, b"\0")
        seg = seg.ljust((memsz + 4095) // 4096 * 4096, b"\0")
        for k in range(0, len(seg), 4096):
            pages[pa + k] = seg[k:k + 4096]
    return entry, pages


def parse(b):
    magic, ver, vho, vhs, total, crc = struct.unpack_from("<6I", b, 0)
    assert magic == 0x4D564749 and ver == 1 and total == len(b)
    hdr = bytearray(b[:vho + vhs])
    hdr[20:24] = b"\0\0\0\0"
    assert zlib.crc32(bytes(hdr)) == crc, "checksum"
    items, pos = [], vho
    while pos < vho + vhs:
        t, n = struct.unpack_from("<II", b, pos)
        items.append((t, b[pos + 8:pos + 8 + n]))
        pad = (8 + n + 7) // 8 * 8
        assert b[pos + 8 + n:pos + pad] == bytes(pad - 8 - n), "padding"
        pos += pad
    return items


def page_info(ld, gpa, ptype, contents):
    c = hashlib.sha384(contents).digest() if contents else bytes(48)
    return hashlib.sha384(ld + c + struct.pack("<HBBBBBBQ", 0x70, ptype, 0,
                                               0, 0, 0, 0, gpa)).digest()


with tempfile.TemporaryDirectory() as tmp:
    img = f"{tmp}/csvsm.igvm"
    r = run("build", "--svsm", ELF, "--ovmf", OVMF, "-o", img)
    expect(r.returncode == 0, f"build: {r.stderr}")
    b = open(img, "rb").read()
    items = parse(b)
    entry, want = elf_pages(ELF)
    ovmf = open(OVMF, "rb").read()
    for k in range(0, len(ovmf), 4096):
        want[(1 << 32) - len(ovmf) + k] = ovmf[k:k + 4096]

    got, types, counts, vmsas = {}, {}, {}, []
    ld = bytes(48)
    area = {}
    for t, body in items:
        if t == 0x302:
            gpa, mask, off, flags, dt, _r = struct.unpack("<QIIIHH", body)
            got[gpa] = b[off:off + 4096] if off else None
            types[gpa] = dt
            ptype = {1: 5, 2: 6, 3: 6}.get(dt, 1 if off else 3)
            counts[ptype] = counts.get(ptype, 0) + 1
            ld = page_info(ld, gpa, ptype, got[gpa] if ptype == 1 else None)
        elif t == 0x301:
            nbytes, idx, _off = struct.unpack("<QII", body)
            area[idx] = nbytes
        elif t == 0x303:
            gpa, _mask, idx = struct.unpack("<QII", body)
            for k in range(0, area[idx], 4096):
                ld = page_info(ld, gpa + k, 4, None)
                counts[4] = counts.get(4, 0) + 1
        elif t == 0x304:
            gpa, _mask, off, vp, _r = struct.unpack("<QIIHH", body)
            vmsas.append(b[off:off + 4096])
    for v in vmsas:
        ld = page_info(ld, 0xFFFFFFFFF000, 2, v)
        counts[2] = counts.get(2, 0) + 1

    missing = [hex(g) for g, p in want.items() if got.get(g) != p]
    expect(not missing, f"ELF and OVMF pages in place (wrong: {missing[:4]})")
    extra = [g for g in got if g not in want and types[g] == 0]
    expect(not extra, f"no NORMAL pages beyond the inputs: {extra[:4]}")
    expect(sorted(types.values()).count(1) == 1 and
           sorted(types.values()).count(2) == 1,
           "one secrets and one CPUID page")
    expect(len(vmsas) == 1, "one VP context")
    v = vmsas[0]
    expect(struct.unpack_from("<Q", v, 0x178)[0] == entry,
           "the VMSA's RIP is the ELF entry")
    expect(v[0xCA] == 0, "the boot VMSA is VMPL0")
    expect(struct.unpack_from("<Q", v, 0x3B0)[0] & 1 == 1,
           "SEV_FEATURES has SNPActive")
    expect(struct.unpack_from("<Q", v, 0xD0)[0] & 0x1000,
           "EFER.SVME is set")

    r = run("measure", img)
    expect(r.returncode == 0 and r.stdout.strip() == ld.hex(),
           f"measure equals the independent digest ({r.stdout.strip()} vs "
           f"{ld.hex()})")
    r = run("dump", img)
    line = [x for x in r.stdout.splitlines() if "SEV-SNP pages" in x]
    names = {1: "NORMAL", 2: "VMSA", 3: "ZERO", 4: "UNMEASURED",
             5: "SECRETS", 6: "CPUID"}
    want_counts = " ".join(f"{names[k]} {counts.get(k, 0)}"
                           for k in range(1, 7))
    expect(r.returncode == 0 and line and line[0].endswith(want_counts),
           f"dump's page counts: {line} vs {want_counts}")
    expect(r.stdout.count("PAGE_DATA") == len(got), "dump lists every page")

    r = run("copy", img, f"{tmp}/copy.igvm")
    expect(r.returncode == 0 and
           open(f"{tmp}/copy.igvm", "rb").read() == b,
           "copy is byte-identical (reader and writer agree)")

    bad = bytearray(b)
    bad[40] ^= 1
    open(f"{tmp}/bad.igvm", "wb").write(bad)
    r = run("dump", f"{tmp}/bad.igvm")
    expect(r.returncode == 1 and "checksum" in r.stderr,
           "a changed header byte fails the checksum")
    open(f"{tmp}/short.igvm", "wb").write(b[:-1])
    r = run("dump", f"{tmp}/short.igvm")
    expect(r.returncode == 1, "a truncated file is refused")
    # Non-zero padding with a correct checksum: still refused. The VP
    # context (20 bytes) is the structure with padding.
    vho, vhs = struct.unpack_from("<II", b, 8)
    pos, pad_at = vho, None
    while pos < vho + vhs:
        t, n = struct.unpack_from("<II", b, pos)
        if (8 + n) % 8:
            pad_at = pos + 8 + n
            break
        pos += (8 + n + 7) // 8 * 8
    expect(pad_at is not None, "the image has a padded structure")
    bad = bytearray(b)
    bad[pad_at] = 0xFF
    hdr = bytearray(bad[:vho + vhs])
    hdr[20:24] = b"\0\0\0\0"
    struct.pack_into("<I", bad, 20, zlib.crc32(bytes(hdr)))
    open(f"{tmp}/pad.igvm", "wb").write(bad)
    r = run("dump", f"{tmp}/pad.igvm")
    expect(r.returncode == 1 and "padding" in r.stderr,
           "non-zero padding is refused")
    # A different image gives a different measurement.
    r = run("build", "--svsm", ELF, "-o", f"{tmp}/noovmf.igvm")
    r2 = run("measure", f"{tmp}/noovmf.igvm")
    expect(r2.returncode == 0 and r2.stdout.strip() != ld.hex(),
           "without OVMF the measurement differs")

print(f"igvm-check: {checks - fails} passed, {fails} failed")
sys.exit(1 if fails else 0)
