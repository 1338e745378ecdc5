#!/usr/bin/env python3
# csvsm-verify's options that read the host's certificate table and hand
# a caller a manifest entry (docs/attestation.md): --certs must take the
# VCEK from a well-formed table (AMD's Milan VCEK for AMD's report,
# csvsm-sim's for the SVSM's), fall back to --vcek only when the table
# has none, and refuse every malformed table as an input error (status
# 2), even with --vcek; --vcek-out and --service ... --out must write
# only after the report verified, and a service the verified manifest
# lacks is status 6. Written in Python (struct, uuid) so that the tables
# are built independently of the C parser they test.
#   verify_outputs.py CSVSM-VERIFY CSVSM-SIM PKI-DIR MILAN-DIR
import os
import struct
import subprocess
import sys
import tempfile
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
from expect import expect, finish  # noqa: E402

VERIFY, SIM, PKI, MILAN = sys.argv[1:5]
VCEK = uuid.UUID("63da758d-e664-4564-adc5-f4b93be8accd").bytes_le
ASK = uuid.UUID("4ab7b379-bbac-4fe4-a02f-05aef327c782").bytes_le
VTPM = "c476f1eb-0123-45a5-9641-b4e7dde5bfe3"


def run(*args):
    p = subprocess.run([VERIFY, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def table(entries, tail=b"", pad=0):
    """entries: (guid, data) placed after the entries and the zero one;
    or (guid, offset, length) taken as written."""
    head = len(entries) * 24 + 24
    body = b""
    rows = b""
    for e in entries:
        if len(e) == 2:
            rows += e[0] + struct.pack("<II", head + len(body), len(e[1]))
            body += e[1]
        else:
            rows += e[0] + struct.pack("<II", e[1], e[2])
    return rows + bytes(24) + body + tail + bytes(pad)


with tempfile.TemporaryDirectory() as tmp:
    def put(name, data):
        path = f"{tmp}/{name}"
        open(path, "wb").write(data)
        return path

    # --- AMD's Milan report, its VCEK out of a table -----------------
    mvcek = open(f"{MILAN}/vcek.der", "rb").read()
    milan = ("--report", f"{MILAN}/report.bin",
             "--chain", f"{MILAN}/ask_ark.pem")
    good = put("milan.bin", table([(ASK, b"not a certificate"),
                                   (VCEK, mvcek)], pad=4096))
    rc, out, err = run(*milan, "--certs", good, "--vcek-out",
                       f"{tmp}/vcek-out.der")
    expect(rc == 0 and "all 9 checks passed" in err and
           "vcek: the certificate table's" in out,
           f"Milan verifies with the table's VCEK (rc {rc}: {err.strip()})")
    expect(open(f"{tmp}/vcek-out.der", "rb").read() == mvcek,
           "--vcek-out is the table's VCEK")

    # A table without a VCEK: --vcek decides, or nothing does.
    none = put("none.bin", table([(ASK, b"an ASK")]))
    rc, _, err = run(*milan, "--certs", none)
    expect(rc == 2 and "has no VCEK" in err, "no VCEK, no --vcek: status 2")
    rc, out, _ = run(*milan, "--certs", none, "--vcek", f"{MILAN}/vcek.der",
                     "--vcek-out", f"{tmp}/fallback.der")
    expect(rc == 0 and "vcek: the --vcek file" in out and
           not os.path.exists(f"{tmp}/fallback.der"),
           "no VCEK in the table: --vcek's, and no --vcek-out written")
    rc, _, _ = run(*milan, "--certs", put("empty.bin", bytes(24)),
                   "--vcek", f"{MILAN}/vcek.der")
    expect(rc == 0, "an empty table (the zero entry alone): --vcek's")

    # Malformed tables: input errors, --vcek or not.
    n = len(mvcek)
    bad = {
        "no zero entry": table([(VCEK, mvcek)])[:24] + mvcek,
        "too short for an entry": bytes(23),
        "a zero GUID with data": bytes(16) + struct.pack("<II", 48, 1) +
        bytes(24),
        "no certificate (length 0)": table([(VCEK, 48, 0)], tail=mvcek),
        "data over the entries": table([(VCEK, 24, n)], tail=mvcek),
        "data past the end": table([(VCEK, 48, n + 1)], tail=mvcek),
        "offset past the end": table([(VCEK, 0xFFFFFFF0, 0x20)]),
        "a GUID twice": table([(VCEK, mvcek), (VCEK, mvcek)]),
        "a VCEK with a trailing byte": table([(VCEK, mvcek + b"\0")]),
        "65 entries": table([(uuid.UUID(int=i + 1).bytes_le, b"x")
                             for i in range(64)] + [(VCEK, mvcek)]),
    }
    for what, data in bad.items():
        path = put("bad.bin", data)
        rc, _, err = run(*milan, "--certs", path, "--vcek-out",
                         f"{tmp}/bad.der")
        rc2, _, _ = run(*milan, "--certs", path, "--vcek",
                        f"{MILAN}/vcek.der")
        expect(rc == 2 and rc2 == 2 and "csvsm-verify:" in err and
               not os.path.exists(f"{tmp}/bad.der"),
               f"{what}: status 2 with and without --vcek "
               f"(got {rc}, {rc2}: {err.strip()})")
    expect(run(*milan, "--certs", put("ok64.bin", table(
        [(uuid.UUID(int=i + 1).bytes_le, b"x") for i in range(63)] +
        [(VCEK, mvcek)])))[0] == 0, "64 entries are allowed")

    # The table's VCEK that is not the chain's: a failed check, no file.
    ask_der = subprocess.run(
        ["openssl", "x509", "-outform", "der", "-in",
         f"{MILAN}/ask_ark.pem"], capture_output=True, check=True).stdout
    rc, _, err = run(*milan, "--certs", put("ask.bin", table([(VCEK,
                     ask_der)])), "--vcek-out", f"{tmp}/ask-out.der")
    expect(rc == 1 and "FAILED" in err and
           not os.path.exists(f"{tmp}/ask-out.der"),
           "the ASK offered as the VCEK fails, and is not written")

    # --- the SVSM's report on sim: its table, a service's entry -------
    nonce = os.urandom(64).hex()
    subprocess.run([SIM, "attest", "--nonce", nonce, "--out", tmp],
                   check=True, capture_output=True)
    man = open(f"{tmp}/manifest.bin", "rb").read()
    entries = {uuid.UUID(bytes_le=man[24 + 24 * i:40 + 24 * i]): struct.
               unpack_from("<II", man, 40 + 24 * i)
               for i in range(struct.unpack_from("<I", man, 20)[0])}
    off, ln = entries[uuid.UUID(VTPM)]
    svsm = ("--report", f"{tmp}/report.bin", "--certs", f"{tmp}/certs.bin",
            "--chain", f"{PKI}/ask_ark.pem", "--nonce", nonce,
            "--manifest", f"{tmp}/manifest.bin")

    def service(sid, out, *extra):
        if os.path.exists(out):
            os.remove(out)
        return run(*svsm, *extra, "--service", sid, "--out", out)

    rc, _, err = service("vtpm", f"{tmp}/ek.bin", "--vcek-out",
                         f"{tmp}/svsm-vcek.der")
    expect(rc == 0 and open(f"{tmp}/ek.bin", "rb").read() ==
           man[off:off + ln], f"--service vtpm is the manifest's vTPM "
           f"entry (rc {rc}: {err.strip()})")
    expect(open(f"{tmp}/svsm-vcek.der", "rb").read() ==
           open(f"{PKI}/vcek.der", "rb").read(),
           "the SVSM's table holds the build's VCEK")
    rc, _, _ = service(VTPM.upper(), f"{tmp}/ek2.bin")
    expect(rc == 0 and open(f"{tmp}/ek2.bin", "rb").read() ==
           man[off:off + ln], "the vTPM by its GUID, in capitals")
    soff, sln = entries[uuid.UUID("0113c032-dc0e-49e8-8cf5-51495e447c57")]
    rc, _, _ = service("vtpm-state", f"{tmp}/state.bin")
    expect(rc == 0 and open(f"{tmp}/state.bin", "rb").read() ==
           man[soff:soff + sln], "--service vtpm-state")
    rc, _, err = service("01234567-89ab-cdef-0123-456789abcdef",
                         f"{tmp}/absent.bin")
    expect(rc == 6 and "no entry for the service" in err and
           not os.path.exists(f"{tmp}/absent.bin"),
           f"a service the manifest lacks: status 6 (rc {rc})")

    # Nothing out of a report that did not verify.
    other = list(svsm)
    other[other.index("--nonce") + 1] = "00" * 64
    rc, _, err = run(*other, "--service", "vtpm", "--out",
                     f"{tmp}/unverified.bin")
    expect(rc == 1 and "FAILED report-data" in err and
           not os.path.exists(f"{tmp}/unverified.bin"),
           "another nonce: status 1, no entry written")
    dup = bytearray(man)
    dup[24 + 24:24 + 40] = dup[24:40]  # the second entry's GUID: the first's
    put("dup.bin", bytes(dup))
    other = list(svsm)
    other[other.index("--manifest") + 1] = f"{tmp}/dup.bin"
    rc, _, err = run(*other, "--service", "vtpm", "--out", f"{tmp}/dup.out")
    expect(rc == 1 and "appears twice" in err and
           not os.path.exists(f"{tmp}/dup.out"),
           "a manifest with one GUID twice fails manifest-format")

    # Usage: --service needs --out and a services manifest.
    for what, extra in {
        "--service without --out": ("--service", "vtpm"),
        "--out without --service": ("--out", f"{tmp}/x"),
        "not a GUID": ("--service", "c476f1eb-0123-45a5-9641-b4e7dde5bfe",
                       "--out", f"{tmp}/x"),
        "a GUID without dashes": ("--service", VTPM.replace("-", "") +
                                  "0000", "--out", f"{tmp}/x"),
        "--single-service": ("--single-service", "--service", "vtpm",
                             "--out", f"{tmp}/x"),
    }.items():
        rc, _, _ = run(*svsm, *extra)
        expect(rc == 2 and not os.path.exists(f"{tmp}/x"),
               f"{what}: status 2")
    rc, _, _ = run("--report", f"{tmp}/report.bin", "--chain",
                   f"{PKI}/ask_ark.pem", "--vcek-out", f"{tmp}/x")
    expect(rc == 2, "--vcek-out without --certs: status 2")

finish("verify-outputs")
