#!/usr/bin/env python3
"""Make an SVSM attestation for another TPM's EKs, signed as the emulated
chip signs (build/pki's TEST VCEK key), so the CA's round trip can run on
swtpm, whose EKs no SVSM report binds. Only the tests use it: the key is
the emulated PSP's, and nothing made here verifies under AMD's chain.
  resign_report.py TEMPLATE VCEK_KEY NONCE_HEX OUT_REPORT OUT_MANIFEST \
      [--rsa TPMT_OR_2B] [--ecc TPMT_OR_2B] [--debug] [--vmpl N]
TEMPLATE is a report from csvsm-sim (its chip, TCB and MEASUREMENT are
kept); the manifest is a services table with the vTPM entry (RSA EK) and
csvsm's ECC EK entry (include/abi/csvsm_ek.h); REPORT_DATA is
SHA-512(nonce || manifest)."""
import hashlib
import struct
import subprocess
import sys
import uuid

MANIFEST_GUID = uuid.UUID("63849ebb-3d92-4670-a1ff-58f9c94b87bb").bytes_le
VTPM_GUID = uuid.UUID("c476f1eb-0123-45a5-9641-b4e7dde5bfe3").bytes_le
ECC_GUID = uuid.UUID("9707a83f-e42a-4a85-9fa8-dfe65260832a").bytes_le


def tpmt(path):
    b = open(path, "rb").read()
    if len(b) >= 2 and int.from_bytes(b[:2], "big") == len(b) - 2:
        return b[2:]  # a TPM2B_PUBLIC
    return b


def manifest(entries):
    off = 24 + 24 * len(entries)
    heads, data = b"", b""
    for guid, blob in entries:
        heads += guid + struct.pack("<II", off + len(data), len(blob))
        data += blob
    total = off + len(data)
    return MANIFEST_GUID + struct.pack("<II", total, len(entries)) + heads + data


def der_ints(sig):
    """r and s of a DER ECDSA-Sig-Value."""
    def item(b, i):
        tag, n = b[i], b[i + 1]
        i += 2
        if n & 0x80:
            k = n & 0x7F
            n = int.from_bytes(b[i:i + k], "big")
            i += k
        return tag, b[i:i + n], i + n
    _, seq, _ = item(sig, 0)
    _, r, j = item(seq, 0)
    _, s, _ = item(seq, j)
    return int.from_bytes(r, "big"), int.from_bytes(s, "big")


def main():
    a = sys.argv[1:]
    template, key, nonce, out_r, out_m = a[:5]
    opts = a[5:]
    entries, debug, vmpl = [], False, 0
    while opts:
        o = opts.pop(0)
        if o == "--rsa":
            entries.append((VTPM_GUID, tpmt(opts.pop(0))))
        elif o == "--ecc":
            entries.append((ECC_GUID, tpmt(opts.pop(0))))
        elif o == "--debug":
            debug = True
        elif o == "--vmpl":
            vmpl = int(opts.pop(0))
        else:
            sys.exit("resign_report.py: unknown option " + o)
    m = manifest(entries)
    r = bytearray(open(template, "rb").read())
    assert len(r) == 1184
    if debug:
        r[8:16] = (int.from_bytes(r[8:16], "little") | 1 << 19).to_bytes(8, "little")
    r[0x30:0x34] = struct.pack("<I", vmpl)
    r[0x50:0x90] = hashlib.sha512(bytes.fromhex(nonce) + m).digest()
    sig = subprocess.run(["openssl", "dgst", "-sha384", "-sign", key, "-binary"],
                         input=bytes(r[:0x2A0]), capture_output=True, check=True).stdout
    rr, ss = der_ints(sig)
    r[0x2A0:0x2E8] = rr.to_bytes(72, "little")
    r[0x2E8:0x330] = ss.to_bytes(72, "little")
    open(out_r, "wb").write(bytes(r))
    open(out_m, "wb").write(m)


if __name__ == "__main__":
    main()
