#!/usr/bin/env python3
# The snp firmware ELF (build/snp/csvsm-snp.elf) against what its
# hardware layer assumes, read independently of the C: the x86-64 ELF
# layout (program headers, symbol table) and the instruction encodings
# of AMD's APM (PVALIDATE F2 0F 01 FF, RMPADJUST F3 0F 01 FE, REP MOVSB
# F3 A4, REP STOSB F3 AA, XCHG r8/m8 86). Nothing here runs the image:
# SNP hardware is not available to CI.
#   - it is linked at 512 GiB (2 MiB aligned: above any guest RAM, where
#     OVMF never validates), its entry is its first byte;
#   - W^X: one executable segment, read-only; no segment writable and
#     executable;
#   - the fixup table has one entry per fault-tolerant instruction, each
#     naming such an instruction in the text and a recovery point after
#     it in the same routine;
#   - the entry code, up to the call into C, has no instruction that
#     SEV-ES would turn into #VC (CPUID, IN/OUT, RDMSR, INVD, WBINVD, ...).
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
from expect import expect, finish  # noqa: E402

ELF = sys.argv[1]
b = open(ELF, "rb").read()


entry, phoff, shoff = struct.unpack_from("<QQQ", b, 0x18)
phentsize, phnum, shentsize, shnum, shstrndx = struct.unpack_from(
    "<HHHHH", b, 0x36)
loads = []
for i in range(phnum):
    ptype, flags, off, va, pa, filesz, memsz, _al = struct.unpack_from(
        "<IIQQQQQQ", b, phoff + i * phentsize)
    if ptype == 1:
        loads.append((flags, off, va, pa, filesz, memsz))

# Symbols (.symtab with its .strtab).
secs = [struct.unpack_from("<IIQQQQIIQQ", b, shoff + i * shentsize)
        for i in range(shnum)]
syms = {}
for s in secs:
    if s[1] == 2:  # SHT_SYMTAB
        strtab = secs[s[6]]
        for k in range(s[5] // 24):
            name, _info, _o, _sh, value, _size = struct.unpack_from(
                "<IBBHQQ", b, s[4] + 24 * k)
            end = b.index(b"\0", strtab[4] + name)
            syms[b[strtab[4] + name:end].decode()] = value

base = min(va for _f, _o, va, _p, _fs, _ms in loads)
expect(base == 512 << 30 and base % (2 << 20) == 0 and entry == base and
       syms.get("_start") == entry,
       "linked at 512 GiB, entry _start at its first byte")
expect(all(va == pa for _f, _o, va, pa, _fs, _ms in loads),
       "identity: every segment's address is its physical address")
text = [seg for seg in loads if seg[0] & 1]
expect(len(text) == 1 and text[0][0] == 5,
       "one executable segment, read-only (R+X)")
expect(not any(f & 3 == 3 for f, *_ in loads), "no segment is W+X")
t_flags, t_off, t_va, _pa, t_size, _ms = text[0]


def code(va, n):
    return b[t_off + va - t_va:t_off + va - t_va + n]


FAULTING = {
    b"\xf2\x0f\x01\xff": "pvalidate",
    b"\xf3\x0f\x01\xfe": "rmpadjust",
    b"\xf3\xa4": "rep movsb",
    b"\xf3\xaa": "rep stosb",
    b"\x86\x07": "xchg %al,(%rdi)",
}
lo, hi = syms.get("__fixup_start"), syms.get("__fixup_end")
expect(lo is not None and hi is not None and (hi - lo) % 16 == 0,
       "the fixup table's bounds")
ro = [seg for seg in loads if seg[2] <= (lo or 0) < seg[2] + seg[4]]
found = []
if ro and lo is not None:
    _f, r_off, r_va, *_ = ro[0]
    for k in range((hi - lo) // 16):
        insn, recover = struct.unpack_from("<QQ", b, r_off + lo - r_va + 16 * k)
        kind = next((n for op, n in FAULTING.items()
                     if code(insn, len(op)) == op), None)
        ok = (t_va <= insn < t_va + t_size and kind is not None and
              insn < recover < insn + 64)
        expect(ok, f"fixup {k}: {insn:#x} -> {recover:#x} names a "
               f"fault-tolerant instruction ({kind})")
        found.append(kind)
expect(sorted(found) == sorted(FAULTING.values()),
       f"one fixup for each fault-tolerant instruction: {found}")

# The entry code before C: disassembled by binutils' objdump.
# From _start up to the termination path (set_fs_block included); its one
# WRMSR is to FS base, which SEV-ES does not intercept
# (docs/running-on-snp.md lists that assumption).
start, stop = syms.get("_start"), syms.get("terminate")
dis = subprocess.run(
    ["objdump", "-d", "--no-show-raw-insn", f"--start-address={start}",
     f"--stop-address={stop}", ELF], capture_output=True, text=True).stdout
mnemonics = [ln.split("\t")[1].split()[0] for ln in dis.splitlines()
             if ln.startswith(" ") and "\t" in ln and
             len(ln.split("\t")) > 1 and ln.split("\t")[1].strip()]
trapping = {"cpuid", "in", "out", "inb", "outb", "ins", "outs", "rdmsr",
            "invd", "wbinvd", "rdpmc", "monitor", "mwait", "rdtscp"}
expect(len(mnemonics) > 5 and not trapping & set(mnemonics) and
       mnemonics.count("wrmsr") == 1 and "rdrand" in mnemonics,
       f"the entry code before C has nothing that raises #VC: "
       f"{sorted(set(mnemonics))}")
expect("call" in mnemonics and mnemonics.count("call") >= 3,
       "the entry code calls set_fs_block and the C entry points")

finish("snp-image-check")
