#!/usr/bin/env python3
# csvsm-igvm against an independent reading of the IGVM format (the
# igvm_defs layouts, zlib's CRC32, hashlib's SHA-384) and of x86-64 (the
# VMSA's long-mode state, a four-level page walk: AMD APM vol. 2): the
# image built from the snp firmware ELF and an OVMF with SVSM support
# (Debian trixie's, mk/ovmf.mk) holds every ELF page and every OVMF byte
# where they belong and OVMF's SEV metadata pages as that metadata says,
# the boot VMSA starts in 64-bit mode at the ELF entry at VMPL0 on page
# tables in the image that map the SVSM region (and only it) private with
# C-bit 51, dump's counts agree with this script's and the measurement with
# host_launch.py's reading of the host (QEMU and KVM), a
# copy is byte-identical, and damaged files are refused, as is an OVMF
# without an SVSM Calling Area section (Debian 12's).
#   igvm_check.py TOOL SVSM_ELF OVMF KERNEL_ELF NO_SVSM_OVMF
import gzip
import hashlib
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
from expect import expect, finish  # noqa: E402
from host_launch import launch  # noqa: E402

TOOL, ELF, OVMF, KERNEL, NO_SVSM_OVMF = sys.argv[1:6]
# A page-table entry's address bits (50:12; bit 51 is the C-bit).
PA_MASK = 0x0007FFFFFFFFF000
SEC_MEM, SECRETS, CPUID, SVSM_CAA, KERNEL_HASHES = 1, 2, 3, 4, 0x10


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


def sev_meta(fw):
    """The offset of OVMF's SEV metadata, read from the GUID table that
    ends 0x20 bytes before the end of the image (edk2's
    OvmfPkg/ResetVector: the footer GUID, the table's length before it,
    then entries {data, u16 length, GUID} from the end down; the SEV
    metadata entry holds the offset from the end of an "ASEV" header of
    16 bytes, then 12 bytes a section: base, size, type). None: none."""
    end = len(fw)
    if end < 0x32 or fw[end - 0x30:end - 0x20] != \
            bytes.fromhex("de82b596b21ff745baeaa366c55a082d"):
        return None
    tlen = struct.unpack_from("<H", fw, end - 0x32)[0]
    q, tstart, meta = end - 0x32, end - 0x20 - tlen, None
    while q > tstart:
        g = fw[q - 16:q]
        n = struct.unpack_from("<H", fw, q - 18)[0]
        if n < 18:
            return None
        if g == bytes.fromhex("666588dc4a989847a75e5585a7bf67cc"):
            meta = end - struct.unpack_from("<I", fw, q - n)[0]
        q -= n
    if meta is None or fw[meta:meta + 4] != b"ASEV":
        return None
    return meta


def sev_sections(fw):
    """OVMF's SEV metadata sections [(base, size, type)], or None."""
    meta = sev_meta(fw)
    if meta is None:
        return None
    return [struct.unpack_from("<III", fw, meta + 16 + 12 * k)
            for k in range(struct.unpack_from("<I", fw, meta + 12)[0])]


with tempfile.TemporaryDirectory() as tmp:
    img = f"{tmp}/csvsm.igvm"
    r = run("build", "--svsm", ELF, "--ovmf", OVMF, "-o", img)
    expect(r.returncode == 0, f"build: {r.stderr}")
    if r.returncode != 0:
        finish("igvm-check")  # every check below reads the image
    b = open(img, "rb").read()
    items = parse(b)
    entry, want = elf_pages(ELF)
    elf_lo = min(want)
    ovmf = open(OVMF, "rb").read()
    for k in range(0, len(ovmf), 4096):
        want[(1 << 32) - len(ovmf) + k] = ovmf[k:k + 4096]

    got, types, counts, vmsas = {}, {}, {}, []
    area, area_use, inserts, required = {}, {}, {}, []
    for t, body in items:
        if t == 0x302:
            gpa, mask, off, flags, dt, _r = struct.unpack("<QIIIHH", body)
            got[gpa] = b[off:off + 4096] if off else None
            types[gpa] = dt
            ptype = {1: 5, 2: 6, 3: 6}.get(dt, 1)
            counts[ptype] = counts.get(ptype, 0) + 1
        elif t == 0x301:
            nbytes, idx, _off = struct.unpack("<QII", body)
            area[idx] = nbytes
        elif t in (0x30C, 0x307):  # memory map, VP count: area, offset
            area_use[t] = struct.unpack("<II", body)[0]
        elif t == 0x303:
            gpa, _mask, idx = struct.unpack("<QII", body)
            inserts[idx] = gpa
            counts[4] = counts.get(4, 0) + area[idx] // 4096
        elif t == 0x304:
            gpa, _mask, off, vp, _r = struct.unpack("<QIIHH", body)
            vmsas.append(b[off:off + 4096])
        elif t == 0x305:  # required memory: gpa, mask, bytes, flags
            required.append(struct.unpack_from("<QII", body)[::2])
    counts[2] = len(vmsas)  # one vCPU
    # The digest as the host computes it (host_launch.py, from QEMU's and
    # KVM's code), for one vCPU.
    ld = launch(b, 1, 0, ~0)

    # OVMF's SEV metadata, read here from the image: SEC memory, the
    # secrets page, the Calling Area and the kernel hashes page (QEMU's
    # without kernel-hashes=on) as zero pages, its CPUID page as a CPUID
    # page.
    sections = sev_sections(ovmf)
    expect(sections is not None, "the OVMF has SEV metadata")
    caa = [base for base, _s, t in sections or [] if t == SVSM_CAA]
    expect(len(caa) == 1, "the OVMF has one SVSM Calling Area section")
    zero_pages, cpuid_pages, secrets_gpa = set(), set(), None
    for base, size, typ in sections or []:
        for off in range(0, size, 4096):
            (cpuid_pages if typ == CPUID else zero_pages).add(base + off)
        if typ == SECRETS:
            secrets_gpa = base
    expect(all(got.get(g, b"x") is None and types[g] == 0
               for g in zero_pages),
           "OVMF's SEC memory, secrets page, CA and kernel hashes page "
           "are zero pages")
    expect(all(types.get(g) == 2 for g in cpuid_pages),
           "OVMF's CPUID page is a CPUID page")
    # csvsm's boot parameters: the measured page after the memory map.
    params = [g for g in got if got[g] and got[g][:4] == b"CSVM"]
    expect(len(params) == 1, "one boot parameter page")
    if params:
        pb = got[params[0]]
        (_m, ver, sbase, ssize, psp, scpuid, mmap, vpc, shared, heap,
         sentry, gsec, gcpuid, gcaa, fwb, fws, rip, feats, vmpl, mode,
         _gcr3) = struct.unpack_from("<IIQQQQQQQQQQQQQQQQIIQ", pb)
        expect(sentry == entry, "boot parameters: the SVSM's entry")
        expect(feats & 1, "boot parameters: guest VMSAs are SNPActive")
        expect(mmap < shared and shared + 8 * 4096 <= heap,
               "boot parameters: eight shared pages before the heap")
        low = min([g for g in zero_pages | cpuid_pages if g > sbase] +
                  [sbase + (16 << 20)])
        expect(sbase == elf_lo and ssize == (low - sbase) & ~0x1FFFFF
               and psp < mmap < heap < sbase + ssize,
               "boot parameters: the SVSM region (16 MiB, or less before "
               "OVMF's pages), its heap last")
        expect(required == [(sbase, ssize)],
               f"the image requires the SVSM region's memory of its "
               f"loader, and no other ({required})")
        expect(inserts.get(area_use.get(0x30C)) == mmap and
               inserts.get(area_use.get(0x307)) == vpc and
               area_use.get(0x30C) != area_use.get(0x307) and
               sbase <= vpc < shared,
               "the loader's memory map and VP count go to their own "
               "pages in the SVSM region, before the shared pages")
        expect(ver == 3 and mode == 0 and gsec == secrets_gpa and
               gcpuid == min(cpuid_pages) and caa and gcaa == caa[0] and
               fwb == (1 << 32) - len(ovmf) and fws == len(ovmf) and
               rip == 0xFFF0 and vmpl == 1,
               "boot parameters name OVMF's pages, CA and reset vector")
        expect(types.get(psp) == 1 and types.get(scpuid) == 2,
               "boot parameters name the SVSM's secrets and CPUID pages")
        want[params[0]] = pb
    # The boot page tables, walked from the VMSA's CR3 through the
    # image's own pages: every 2 MiB of the SVSM region identity-mapped,
    # present, writable, C-bit 51 on every level; nothing else mapped.
    v = vmsas[0] if vmsas else bytes(4096)
    cbit = 1 << 51
    cr3 = struct.unpack_from("<Q", v, 0x150)[0]

    def table(pa):
        return got.get(pa & PA_MASK) or bytes(4096)

    def entries(pa):
        t = table(pa)
        return [(i, struct.unpack_from("<Q", t, 8 * i)[0]) for i in
                range(512) if struct.unpack_from("<Q", t, 8 * i)[0] & 1]

    mapped, bad = {}, []
    for i4, e4 in entries(cr3):
        for i3, e3 in entries(e4):
            for i2, e2 in entries(e3):
                va = (i4 << 39) | (i3 << 30) | (i2 << 21)
                if not (e4 & e3 & e2 & cbit) or not e2 & 0x80:
                    bad.append(hex(va))
                mapped[va] = e2
                want[e4 & PA_MASK] = table(e4)
                want[e3 & PA_MASK] = table(e3)
    want[cr3 & PA_MASK] = table(cr3)
    if params:
        region = set(range(sbase, sbase + ssize, 0x200000))
        expect(cr3 & cbit and not bad and set(mapped) == region and
               all(mapped[a] & 0x000FFFFFFFE00000 & ~cbit == a and
                   mapped[a] & 0x3 == 0x3 for a in region),
               f"the boot page tables map exactly the SVSM region, "
               f"private (wrong: {bad[:4]})")
    missing = [hex(g) for g, p in want.items() if got.get(g) != p]
    expect(not missing, f"ELF and OVMF pages in place (wrong: {missing[:4]})")
    extra = [g for g in got if g not in want and types[g] == 0 and
             g not in zero_pages]
    expect(not extra, f"no NORMAL pages beyond the inputs: {extra[:4]}")
    expect(list(types.values()).count(1) == 1 and
           list(types.values()).count(2) == 1 + len(cpuid_pages),
           "one secrets page, CPUID pages for the SVSM and OVMF")
    expect(len(vmsas) == 1, "one VP context")
    v = vmsas[0]
    expect(struct.unpack_from("<Q", v, 0x178)[0] == entry,
           "the VMSA's RIP is the ELF entry")
    expect(v[0xCA] == 0, "the boot VMSA is VMPL0")
    expect(struct.unpack_from("<Q", v, 0x3B0)[0] & 0x9 == 0x9,
           "SEV_FEATURES has SNPActive and Restricted Injection")
    expect(struct.unpack_from("<Q", v, 0xD0)[0] & 0x1D00 == 0x1D00,
           "EFER has SVME, LME, LMA and NXE")
    expect(struct.unpack_from("<Q", v, 0x158)[0] & 0x80010001 ==
           0x80010001 and struct.unpack_from("<Q", v, 0x148)[0] & 0x20,
           "CR0 has PG, WP and PE, CR4 has PAE: 64-bit paging")
    cs_sel, cs_attr = struct.unpack_from("<HH", v, 0x10)
    expect(cs_attr & 0x200 and not cs_attr & 0x400 and cs_sel == 0x18,
           "CS is a 64-bit code segment (L set, D clear), selector 0x18")
    expect(struct.unpack_from("<Q", v, 0x338)[0] == 0 and params and
           struct.unpack_from("<Q", v, 0x330)[0] == params[0],
           "RDI = 0 (the boot CPU), RSI = the boot parameters")

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
    # --kernel: a kernel without firmware (the emu test guest's ELF, as
    # an input only): its pages, its own page tables mapping the low
    # 4 GiB private with C-bit 51, its secrets page and CA after them,
    # and boot parameters that start it in 64-bit mode on those tables.
    kimg = f"{tmp}/kernel.igvm"
    r = run("build", "--svsm", ELF, "--kernel", KERNEL, "-o", kimg)
    expect(r.returncode == 0, f"build --kernel: {r.stderr}")
    kb = open(kimg, "rb").read()
    kgot, ktypes = {}, {}
    for t, body in parse(kb):
        if t == 0x302:
            gpa, _mask, off, _f, dt, _r = struct.unpack("<QIIIHH", body)
            kgot[gpa] = kb[off:off + 4096] if off else None
            ktypes[gpa] = dt
    kentry, kwant = elf_pages(KERNEL)
    kparams = [g for g in kgot if kgot[g] and kgot[g][:4] == b"CSVM"]
    expect(len(kparams) == 1, "--kernel: one boot parameter page")
    kp = struct.unpack_from("<IIQQQQQQQQQQQQQQQQIIQ", kgot[kparams[0]])
    (ksec, kcaa, kfwb, kfws, krip, kmode, kcr3) = (kp[11], kp[13], kp[14],
                                                   kp[15], kp[16], kp[19],
                                                   kp[20])
    kmissing = [hex(g) for g, p in kwant.items() if kgot.get(g) != p]
    expect(not kmissing, f"--kernel: its pages in place ({kmissing[:4]})")
    kend = max(kwant) + 4096
    pt = kcr3 & ~cbit
    expect(kmode == 1 and krip == kentry and kcr3 & cbit and pt == kend and
           kfwb == min(kwant) and kfws == pt + 6 * 4096 - kfwb,
           "--kernel: boot parameters start it in 64-bit mode at its "
           "entry; the launched range is its image and page tables")
    expect(ksec == pt + 6 * 4096 and kcaa == ksec + 4096 and
           kgot.get(ksec, b"x") is None and kgot.get(kcaa, b"x") is None,
           "--kernel: its secrets page and CA are zero pages after them")
    ok, leaves = True, 0
    pml4 = kgot.get(pt) or bytes(4096)
    pdpt_pa = struct.unpack_from("<Q", pml4, 0)[0]
    ok = ok and pdpt_pa & cbit and pdpt_pa & 3 == 3
    pdpt = kgot.get(pdpt_pa & 0xFFFFF000) or bytes(4096)
    for i in range(4):
        pde_pa = struct.unpack_from("<Q", pdpt, 8 * i)[0]
        ok = ok and pde_pa & cbit and pde_pa & 3 == 3
        pd = kgot.get(pde_pa & 0xFFFFF000) or bytes(4096)
        for j in range(512):
            e = struct.unpack_from("<Q", pd, 8 * j)[0]
            va = (i << 30) | (j << 21)
            ok = ok and e & 0x000FFFFFFFE00000 & ~cbit == va and \
                e & cbit and e & 0x83 == 0x83
            leaves += 1
    expect(ok and leaves == 2048,
           "--kernel: its tables identity-map the low 4 GiB with 2 MiB "
           "private pages")
    r = run("build", "--svsm", ELF, "--kernel", KERNEL, "--ovmf", OVMF,
            "-o", f"{tmp}/both.igvm")
    expect(r.returncode == 2, "--kernel with --ovmf is refused")

    # An OVMF without SVSM support (no SVSM Calling Area section in its
    # SEV metadata: edk2 before stable202405) runs PVALIDATE itself, which
    # faults at VMPL1: refused when building, and no image written.
    def refused_ovmf(what, fw):
        path, out = f"{tmp}/nosvsm.fd", f"{tmp}/nosvsm.igvm"
        open(path, "wb").write(fw)
        if os.path.exists(out):
            os.remove(out)
        r = run("build", "--svsm", ELF, "--ovmf", path, "-o", out)
        expect(r.returncode == 2 and "no SVSM Calling Area" in r.stderr and
               not os.path.exists(out),
               f"--ovmf refuses {what}: {r.stderr.strip()!r}")

    old = open(NO_SVSM_OVMF, "rb").read()
    old_types = [t for _b, _s, t in sev_sections(old) or []]
    expect(SEC_MEM in old_types and SECRETS in old_types and
           CPUID in old_types and SVSM_CAA not in old_types,
           f"{NO_SVSM_OVMF} has SEV metadata without a CA section "
           f"(types {old_types})")
    refused_ovmf(f"{NO_SVSM_OVMF}, without SVSM support", old)
    # The OVMF built above with its CA section made SEC memory: refused
    # too, so the CA section alone decides.
    nocaa, meta = bytearray(ovmf), sev_meta(ovmf)
    for k, (_b, _s, t) in enumerate(sections or []):
        if t == SVSM_CAA:
            struct.pack_into("<I", nocaa, meta + 16 + 12 * k + 8, SEC_MEM)
    refused_ovmf("the OVMF with its CA section made SEC memory",
                 bytes(nocaa))

    # --linux: a synthetic bzImage (the setup header as boot.rst lays it
    # out, a release string, a protected-mode part of random bytes), a
    # gzip-looking initrd and a command line become measured pages where
    # the boot parameters say; every refusal names its reason.
    def bzimage(version=0x20F, xlf=0x3, release=b"6.12.0-test",
                init_size=0x800000, pref=0x1000000, cmdline_size=2047,
                flag=0xAA55, kpart=os.urandom(3 * 4096 + 100), syssize=None,
                relocatable=1):
        setup = bytearray(5 * 512)  # setup_sects 4
        setup[0x1F1] = 4
        struct.pack_into("<I", setup, 0x1F4,
                         syssize if syssize is not None
                         else (len(kpart) + 15) // 16)
        struct.pack_into("<H", setup, 0x1FE, flag)
        setup[0x200:0x202] = bytes([0xEB, 0x6A])  # header ends at 0x26C
        setup[0x202:0x206] = b"HdrS"
        struct.pack_into("<H", setup, 0x206, version)
        struct.pack_into("<H", setup, 0x20E, 0x600 - 0x200)
        setup[0x600:0x600 + len(release) + 1] = release + b"\0"
        setup[0x211] = 0x01  # LOADED_HIGH
        struct.pack_into("<I", setup, 0x22C, 0x7FFFFFFF)
        struct.pack_into("<I", setup, 0x230, 0x200000)
        setup[0x234] = relocatable
        struct.pack_into("<H", setup, 0x236, xlf)
        struct.pack_into("<I", setup, 0x238, cmdline_size)
        struct.pack_into("<Q", setup, 0x258, pref)
        struct.pack_into("<I", setup, 0x260, init_size)
        return bytes(setup) + kpart

    def image_pages(path):
        data = open(path, "rb").read()
        pages, ptypes = {}, {}
        for t, body in parse(data):
            if t == 0x302:
                gpa, _mask, off, _f, dt, _r = struct.unpack("<QIIIHH", body)
                pages[gpa] = data[off:off + 4096] if off else None
                ptypes[gpa] = dt
        return pages, ptypes

    kpart = os.urandom(3 * 4096 + 100)
    bz = bzimage(kpart=kpart)
    open(f"{tmp}/bzImage", "wb").write(bz)
    initrd = b"\x1f\x8b" + os.urandom(5000)
    open(f"{tmp}/initrd", "wb").write(initrd)
    cmdline = "console=ttyS0 nokaslr no5lvl"
    limg = f"{tmp}/linux.igvm"
    r = run("build", "--svsm", ELF, "--linux", f"{tmp}/bzImage", "--initrd",
            f"{tmp}/initrd", "--cmdline", cmdline, "-o", limg)
    expect(r.returncode == 0, f"build --linux: {r.stderr}")
    lgot, ltypes = image_pages(limg)
    lparams = [g for g in lgot if lgot[g] and lgot[g][:4] == b"CSVM"]
    expect(len(lparams) == 1, "--linux: one boot parameter page")
    lp = lgot[lparams[0]] if lparams else bytes(4096)
    base = struct.unpack_from("<IIQQQQQQQQQQQQQQQQIIQ", lp)
    (lver, lsec, lcpuid, lcaa, lfws, lrip, lmode, lcr3) = (
        base[1], base[11], base[12], base[13], base[15], base[16], base[19],
        base[20])
    (hdr_gpa, kgpa, ksize, igpa, isize, cgpa, csize, zp, sd, gdt, ldr,
     ldr_size, acpi, acpi_size, pml5) = struct.unpack_from("<15Q", lp, 0x98)
    expect(lver == 3 and lmode == 2 and lfws == 0,
           "--linux: boot parameters version 3, entry mode LINUX")
    # The kernel at its pref_address (16 MiB), or, if the SVSM region
    # overlaps [pref_address, + init_size), at the next 2 MiB after it.
    lsbase, lssize = base[2], base[3]
    kwant = 0x1000000
    if kwant < lsbase + lssize and lsbase < kwant + 0x800000:
        kwant = (lsbase + lssize + 0x1FFFFF) // 0x200000 * 0x200000
    expect(kgpa == kwant and lrip == kgpa + 0x200 and ksize == len(kpart),
           "--linux: the relocatable kernel at pref_address 16 MiB, or "
           "after the SVSM region if that overlaps it, entry + 0x200")
    expect(all(lgot.get(kgpa + k) == kpart[k:k + 4096].ljust(4096, b"\0")
               for k in range(0, len(kpart), 4096)),
           "--linux: the protected-mode part is launched at its GPA")
    expect(igpa == (kgpa + 0x800000 + 0x1FFFFF) // 0x200000 * 0x200000 and
           isize == len(initrd) and
           all(lgot.get(igpa + k) == initrd[k:k + 4096].ljust(4096, b"\0")
               for k in range(0, len(initrd), 4096)),
           "--linux: the initrd is launched after init_size, 2 MiB aligned")
    expect(csize == len(cmdline) + 1 and lgot.get(cgpa) ==
           cmdline.encode().ljust(4096, b"\0"),
           "--linux: the command line is a measured page, NUL-terminated")
    expect(lgot.get(hdr_gpa) ==
           bytes(0x1F1) + bz[0x1F1:0x26C] + bytes(4096 - 0x26C),
           "--linux: the setup header copy sits at its boot_params "
           "offsets")
    g = lgot.get(gdt) or bytes(4096)
    expect(struct.unpack_from("<QQ", g, 0x10) ==
           (0x00AF9B000000FFFF, 0x00CF93000000FFFF),
           "--linux: the GDT has __BOOT_CS 0x10 (64-bit) and __BOOT_DS 0x18")
    expect(all(lgot.get(p, b"x") is None and ltypes.get(p) == 0
               for p in (zp, sd, lsec, lcaa)) and ltypes.get(lcpuid) == 2,
           "--linux: zero page, setup_data, secrets page and CA are zero "
           "pages; the guest's CPUID page a CPUID page")
    pages = {zp, sd, cgpa, gdt, hdr_gpa, lsec, lcpuid, lcaa, pml5}
    pt = lcr3 & ~cbit
    pages |= set(range(pt, pt + 6 * 4096, 4096))
    expect(struct.unpack_from("<Q", lgot.get(pml5) or bytes(8))[0] ==
           lcr3 | 3 and (lgot.get(pml5) or bytes(16))[8:] == bytes(4088),
           "--linux: a PML5 whose one entry is the PML4, private")
    expect(ldr == 0x70000 and ldr_size == 15 * 4096 and
           pages == set(range(ldr, ldr + ldr_size, 4096)) and
           acpi == 0x100000 and acpi_size == 0x40000,
           "--linux: the loader's 15 pages at 0x70000, 256 KiB of ACPI "
           "region at 1 MiB (q35's tables need 0x21000 bytes)")
    pml4 = lgot.get(pt) or bytes(4096)
    pdpt = lgot.get(struct.unpack_from("<Q", pml4, 0)[0] & 0xFFFFF000) or \
        bytes(4096)
    ok = lcr3 & cbit != 0
    for i in range(4):
        pde = struct.unpack_from("<Q", pdpt, 8 * i)[0]
        pd = lgot.get(pde & 0xFFFFF000) or bytes(4096)
        for j in range(512):
            e = struct.unpack_from("<Q", pd, 8 * j)[0]
            ok = ok and e & 0x000FFFFFFFE00000 & ~cbit == \
                (i << 30) | (j << 21) and e & cbit and e & 0x83 == 0x83
    expect(ok, "--linux: its tables identity-map the low 4 GiB, private")
    ld2 = launch(open(limg, "rb").read(), 1, 0, ~0)
    r = run("measure", limg)
    expect(r.returncode == 0 and r.stdout.strip() == ld2.hex(),
           "--linux: measure covers kernel, initrd and command line")
    # pcrs (docs/vtpm.md, "Measured boot"): PCR 9 = H(H(0) || H(kernel's
    # protected-mode part)) then || H(initrd); PCR 8 = H(0 || H(cmdline)),
    # per bank, recomputed here with hashlib.
    def want_pcrs(kernel_part, initrd_bytes, cmd):
        out = {}
        for bank in ("sha1", "sha256", "sha384", "sha512"):
            def ext(pcr, data):
                return hashlib.new(bank, pcr + hashlib.new(bank, data)
                                   .digest()).digest()
            zero = bytes(hashlib.new(bank).digest_size)
            p9 = ext(zero, kernel_part)
            if initrd_bytes:
                p9 = ext(p9, initrd_bytes)
            out[f"{bank} 8"] = ext(zero, cmd.encode()).hex()
            out[f"{bank} 9"] = p9.hex()
        return out

    def got_pcrs(*args):
        r = run("pcrs", *args)
        if r.returncode != 0:
            return {"error": r.stderr}
        return {" ".join(ln.split()[:2]): ln.split()[2]
                for ln in r.stdout.splitlines()}

    lwant = want_pcrs(kpart, initrd, cmdline)
    expect(got_pcrs(limg) == lwant,
           "pcrs IMAGE: PCRs 8 and 9 per bank equal hashlib's")
    expect(got_pcrs("--linux", f"{tmp}/bzImage", "--initrd", f"{tmp}/initrd",
                    "--cmdline", cmdline) == lwant,
           "pcrs --linux/--initrd/--cmdline: the same from the files")
    expect(got_pcrs("--linux", f"{tmp}/bzImage")
           == want_pcrs(kpart, b"", ""),
           "pcrs without initrd or command line")
    expect(run("pcrs", KERNEL).returncode != 0,
           "pcrs refuses a file that is not a Linux image")

    # The firmware's own log (the snp loader in the simulator,
    # test/sim/snp_linux_test.c: a 0xC3 kernel of 64 pages + 0x123
    # bytes, a zero initrd of 3 pages, an empty command line), parsed
    # and replayed by tpm2_eventlog, equals pcrs and hashlib.
    tests = os.path.join(os.path.dirname(TOOL), "csvsm-tests-snp")
    if os.path.exists(tests) and shutil.which("tpm2_eventlog"):
        logf = f"{tmp}/tcg.log"
        r = subprocess.run(
            [tests, "snp_linux.measures_kernel_initrd_and_command_line"],
            env=dict(os.environ, CSVSM_TCG_LOG_OUT=logf),
            capture_output=True, text=True)
        expect(r.returncode == 0 and os.path.exists(logf),
               f"the sim writes the firmware's event log: {r.stdout}")
        sim_k = b"\xC3" * (64 * 4096 + 0x123)
        sim_i = bytes(3 * 4096)
        fake = bytearray(5 * 512)
        fake[0x1F1] = 4
        open(f"{tmp}/sim-bz", "wb").write(bytes(fake) + sim_k)
        open(f"{tmp}/sim-initrd", "wb").write(sim_i)
        swant = want_pcrs(sim_k, sim_i, "")
        expect(got_pcrs("--linux", f"{tmp}/sim-bz", "--initrd",
                        f"{tmp}/sim-initrd", "--cmdline", "") == swant,
               "pcrs from the sim's inputs equals hashlib")
        r = subprocess.run(["tpm2_eventlog", logf], capture_output=True,
                           text=True)
        replay, bank = {}, None
        in_pcrs = False
        for ln in r.stdout.splitlines():
            if ln.startswith("pcrs:"):
                in_pcrs = True
            elif in_pcrs and ln.strip().endswith(":") and \
                    ln.startswith("  ") and not ln.startswith("    "):
                bank = ln.strip()[:-1]
            elif in_pcrs and bank and ":" in ln:
                idx, val = ln.split(":", 1)
                replay[f"{bank} {idx.strip()}"] = val.strip()[2:]
        expect(r.returncode == 0 and replay == swant,
               f"tpm2_eventlog replays the firmware's log to pcrs' values "
               f"({r.stderr.strip()!r})")
        expect(r.stdout.count("EV_IPL") == 3 and
               "Spec ID Event03" in r.stdout and
               "kernel_cmdline: " in r.stdout and
               "csvsm:linux" in r.stdout and "csvsm:initrd" in r.stdout,
               "tpm2_eventlog: the Spec ID event and three EV_IPL events")
    else:
        print("igvm-check: no csvsm-tests-snp or tpm2_eventlog: the "
              "firmware's log is not replayed")

    open(f"{tmp}/initrd2", "wb").write(initrd[:-1] + b"!")
    run("build", "--svsm", ELF, "--linux", f"{tmp}/bzImage", "--initrd",
        f"{tmp}/initrd2", "--cmdline", cmdline, "-o", f"{tmp}/l2.igvm")
    r2 = run("measure", f"{tmp}/l2.igvm")
    run("build", "--svsm", ELF, "--linux", f"{tmp}/bzImage", "--initrd",
        f"{tmp}/initrd", "--cmdline", cmdline + " quiet", "-o",
        f"{tmp}/l3.igvm")
    r3 = run("measure", f"{tmp}/l3.igvm")
    expect(r2.stdout.strip() not in ("", ld2.hex()) and
           r3.stdout.strip() not in ("", ld2.hex(), r2.stdout.strip()),
           "--linux: one byte of the initrd or the command line changes "
           "the measurement")

    def refused(what, want, kernel=None, initrd_bytes=initrd, cmd=cmdline,
                extra=()):
        kpath, ipath = f"{tmp}/bad-bz", f"{tmp}/bad-initrd"
        if kernel is not None:
            open(kpath, "wb").write(kernel)
        if initrd_bytes is not None:
            open(ipath, "wb").write(initrd_bytes)
        r = run("build", "--svsm", ELF, "--linux",
                kpath if kernel is not None else f"{tmp}/missing",
                *(("--initrd", ipath) if initrd_bytes is not None
                  else ("--initrd", f"{tmp}/missing")),
                "--cmdline", cmd, *extra, "-o", f"{tmp}/bad.igvm")
        expect(r.returncode == 2 and want in r.stderr,
               f"--linux refuses {what}: {r.stderr.strip()!r}")

    refused("a missing bzImage", "cannot read the kernel")
    refused("a corrupt bzImage (boot flag)", "no bzImage setup header",
            bzimage(flag=0x55AA))
    refused("a truncated bzImage", "truncated",
            bzimage(syssize=(len(kpart) + 15) // 16 + 64))
    refused("a file too short for a header", "too short", bz[:0x200])
    refused("boot protocol 2.11", "older than 2.12", bzimage(version=0x20B))
    refused("a kernel without a 64-bit entry", "XLF_KERNEL_64",
            bzimage(xlf=0x2))
    refused("Linux 6.1 (no SVSM support)", "older than 6.11",
            bzimage(release=b"6.1.0-28-amd64"))
    refused("a kernel without a release string", "cannot tell",
            bzimage(release=b"x"))
    refused("a command line longer than cmdline_size",
            "longer than the kernel takes", bz, cmd="x" * 2048)
    refused("a kernel too large for the layout", "too large",
            bzimage(init_size=0x7F000000))
    refused("a kernel not relocatable whose pref_address is the SVSM's",
            "inside the SVSM region",
            bzimage(pref=lsbase, relocatable=0))
    refused("a missing initrd", "cannot read the initrd", bz, None)
    refused("a corrupt initrd", "neither a cpio", bz, b"\0" * 512)
    refused("an empty initrd", "empty", bz, b"")
    r = run("build", "--svsm", ELF, "--kernel", KERNEL, "--linux",
            f"{tmp}/bzImage", "-o", f"{tmp}/both.igvm")
    expect(r.returncode == 2, "--kernel with --linux is refused")
    r = run("build", "--svsm", ELF, "--initrd", f"{tmp}/initrd", "-o",
            f"{tmp}/nolinux.igvm")
    expect(r.returncode == 2, "--initrd without --linux is refused")

    # --linux-entry startup_64 (docs/linux.md, "The startup_64 entry"):
    # the payload (a gzip vmlinux: two PT_LOAD segments from 16 MiB, a
    # gap, a NOTE, relocations after it) is decompressed and its segments
    # laid out at the kernel's GPA; PCR 9 covers those bytes.
    def vmlinux(entry=0x1002010):
        segs = [(1, 0x200, 0x1000000, 0x1100, 0x1800),
                (1, 0x1400, 0x1002000, 0x80, 0x3000),
                (4, 0x300, 0x1000100, 0x10, 0x10)]
        eh = (b"\x7fELF" + bytes([2, 1, 1]) + bytes(9) +
              struct.pack("<HHIQQQIHHHHHH", 2, 62, 1, entry, 64, 0, 0, 64,
                          56, len(segs), 64, 0, 0))
        ph = b"".join(struct.pack("<IIQQQQQQ", t, 5, off,
                                  0xffffffff80000000 + pa, pa, fs, ms,
                                  0x200000)
                      for t, off, pa, fs, ms in segs)
        body = bytearray((eh + ph).ljust(0x1480, b"\0"))
        body[0x200:0x1480] = os.urandom(0x1280)
        flat = bytes(body[0x200:0x1300]).ljust(0x2000, b"\0") + \
            bytes(body[0x1400:0x1480])
        return bytes(body) + os.urandom(64), flat

    def s64_bzimage(payload):
        b = bytearray(bzimage(kpart=bytes(0x40) + payload))
        struct.pack_into("<II", b, 0x248, 0x40, len(payload))
        return bytes(b)

    elf64, flat = vmlinux()
    open(f"{tmp}/bz64", "wb").write(
        s64_bzimage(gzip.compress(elf64, mtime=0)))
    simg = f"{tmp}/s64.igvm"
    r = run("build", "--svsm", ELF, "--linux", f"{tmp}/bz64", "--initrd",
            f"{tmp}/initrd", "--cmdline", cmdline, "--linux-entry",
            "startup_64", "-o", simg)
    expect(r.returncode == 0, f"build --linux-entry startup_64: {r.stderr}")
    sgot, _ = image_pages(simg)
    sp = next((sgot[g] for g in sgot if sgot[g] and sgot[g][:4] == b"CSVM"),
              bytes(4096))
    s_rip = struct.unpack_from("<Q", sp, 0x78)[0]
    s_kgpa, s_ksize = struct.unpack_from("<QQ", sp, 0xA0)
    s_igpa = struct.unpack_from("<Q", sp, 0xB0)[0]
    s_entry, s_res, s_span = struct.unpack_from("<IIQ", sp, 0x110)
    expect(struct.unpack_from("<I", sp, 4)[0] == 3 and s_entry == 1 and
           s_res == 0 and s_kgpa == kwant and s_ksize == len(flat) and
           s_span == 0x5000 and s_rip == s_kgpa + 0x2010,
           "startup_64: version 3, linux_entry 1, the span to the last "
           "p_memsz, the entry at e_entry's offset from the first p_paddr")
    expect(all(sgot.get(s_kgpa + k) == flat[k:k + 4096].ljust(4096, b"\0")
               for k in range(0, len(flat), 4096)),
           "startup_64: the segments are launched at their offsets, the "
           "gap zero")
    expect(s_igpa == (s_kgpa + 0x800000 + 0x1FFFFF) // 0x200000 * 0x200000,
           "startup_64: the initrd after init_size, as before")
    swant = want_pcrs(flat, initrd, cmdline)
    expect(got_pcrs(simg) == swant,
           "startup_64: pcrs IMAGE: PCR 9 covers the loaded kernel")
    expect(got_pcrs("--linux", f"{tmp}/bz64", "--initrd", f"{tmp}/initrd",
                    "--cmdline", cmdline, "--linux-entry", "startup_64")
           == swant, "startup_64: pcrs --linux-entry from the files")
    zstd = shutil.which("zstd")
    if zstd:
        z = subprocess.run([zstd, "-q", "-c"], input=elf64,
                           capture_output=True, check=True).stdout
        open(f"{tmp}/bz64z", "wb").write(
            s64_bzimage(z + struct.pack("<I", len(elf64))))
        expect(got_pcrs("--linux", f"{tmp}/bz64z", "--initrd",
                        f"{tmp}/initrd", "--cmdline", cmdline,
                        "--linux-entry", "startup_64") == swant,
               "startup_64: a zstd payload loads the same kernel")
    s64 = ("--linux-entry", "startup_64")
    refused("startup_64: an xz payload", "xz",
            s64_bzimage(b"\xfd7zXZ\0" + bytes(64)), extra=s64)
    past = bytearray(s64_bzimage(gzip.compress(elf64, mtime=0)))
    struct.pack_into("<I", past, 0x24C,
                     struct.unpack_from("<I", past, 0x24C)[0] + 1)
    refused("startup_64: a payload past the file", "not inside the file",
            bytes(past), extra=s64)
    refused("startup_64: an entry outside the segments", "entry point",
            s64_bzimage(gzip.compress(vmlinux(0x1001900)[0], mtime=0)),
            extra=s64)
    refused("startup_64: a gzip payload that lies", "does not decompress",
            s64_bzimage(gzip.compress(elf64, mtime=0)[:-4] +
                        struct.pack("<I", len(elf64) + 1)), extra=s64)
    refused("an unknown --linux-entry", "decompressor or startup_64", bz,
            extra=("--linux-entry", "startup_32"))

    # A different image gives a different measurement.
    r = run("build", "--svsm", ELF, "-o", f"{tmp}/noovmf.igvm")
    r2 = run("measure", f"{tmp}/noovmf.igvm")
    expect(r2.returncode == 0 and r2.stdout.strip() != ld.hex(),
           "without OVMF the measurement differs")

finish("igvm-check")
