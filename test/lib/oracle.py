#!/usr/bin/env python3
"""The host's own reading of what the SVSM measures, for the Linux checks
(test/linux/check.py, the relying party in test/linux/relying_party.py).

Independent on purpose: csvsm computes the same values in C (the bzImage
in src/lib/bzimage.c, PCRs 8 and 9 in src/plat/snp/linux_measure.c and
`csvsm-igvm pcrs --linux`, tools/igvm/pcrs.c); a check that called that
code would share its bugs. This is written from the specifications alone
with hashlib and struct:
- PCR extend (TPM 2.0 Part 1, 17.6.2): new = SHA-256(old || digest).
- PCRs 8 and 9 in GRUB's scheme (docs/vtpm.md): 8 = the command line's
  bytes (its first line, no newline, no NUL); 9 = the kernel, then the
  initrd; each extended once into zeros.
- The bzImage's protected-mode part, which the SVSM measures as the
  kernel (Linux's Documentation/arch/x86/boot.rst): "HdrS" at 0x202,
  then everything after the boot sector and setup_sects sectors (the
  byte at 0x1F1; 0 means 4).
- A key's TPM name (TPM 2.0 Part 1, 16: Names): its nameAlg (SHA-256
  only here) then SHA-256 of the TPMT_PUBLIC, from a TPM2B_PUBLIC.
The startup_64 entry's kernel (the decompressed vmlinux) has its own
oracle, scripts/vmlinux-image.py.

    oracle.py tpm-name TPM2B-PUBLIC   prints the key's name as hex
    oracle.py linux-pcrs BZIMAGE INITRD CMDLINE-FILE
                                      prints PCR 8 and PCR 9 as hex
"""
import hashlib
import struct
import sys

ZERO = bytes(32)
TPM_ALG_SHA256 = 0x000B


def sha256(data):
    return hashlib.sha256(data).digest()


def extend(old, digest):
    """A PCR after extending OLD with DIGEST (both bytes)."""
    return sha256(old + digest)


def kernel_part(bzimage):
    """The protected-mode part of a bzImage's bytes, None if it has no
    "HdrS" signature."""
    if bzimage[0x202:0x206] != b"HdrS":
        return None
    sects = bzimage[0x1F1] or 4
    return bzimage[(sects + 1) * 512:]


def cmdline_of(data):
    """The measured command line from a command-line file's bytes."""
    return data.split(b"\n")[0]


def pcr8(cmdline):
    return extend(ZERO, sha256(cmdline))


def pcr9(kernel_digest, initrd):
    return extend(extend(ZERO, kernel_digest), sha256(initrd))


def tpm2b(tpmt):
    """A TPM2B_PUBLIC around a TPMT_PUBLIC (what tpm2_makecredential
    takes)."""
    return struct.pack(">H", len(tpmt)) + tpmt


def tpm_name(tpm2b_public):
    """The name of the key in a TPM2B_PUBLIC as hex, None unless its
    nameAlg (after the size and the type) is SHA-256."""
    if len(tpm2b_public) < 6:
        return None
    (alg,) = struct.unpack_from(">H", tpm2b_public, 4)
    if alg != TPM_ALG_SHA256:
        return None
    return "%04x" % alg + hashlib.sha256(tpm2b_public[2:]).hexdigest()


def read(path):
    with open(path, "rb") as f:
        return f.read()


def main(argv):
    if len(argv) == 3 and argv[1] == "tpm-name":
        name = tpm_name(read(argv[2]))
        if name is None:
            sys.exit(1)
        print(name)
        return
    if len(argv) == 5 and argv[1] == "linux-pcrs":
        part = kernel_part(read(argv[2]))
        if part is None:
            print(f"oracle: {argv[2]}: not a bzImage", file=sys.stderr)
            sys.exit(1)
        print(pcr8(cmdline_of(read(argv[4]))).hex(),
              pcr9(sha256(part), read(argv[3])).hex())
        return
    print("usage: oracle.py tpm-name TPM2B-PUBLIC\n"
          "       oracle.py linux-pcrs BZIMAGE INITRD CMDLINE-FILE",
          file=sys.stderr)
    sys.exit(2)


if __name__ == "__main__":
    main(sys.argv)
