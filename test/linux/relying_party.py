#!/usr/bin/env python3
"""What the host does with the Linux self-test's console output
(test/linux/csvsm-selftest), shared by test/linux/check.py (after the
boot) and scripts/linux-relying-party.sh (during it): the blobs back into
files, the SVSM's report verified as a relying party would, the vTPM's EK
out of the services manifest it binds. The blobs are the guest's and the
host's, hostile: nothing here parses them; csvsm-verify reads the
reports, the certificate tables and the manifest (tools/verify/, fuzzed),
test/lib/oracle.py computes the TPM name. Paths are the repository's
(build/bin, build/pki), from its top directory.

    relying_party.py answer CONSOLE-LOG DIR IMAGE WORD SMP AKNAME
    relying_party.py ekcert DIR KIND WORD

answer: the relying party's answer to the guest's credential request on
stdout (`CSVSM-CREDENTIAL HEX`, or `CSVSM-CREDENTIAL-REFUSED WHY` and
status 1): the report verified (MEASUREMENT: scripts/emu-measure.sh of
IMAGE at SMP vCPUs, none for "-", the nonce SHA-512 of WORD), AKNAME the
name of the AK public the guest printed, then `tpm2_makecredential -T
none` with the verified manifest's EK and 32 fresh bytes. DIR keeps
console.txt, blobs/, secret.bin, ek-public.bin (the TPM2B_PUBLIC used),
ak-name, credential.bin, measurement and rp.log.
ekcert: an EK certificate of KIND (rsa2048, ecc-p256) from csvsm-ekca
after an answer (`CSVSM-EKCERT HEX` or `CSVSM-EKCERT-REFUSED WHY`),
under the CA in $CSVSM_EKCA (default build/ekca); DIR/ekcert/ keeps it.
"""
import hashlib
import os
import re
import shutil
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
import oracle  # noqa: E402

BIN = "build/bin"
PKI = "build/pki"
# csvsm's ECC P-256 EK entry in the services manifest (abi/csvsm_ek.h).
ECC_EK_SERVICE = "9707a83f-e42a-4a85-9fa8-dfe65260832a"


def size(path):
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def read(path):
    with open(path, "rb") as f:
        return f.read()


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def lines_of(path):
    """A text file's lines ("" for none)."""
    try:
        with open(path, errors="replace") as f:
            return f.read().splitlines()
    except OSError:
        return []


def first(lines):
    return lines[0] if lines else ""


def last(lines):
    return lines[-1] if lines else ""


def matches(regex, lines):
    """Group 1 of each line REGEX matches, one a line (sed -n s//p)."""
    return "\n".join(m.group(1) for m in map(re.compile(regex).match, lines)
                     if m)


def clean_log(path):
    """A console log without carriage returns, as text."""
    return read(path).replace(b"\r", b"").decode("utf-8", "replace")


def nonce_of(word):
    """The nonce, as hex, for the guest's csvsm.nonce WORD."""
    return hashlib.sha512(word.encode()).hexdigest()


def gunzip(data):
    """gzip -dc: what decompresses, even of a damaged stream."""
    out = []
    d = zlib.decompressobj(31)
    try:
        for i in range(0, len(data), 4096):
            out.append(d.decompress(data[i:i + 4096]))
            if d.eof and d.unused_data:  # another member
                rest = d.unused_data
                d = zlib.decompressobj(31)
                out.append(d.decompress(rest))
    except zlib.error:
        pass
    return b"".join(out)


BEGIN = re.compile(r"^.*CSVSM-BLOB-BEGIN ([a-z0-9.-]*) .*$")


def extract_blobs(text, out, bad):
    """CSVSM-BLOB-BEGIN NAME SIZE SHA256 [gzip], CSVSM-HEX NAME HEX...,
    CSVSM-BLOB-END NAME; the hex is of the file's gzip when the BEGIN
    line says so. Text before the markers (a machine's prefix) is
    ignored. The last copy of a name wins. Each blob goes to OUT/NAME;
    one that is not the size and SHA-256 the guest sent is a failure
    blob-NAME."""
    lines = text.split("\n")
    names = sorted({m.group(1) for m in map(BEGIN.match, lines) if m})
    for n in names:
        if n in ("", ".", ".."):
            bad(f"blob-{n}", "not a file name")
            continue
        tag = f"CSVSM-BLOB-BEGIN {n} "
        at = max(i for i, line in enumerate(lines) if tag in line)
        fields = lines[at].split(tag, 1)[1].strip().split(None, 2)
        want_size = fields[0] if fields else ""
        want_sum = fields[1] if len(fields) > 1 else ""
        enc = fields[2] if len(fields) > 2 else ""
        hexre = re.compile(r"^.*CSVSM-HEX %s ([0-9a-f]*)$" % re.escape(n))
        endre = re.compile(r"CSVSM-BLOB-END %s$" % re.escape(n))
        hexes = []
        for line in lines[at:]:
            if endre.search(line):
                break
            m = hexre.match(line)
            if m:
                hexes.append(m.group(1))
        h = "".join(hexes)
        data = bytes.fromhex(h[:len(h) // 2 * 2])
        if enc == "gzip":
            data = gunzip(data)
        write(os.path.join(out, n), data)
        if (str(len(data)) != want_size
                or hashlib.sha256(data).hexdigest() != want_sum):
            bad(f"blob-{n}", f"not the {want_size} bytes (SHA-256 "
                f"{want_sum}) the guest sent")


def measurement(image, smp):
    """scripts/emu-measure.sh's MEASUREMENT of IMAGE at SMP vCPUs, None
    if it failed."""
    r = subprocess.run(["scripts/emu-measure.sh", image, str(smp)],
                       env=dict(os.environ, CSVSM_BIN=BIN),
                       stdout=subprocess.PIPE, text=True)
    return r.stdout.rstrip("\n") if r.returncode == 0 else None


class Verifier:
    """The reports in OUT verified with csvsm-verify, the build's PKI as
    the relying party's own, MEASURE its --measurement option (a list,
    empty for none); results through ok(WHAT) and bad(CHECK, WHY)."""

    def __init__(self, out, measure, ok, bad):
        self.out, self.measure, self.ok, self.bad = out, measure, ok, bad
        # csvsm-verify's arguments that verified the SVSM's report (less
        # the manifest), for manifest_entry; empty while none has.
        self.svsm_verified = []

    def path(self, name):
        return os.path.join(self.out, name)

    def verify_report(self, kind, vmpl, data, *extra):
        """ok or bad KIND-report; the arguments that verified it, or
        None. The VCEK is the one in KIND-certs.bin (the SVSM's or the
        host's table, through the extended guest request; a malformed
        table fails), kept as KIND-vcek.der once the report verified, or
        the build's when there is no table or it has none: the chain
        above it is always the build's, the relying party's own."""
        report = self.path(f"{kind}-report.bin")
        vcek_der = self.path(f"{kind}-vcek.der")
        if not os.path.isfile(report):
            self.bad(f"{kind}-report",
                     f"the guest printed no {kind}-report.bin")
            return None
        if os.path.lexists(vcek_der):
            os.remove(vcek_der)
        vcek = f"{PKI}/vcek.der"
        certs = []
        if os.path.isfile(self.path(f"{kind}-certs.bin")):
            certs = ["--certs", self.path(f"{kind}-certs.bin"),
                     "--vcek-out", vcek_der]
        txt = self.path(f"{kind}-verify.txt")
        err = self.path(f"{kind}-verify.err")
        with open(txt, "wb") as o, open(err, "wb") as e:
            st = subprocess.run([f"{BIN}/csvsm-verify", "--report", report,
                                 "--vcek", vcek, *certs, "--chain",
                                 f"{PKI}/ask_ark.pem", *self.measure, *extra],
                                stdout=o, stderr=e).returncode
        if st != 0:
            errs = lines_of(err)
            failed = "".join(f"{line} " for line in errs if "FAILED" in line)
            other = first([line for line in errs if "FAILED" not in line])
            self.bad(f"{kind}-report", f"csvsm-verify: {failed}{other}")
            return None
        got = lines_of(txt)
        got_vmpl = matches(r"^report: version [0-9]*, VMPL ([0-9]*),", got)
        got_data = matches(r"^  report data ([0-9a-f]*)$", got)
        why = ""
        if got_vmpl != str(vmpl):
            why = f"VMPL {got_vmpl or '?'}, not {vmpl}"
        elif data and got_data != data:
            why = "REPORT_DATA is not the nonce"
        if why:
            self.bad(f"{kind}-report", why)
            return None
        if size(vcek_der):
            vcek = vcek_der
        measured = ", MEASUREMENT" if self.measure else ""
        self.ok(f"{kind}-report (chain, signature, REPORT_DATA, VMPL {vmpl}"
                f"{measured}; VCEK {os.path.basename(vcek)})")
        return ["--report", report, "--vcek", vcek, "--chain",
                f"{PKI}/ask_ark.pem", *self.measure]

    def verify_svsm_report(self, nonce):
        """The SVSM's report: VMPL0, REPORT_DATA = SHA-512(nonce ||
        manifest), which csvsm-verify checks with the services manifest.
        True if it verified."""
        self.svsm_verified = []
        manifest = self.path("svsm-manifest.bin")
        if not os.path.isfile(manifest):
            self.bad("svsm-report", "the guest printed no svsm-manifest.bin")
            return False
        args = self.verify_report("svsm", 0, "", "--nonce", nonce,
                                  "--manifest", manifest)
        if args is None:
            return False
        self.svsm_verified = args + ["--nonce", nonce]
        return True

    def manifest_entry(self, manifest, service, out):
        """SERVICE's entry in a services manifest (vtpm: the vTPM's EK's
        TPMT_PUBLIC) to OUT, only out of a manifest the SVSM's report
        binds: csvsm-verify checks it again with what verify_svsm_report
        verified and then writes the entry (--service). False, OUT
        absent, when no report has verified, the report does not bind
        MANIFEST, or it has no such entry."""
        if os.path.lexists(out):
            os.remove(out)
        if not self.svsm_verified:
            return False
        return subprocess.run(
            [f"{BIN}/csvsm-verify", *self.svsm_verified, "--manifest",
             manifest, "--service", service, "--out", out],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL).returncode == 0

    def manifest_ek(self, manifest, out):
        return self.manifest_entry(manifest, "vtpm", out)

    def manifest_ek_ecc(self, manifest, out):
        """csvsm's ECC P-256 EK entry (its TPMT_PUBLIC), as manifest_ek."""
        return self.manifest_entry(manifest, ECC_EK_SERVICE, out)


def refused(rp, what, tag, why):
    try:
        with open(os.path.join(rp, "rp.log"), "a") as f:
            f.write(f"relying-party: {what}refused: {why}\n")
    except OSError:
        pass
    line = f"{tag}-REFUSED {why}".replace("\r", "").replace("\n", "")
    print(line[:200])
    print()  # as the answer always was: an empty line after a refusal
    sys.exit(1)


def answer(console, rp, image, word, smp, akname):
    out = os.path.join(rp, "blobs")
    shutil.rmtree(out, ignore_errors=True)
    for f in os.listdir(rp):
        if f.endswith(".bin") or f in ("ak-name", "measurement"):
            os.remove(os.path.join(rp, f))
    os.makedirs(out)
    fails = []
    log = os.path.join(rp, "rp.log")

    def ok(what):
        with open(log, "a") as f:
            f.write(f"relying-party: PASS {what}\n")

    def bad(check, why):
        fails.append(f"{check}: {why}")

    text = clean_log(console)
    with open(os.path.join(rp, "console.txt"), "w") as f:
        f.write(text)
    extract_blobs(text, out, bad)
    measure = []
    if image != "-":
        m = measurement(image, smp)
        if m is None:
            bad("measure", f"csvsm-igvm measure {image} --vcpus {smp} failed")
        measure = ["--measurement", m or ""]
        # For the EK certificate's request, later in this boot.
        with open(os.path.join(rp, "measurement"), "w") as f:
            f.write(m or "")
    v = Verifier(out, measure, ok, bad)
    ek = os.path.join(out, "manifest-ek.bin")
    ak = os.path.join(out, "ak-public.bin")
    why = ""
    if fails:
        why = fails[0]
    elif not v.verify_svsm_report(nonce_of(word)):
        why = fails[0]
    elif not v.manifest_ek(os.path.join(out, "svsm-manifest.bin"), ek):
        why = "the verified services manifest has no vTPM entry"
    elif not size(ak):
        why = "the guest printed no ak-public.bin"
    elif oracle.tpm_name(read(ak)) != akname:
        why = "AKNAME is not the name of the AK public the guest printed"
    else:
        ek_public = os.path.join(rp, "ek-public.bin")
        secret = os.path.join(rp, "secret.bin")
        write(ek_public, oracle.tpm2b(read(ek)))
        write(secret, os.urandom(32))
        with open(os.path.join(rp, "ak-name"), "w") as f:
            f.write(akname + "\n")
        err = os.path.join(rp, "makecredential.err")
        with open(err, "wb") as e:
            st = subprocess.run(
                ["tpm2_makecredential", "-T", "none", "-u", ek_public,
                 "-s", secret, "-n", akname,
                 "-o", os.path.join(rp, "credential.bin")],
                stdout=subprocess.DEVNULL, stderr=e).returncode
        if st != 0:
            why = f"tpm2_makecredential: {last(lines_of(err))}"
            os.remove(secret)
    if why:
        refused(rp, "", "CSVSM-CREDENTIAL", why)
    with open(log, "a") as f:
        f.write(f"relying-party: credential for AK {akname} with the "
                "manifest's EK\n")
    print("CSVSM-CREDENTIAL " + read(os.path.join(rp, "credential.bin")).hex())


def ekcert(rp, kind, word):
    """An EK certificate (docs/vtpm.md, "EK certificates"), asked for
    after the credential: csvsm-ekca verifies the SVSM's report again on
    its own (chain, VMPL 0, no DEBUG, the MEASUREMENT of the image, the
    nonce and manifest) and certifies the EKs the manifest binds (the
    RSA one must be the guest's tpm2_createek one) under the CA (made on
    first use)."""
    ekca = os.environ.get("CSVSM_EKCA", "build/ekca")
    out = os.path.join(rp, "blobs")
    certs = os.path.join(rp, "ekcert")
    shutil.rmtree(certs, ignore_errors=True)
    os.makedirs(certs)
    why = ""
    if not size(os.path.join(rp, "ek-public.bin")):
        why = "no report verified in this boot (no credential answered)"
    elif not os.path.exists(os.path.join(rp, "measurement")):
        why = "no MEASUREMENT to trust (the image is -)"
    else:
        vcek = os.path.join(out, "svsm-vcek.der")
        if not size(vcek):
            vcek = f"{PKI}/vcek.der"
        err = os.path.join(rp, "ekca.err")
        with open(err, "wb") as e:
            st = subprocess.run(
                [f"{BIN}/csvsm-ekca", "--ca", ekca, "--out", certs,
                 "--report", os.path.join(out, "svsm-report.bin"),
                 "--vcek", vcek, "--chain", f"{PKI}/ask_ark.pem",
                 "--nonce", nonce_of(word),
                 "--manifest", os.path.join(out, "svsm-manifest.bin"),
                 "--measurement",
                 read(os.path.join(rp, "measurement")).decode(),
                 "--ek-public", os.path.join(out, "ek-public.bin")],
                stdout=subprocess.DEVNULL, stderr=e).returncode
        if st != 0:
            why = f"csvsm-ekca: {last(lines_of(err))}"
        if kind not in ("rsa2048", "ecc-p256"):
            why = f"no EK kind '{kind}'"
        if not why and not size(os.path.join(certs, f"ek-{kind}.der")):
            why = f"csvsm-ekca issued no {kind} EK certificate"
    if why:
        refused(rp, "EK certificate ", "CSVSM-EKCERT", why)
    with open(os.path.join(rp, "rp.log"), "a") as f:
        f.write("relying-party: EK certificate issued for the manifest's "
                f"{kind} EK\n")
    print("CSVSM-EKCERT " + read(os.path.join(certs, f"ek-{kind}.der")).hex())


def main(argv):
    # The guest waits for an answer: a bug here is a refusal, not silence.
    if len(argv) == 8 and argv[1] == "answer":
        try:
            answer(*argv[2:8])
        except Exception as e:  # noqa: BLE001
            refused(argv[3], "", "CSVSM-CREDENTIAL", f"relying party: {e!r}")
    elif len(argv) == 5 and argv[1] == "ekcert":
        try:
            ekcert(*argv[2:5])
        except Exception as e:  # noqa: BLE001
            refused(argv[2], "EK certificate ", "CSVSM-EKCERT",
                    f"relying party: {e!r}")
    else:
        print("usage: relying_party.py answer CONSOLE-LOG DIR IMAGE WORD "
              "SMP AKNAME\n       relying_party.py ekcert DIR KIND WORD",
              file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main(sys.argv)
