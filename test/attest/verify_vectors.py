#!/usr/bin/env python3
# csvsm-verify against AMD's own data: the real Milan report in
# test/attest/amd-milan (virtee/sev's published data, see its README.md) must
# verify, and every copy with one byte changed (each of the 1184 report
# bytes, the VCEK, the chain) must not.
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
from expect import expect, finish  # noqa: E402

VERIFY, VEC = sys.argv[1], sys.argv[2]


def run(*args):
    p = subprocess.run([VERIFY, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def base(report=None, vcek=None, chain=None, extra=()):
    return run("--report", report or f"{VEC}/report.bin",
               "--vcek", vcek or f"{VEC}/vcek.der",
               "--chain", chain or f"{VEC}/ask_ark.pem", *extra)


with tempfile.TemporaryDirectory() as tmp:
    raw = open(f"{VEC}/report.bin", "rb").read()
    vcek = open(f"{VEC}/vcek.der", "rb").read()
    chain = open(f"{VEC}/ask_ark.pem").read()

    rc, out, err = base()
    expect(rc == 0 and "all 9 checks passed" in err,
           f"the Milan report verifies (rc {rc}: {err.strip()})")
    rc, _, _ = base(report=f"{VEC}/report.hex")
    expect(rc == 0, "the report as hex text verifies")
    pem = subprocess.run(["openssl", "x509", "-inform", "der", "-in",
                          f"{VEC}/vcek.der"], capture_output=True,
                         check=True).stdout
    open(f"{tmp}/vcek.pem", "wb").write(pem)
    rc, _, _ = base(vcek=f"{tmp}/vcek.pem")
    expect(rc == 0, "the VCEK as PEM verifies")

    rc, out, _ = base(extra=("--json",))
    j = json.loads(out)
    expect(rc == 0 and j["verified"] is True, "--json says verified")
    expect(j["report"]["version"] == 2 and j["report"]["vmpl"] == 0,
           "--json decodes version 2, VMPL 0")
    expect(j["report"]["chip_id"] == raw[0x1A0:0x1E0].hex(),
           "--json chip_id is bytes 0x1A0-0x1DF")
    expect(j["report"]["measurement"] == raw[0x90:0xC0].hex(),
           "--json measurement is bytes 0x90-0xBF")
    expect(j["report"]["reported_tcb"] ==
           int.from_bytes(raw[0x180:0x188], "little"),
           "--json reported_tcb is the u64 at 0x180")

    # Every byte, changed, must be rejected (exit 1, a named check).
    bad = f"{tmp}/bad.bin"
    accepted = []
    for i in range(len(raw)):
        b = bytearray(raw)
        b[i] ^= 0x01
        open(bad, "wb").write(b)
        rc, _, err = base(report=bad)
        if rc != 1 or "FAILED" not in err:
            accepted.append(i)
    expect(not accepted, f"every changed byte is rejected "
           f"(accepted at offsets {accepted[:8]})")

    # The VCEK with a changed signature byte, then with a changed key.
    b = bytearray(vcek)
    b[-10] ^= 0x01
    open(f"{tmp}/vcek-sig.der", "wb").write(b)
    rc, _, err = base(vcek=f"{tmp}/vcek-sig.der")
    expect(rc == 1 and "FAILED vcek-signed-by-ask" in err,
           "a VCEK whose signature changed is rejected")
    # Chain in the wrong order (ARK first): the ASK check fails.
    certs = chain.split("-----END CERTIFICATE-----\n")
    swapped = certs[1] + "-----END CERTIFICATE-----\n" + \
        certs[0] + "-----END CERTIFICATE-----\n"
    open(f"{tmp}/swapped.pem", "w").write(swapped)
    rc, _, err = base(chain=f"{tmp}/swapped.pem")
    expect(rc == 1 and "FAILED" in err, "a chain in ARK, ASK order fails")
    # The ASK as its own chain: not two certificates.
    open(f"{tmp}/one.pem", "w").write(certs[0] + "-----END CERTIFICATE-----\n")
    rc, _, _ = base(chain=f"{tmp}/one.pem")
    expect(rc == 2, "a chain of one certificate is an input error")
    # Truncated or padded reports are input errors, not verdicts.
    open(f"{tmp}/short.bin", "wb").write(raw[:-1])
    rc, _, _ = base(report=f"{tmp}/short.bin")
    expect(rc == 2, "a 1183-byte report is an input error")
    open(f"{tmp}/long.hex", "w").write(raw.hex() + "00")
    rc, _, _ = base(report=f"{tmp}/long.hex")
    expect(rc == 2, "hex of 1185 bytes is an input error")
    # A nonce and manifest that the report does not bind.
    open(f"{tmp}/m.bin", "wb").write(b"\0" * 24)
    rc, _, err = base(extra=("--nonce", "00" * 64, "--manifest",
                             f"{tmp}/m.bin"))
    expect(rc == 1 and "FAILED report-data" in err and
           "FAILED manifest-format" in err,
           "an unbound nonce and a bad manifest are named failures")
    rc, _, err = base(extra=("--measurement", raw[0x90:0xC0].hex()))
    expect(rc == 0, "the report's own measurement matches")
    rc, _, err = base(extra=("--measurement", "00" * 48))
    expect(rc == 1 and "FAILED measurement" in err,
           "a different expected measurement fails")
    rc, _, _ = run("--report", f"{VEC}/report.bin")
    expect(rc == 2, "missing --vcek and --chain is a usage error")

finish("verify-vectors")
