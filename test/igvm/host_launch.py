#!/usr/bin/env python3
# The launch digest a real host computes for an IGVM image, read from the
# host's code rather than from csvsm's model (model/snp/psp_launch*.c,
# which this shares nothing with), and the host's acceptance rules:
# - QEMU 10.x, backends/igvm.c: PAGE_DATA gathered into regions of
#   consecutive like pages (qigvm_process_mem_page, qigvm_page_attrs_equal)
#   handed over when a page that does not extend the region arrives or the
#   file ends; PARAMETER_INSERT handed over at once, UNMEASURED; a region
#   without file data as zeros, which target/i386/sev.c gives KVM as NORMAL
#   pages (cgs_set_guest_state: CGS_PAGE_TYPE_ZERO -> launch_update_data);
# - QEMU, target/i386/sev.c: a VP context only at 0xFFFFFFFFF000 and with
#   only the fields sev_apply_cpu_context loads (check_vmsa_supported),
#   SEV features the host's KVM offers (check_sev_features), vp_index 0's
#   features for the whole VM;
# - KVM, arch/x86/kvm/svm/sev.c: at LAUNCH_FINISH a VMSA per vCPU in index
#   order, at GPA 0xFFFFFFFFF000 (snp_launch_update_vmsa), each the VMCB
#   save area KVM's setters built from QEMU's registers plus GPRs, XCR0,
#   DR6, FPU and the VM's features (sev_es_sync_vmsa); svm_set_cr0 clears
#   CD/NW, svm_set_cr4 adds the host's MCE, svm_set_efer sets SVME;
# - a vCPU without a VP context in QEMU's reset state (target/i386/cpu.c,
#   x86_cpu_reset_hold), which sev-snp-measure's QEMU VMSA matches;
# - the digest: SNP firmware ABI PAGE_INFO, SHA-384 chained.
#   host_launch.py TOOL SIG IMAGE...   (or imported: launch())
# For every IMAGE and N in 1 and 4: the rules hold, and `TOOL measure
# IMAGE --vcpus N --vcpu-sig SIG` prints this script's digest.
import hashlib
import os
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
from expect import expect, finish  # noqa: E402

VMSA_GPA = 0xFFFFFFFFF000
NORMAL, VMSA, UNMEASURED, SECRETS, CPUID = 1, 2, 4, 5, 6
SNP_ACTIVE, RESTRICTED_INJECTION, DEBUG_SWAP = 1 << 0, 1 << 3, 1 << 5
# What the host's KVM offers (KVM_X86_SEV_VMSA_FEATURES): a KVM built to
# host an SVSM offers Restricted Injection; upstream offers DebugSwap and
# Secure TSC (bit 9) only.
SVSM_HOST_FEATURES = RESTRICTED_INJECTION
UPSTREAM_FEATURES = DEBUG_SWAP | (1 << 9)


class Refused(Exception):
    pass


def headers(b):
    """(type, body) of every variable header."""
    magic, ver, vho, vhs = struct.unpack_from("<4I", b, 0)
    if magic != 0x4D564749 or ver != 1:
        raise Refused("not an IGVM file of format 1")
    out, pos = [], vho
    while pos < vho + vhs:
        t, n = struct.unpack_from("<II", b, pos)
        out.append((t, b[pos + 8:pos + 8 + n]))
        pos += (8 + n + 7) // 8 * 8
    return out


def page_info(ld, gpa, ptype, contents):
    c = hashlib.sha384(contents).digest() if contents is not None \
        else bytes(48)
    return hashlib.sha384(ld + c + struct.pack(
        "<HBBBBBBQ", 0x70, ptype, 0, 0, 0, 0, 0, gpa)).digest()


# VMSA offsets, AMD APM vol. 2 Table B-4.
SEGS = {"es": 0x00, "cs": 0x10, "ss": 0x20, "ds": 0x30, "fs": 0x40,
        "gs": 0x50, "gdtr": 0x60, "ldtr": 0x70, "idtr": 0x80, "tr": 0x90}
Q = {"efer": 0xD0, "cr4": 0x148, "cr3": 0x150, "cr0": 0x158, "dr7": 0x160,
     "dr6": 0x168, "rflags": 0x170, "rip": 0x178, "rsp": 0x1D8,
     "rax": 0x1F8, "g_pat": 0x268, "rcx": 0x308, "rdx": 0x310,
     "rbx": 0x318, "rbp": 0x328, "rsi": 0x330, "rdi": 0x338,
     "sev_features": 0x3B0, "xcr0": 0x3E8}
for k in range(8):
    Q[f"r{8 + k}"] = 0x340 + 8 * k
MXCSR, FCW, CPL = 0x408, 0x410, 0xCB


def get_seg(v, name):
    return struct.unpack_from("<HHIQ", v, SEGS[name])


def put_seg(v, name, sel, attrib, limit, base):
    struct.pack_into("<HHIQ", v, SEGS[name], sel, attrib, limit, base)


def q(v, name):
    return struct.unpack_from("<Q", v, Q[name])[0]


def check_vp_context(gpa, v, offered):
    """QEMU's check_vmsa_supported and check_sev_features, and KVM's
    refusal of a DR7 breakpoint in sev_es_sync_vmsa."""
    if gpa != VMSA_GPA:
        raise Refused(f"VP context at {gpa:#x}, not {VMSA_GPA:#x}")
    rest = bytearray(v)
    for off in SEGS.values():
        rest[off:off + 16] = bytes(16)
    for off in Q.values():
        rest[off:off + 8] = bytes(8)
    rest[MXCSR:MXCSR + 4] = bytes(4)
    rest[FCW:FCW + 2] = bytes(2)
    if any(rest):
        raise Refused("VMSA fields QEMU does not load: byte "
                      f"{next(i for i, x in enumerate(rest) if x):#x}")
    feat = q(v, "sev_features")
    if not feat & SNP_ACTIVE or feat & ~SNP_ACTIVE & ~offered:
        raise Refused(f"SEV features {feat:#x} beyond SNP and {offered:#x}")
    if q(v, "dr7") != 0x400:
        raise Refused("DR7 with a breakpoint")


def kvm_vmsa(img, sig, features):
    """The VMSA KVM measures for a vCPU QEMU loaded from img, or (img
    None) for one in QEMU's reset state."""
    v = bytearray(4096)
    if img is None:
        put_seg(v, "cs", 0xF000, 0x9B, 0xFFFF, 0xFFFF0000)
        for s in ("es", "ss", "ds", "fs", "gs"):
            put_seg(v, s, 0, 0x93, 0xFFFF, 0)
        put_seg(v, "ldtr", 0, 0x82, 0xFFFF, 0)
        put_seg(v, "tr", 0, 0x8B, 0xFFFF, 0)
        put_seg(v, "gdtr", 0, 0, 0xFFFF, 0)
        put_seg(v, "idtr", 0, 0, 0xFFFF, 0)
        regs = {"cr0": 0x60000010, "rflags": 2, "rip": 0xFFF0, "rdx": sig,
                "dr6": 0xFFFF0FF0, "dr7": 0x400, "xcr0": 1,
                "g_pat": 0x0007040600070406}
        mxcsr, fcw = 0x1F80, 0x37F
    else:
        for s in ("es", "cs", "ss", "ds", "fs", "gs", "ldtr"):
            sel, attrib, limit, base = get_seg(img, s)
            put_seg(v, s, sel, attrib & 0xFFF, limit, base)
        # QEMU 10.x takes TR's base from the VMSA's LDTR base.
        sel, attrib, limit, _ = get_seg(img, "tr")
        put_seg(v, "tr", sel, attrib & 0xFFF, limit, get_seg(img, "ldtr")[3])
        for s in ("gdtr", "idtr"):
            _, _, limit, base = get_seg(img, s)
            put_seg(v, s, 0, 0, limit & 0xFFFF, base)
        regs = {k: q(img, k) for k in Q if k != "sev_features"}
        mxcsr = struct.unpack_from("<I", img, MXCSR)[0]
        fcw = struct.unpack_from("<H", img, FCW)[0]
    regs["efer"] = regs.get("efer", 0) | 0x1000          # SVME
    regs["cr0"] &= ~((1 << 29) | (1 << 30))              # NW, CD
    regs["cr4"] = regs.get("cr4", 0) | 0x40              # the host's MCE
    regs["sev_features"] = features | SNP_ACTIVE
    for k, val in regs.items():
        struct.pack_into("<Q", v, Q[k], val)
    struct.pack_into("<I", v, MXCSR, mxcsr)
    struct.pack_into("<H", v, FCW, fcw)
    v[CPL] = (get_seg(v, "ss")[1] >> 5) & 3
    return bytes(v)


def launch(b, vcpus, sig, offered):
    """The digest, or Refused with the host's reason."""
    hs = headers(b)
    snp = [struct.unpack_from("<IBBHQ", body, 0)
           for t, body in hs if t == 0x1]
    masks = [m for m, _vtl, ptype, _ver, _sgb in snp if ptype == 2]
    if not masks:
        raise Refused("no SEV-SNP platform")
    mask = masks[0]
    policy = [struct.unpack_from("<QI", body)[0]
              for t, body in hs if t == 0x101
              if struct.unpack_from("<QI", body)[1] & mask]
    if not policy or not policy[0] & (1 << 17):
        raise Refused("no GUEST_POLICY with bit 17 (must be one) set")
    ld = bytes(48)
    areas, contexts = {}, {}
    region = []              # (gpa, type, data) pages of the open region
    prev, prev_index = None, -2

    def flush():
        nonlocal ld
        for gpa, ptype, data in region:
            ld = page_info(ld, gpa, ptype,
                           data if ptype == NORMAL else None)
        region.clear()

    directives = [(t, body) for t, body in hs if t >= 0x300]
    for index, (t, body) in enumerate(directives):
        if t == 0x302:                                  # PAGE_DATA
            gpa, m, off, flags, dtype, _ = struct.unpack_from(
                "<QIIIHH", body)
            if not m & mask:
                continue
            has = off != 0
            if prev is not None and not (
                    prev_index == index - 1 and
                    prev[0] + (0x200000 if prev[3] & 1 else 0x1000) == gpa
                    and prev[3] == flags and prev[4] == dtype and
                    prev[1] == m and (prev[2] != 0) == has):
                flush()
            prev, prev_index = (gpa, m, off, flags, dtype), index
            if flags & 1:
                raise Refused("2 MiB page data (not used by csvsm)")
            # qigvm_type_to_cgs_type: the shared flag plays no part.
            ptype = {1: SECRETS, 2: CPUID, 3: CPUID}.get(dtype, NORMAL)
            if ptype == NORMAL and flags & 2:
                ptype = UNMEASURED
            region.append((gpa, ptype, b[off:off + 4096] if has
                           else bytes(4096)))
        elif t == 0x301:                                # PARAMETER_AREA
            nbytes, idx, _ = struct.unpack_from("<QII", body)
            areas[idx] = nbytes
        elif t == 0x303:                                # PARAMETER_INSERT
            gpa, m, idx = struct.unpack_from("<QII", body)
            if m & mask:
                for k in range(0, areas[idx], 4096):
                    ld = page_info(ld, gpa + k, UNMEASURED, None)
        elif t == 0x304:                                # VP_CONTEXT
            gpa, m, off, vp, _ = struct.unpack_from("<QIIHH", body)
            if m & mask:
                v = b[off:off + 4096]
                check_vp_context(gpa, v, offered)
                if vp >= vcpus or vp in contexts:
                    raise Refused(f"VP context {vp} for {vcpus} vCPUs")
                contexts[vp] = v
    flush()
    if 0 not in contexts:
        raise Refused("no VP context for vCPU 0")
    features = q(contexts[0], "sev_features") & ~SNP_ACTIVE
    for vp in range(vcpus):
        ld = page_info(ld, VMSA_GPA, VMSA,
                       kvm_vmsa(contexts.get(vp), sig, features))
    return ld


def inserts_last(b):
    """b with its PARAMETER_INSERTs moved to just before its first
    VP_CONTEXT, after the page data: the layout whose file order and
    host order differ (the CPUID page's region is still open when the
    inserts arrive)."""
    _, _, vho, vhs = struct.unpack_from("<4I", b, 0)
    items, pos = [], vho
    while pos < vho + vhs:
        t, n = struct.unpack_from("<II", b, pos)
        pad = (8 + n + 7) // 8 * 8
        items.append((t, b[pos:pos + pad]))
        pos += pad
    ins = [raw for t, raw in items if t == 0x303]
    rest = [raw for t, raw in items if t != 0x303]
    at = next(i for i, raw in enumerate(rest)
              if struct.unpack_from("<I", raw)[0] == 0x304)
    out = bytearray(b)
    out[vho:vho + vhs] = b"".join(rest[:at] + ins + rest[at:])
    out[20:24] = bytes(4)
    struct.pack_into("<I", out, 20, zlib.crc32(bytes(out[:vho + vhs])))
    return bytes(out)


def main():
    tool, sig = sys.argv[1], int(sys.argv[2], 16)
    for img in sys.argv[3:]:
        b = open(img, "rb").read()
        name = os.path.basename(img)
        for n in (1, 4):
            try:
                want = launch(b, n, sig, SVSM_HOST_FEATURES).hex()
            except Refused as e:
                expect(False, f"{name}: a host with Restricted Injection "
                       f"refuses it: {e}")
                continue
            r = subprocess.run([tool, "measure", img, "--vcpus", str(n),
                                "--vcpu-sig", hex(sig)],
                               capture_output=True, text=True)
            expect(r.returncode == 0 and r.stdout.strip() == want,
                   f"{name}, {n} vCPU(s): csvsm-igvm measure equals the "
                   f"host's digest ({r.stdout.strip()[:16]}… vs "
                   f"{want[:16]}…)")
        try:
            launch(b, 1, sig, UPSTREAM_FEATURES)
            expect(False, f"{name}: upstream KVM refuses it (no Restricted "
                   "Injection), but this reading accepts it")
        except Refused as e:
            expect("SEV features" in str(e),
                   f"{name}: upstream KVM's QEMU refuses it: {e}")
    with tempfile.TemporaryDirectory() as tmp:
        b = open(sys.argv[3], "rb").read()
        moved = inserts_last(b)
        with open(f"{tmp}/moved.igvm", "wb") as f:
            f.write(moved)
        want = launch(moved, 4, sig, SVSM_HOST_FEATURES).hex()
        r = subprocess.run([tool, "measure", f"{tmp}/moved.igvm", "--vcpus",
                            "4", "--vcpu-sig", hex(sig)],
                           capture_output=True, text=True)
        expect(r.returncode == 0 and r.stdout.strip() == want and
               want != launch(b, 4, sig, SVSM_HOST_FEATURES).hex(),
               "inserts after the page data: the host's order (the inserts "
               "before the open region), not file order, in both readings")
    finish("igvm-host-check")


if __name__ == "__main__":
    main()
