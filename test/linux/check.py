#!/usr/bin/env python3
"""The host's half of the Linux guest's self-test (test/linux/csvsm-selftest):
take the attestation blobs the guest printed as hex out of its console
log, keep them as files, verify them as a relying party would, and pass
only if the guest's own checks passed too (docs/linux.md).

    check.py [--nonce WORD] [--smp N] [--kernel F] [--initrd F]
             [--cmdline F] [--credential DIR]
             [--linux-entry decompressor|startup_64]
             [--uefi firmware|none] LOG OUTDIR IMAGE

OUTDIR gets nonce.bin, svsm-report.bin, svsm-manifest.bin, svsm-certs.bin,
plain-report.bin, plain-certs.bin, the vTPM's pcr16-*.bin, ek-public.bin,
ak-public.bin, quote-*.bin, pcrs.bin, eventlog.bin (those the guest
printed), and the VCEKs found in the certificate tables. IMAGE is the
IGVM image that booted: the reports' MEASUREMENT must equal `csvsm-igvm
measure IMAGE` for --smp vCPUs on the emulated machine's CPU
(scripts/emu-measure.sh; "-" skips that check, for logs from elsewhere).
WORD is the guest's csvsm.nonce (default csvsm-linux-selftest): the nonce
is computed here, not read from the log. --smp N: every one of N CPUs
must have come online. The vTPM's blobs (tpm2-tools in the guest) are
checked with the host's tpm2-tools and test/lib/oracle.py (the host's
own reading of what the SVSM measures, apart from csvsm's C code): PCR
16's extend, the EK against the services manifest, the quote
(tpm2_checkquote, nonce SHA-256 of the nonce), and PCRs 8 and 9 and the
event log against the kernel, initrd and command line that booted
(--kernel, --initrd, --cmdline: default build/linux/vmlinuz, initrd.img,
and cmdline, whose one line is it).
--uefi firmware|none: Linux booted through OVMF (mk/uefi.mk), which
measured the boot into the vTPM (firmware) or had no driver for it
(none). The quote covers PCRs 0-9 and 16; with firmware, the event log is
OVMF's from securityfs, replayed by tpm2_eventlog to every quoted PCR
0-9, PCR 4 holds the bzImage's Authenticode digest as Debian's pesign
computes it and PCR 9 the initrd's (the EFI stub's); with none, PCRs 0-9
are zero and there is no log.
The AK's binding to the EK: DIR is what scripts/linux-relying-party.sh
kept of the credential it made during the boot; it must have been made
with the verified manifest's EK for the name of the quote's AK, and the
secret the guest says it recovered must be DIR's secret.bin.
Results as "linux-check: PASS|FAIL CHECK..." lines (test/lib/expect.py),
then "linux-check: N passed, M failed"; status 1 on a failure, 2 on a
wrong argument. Run from the repository's top directory.
"""
import glob
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, HERE)
import oracle  # noqa: E402
from expect import bad, finish, named, ok  # noqa: E402
from relying_party import (Verifier, clean_log, extract_blobs,  # noqa: E402
                           first, last, lines_of, measurement, nonce_of,
                           read, size, write)

ROOT = os.path.join(HERE, "..", "..")
ZERO32 = "0" * 64
# The checks a run on csvsm must have passed, not skipped.
GUEST_CHECKS = ("snp-active snp-vmpl1 cpus-online sev-guest attest-svsm "
                "attest-vmpl1 mem-shared-private tpm-devices tpm-dmesg "
                "tpm-random tpm-pcr-extend tpm-ek tpm-quote tpm-credential "
                "tpm-ekcert tpm-seal tpm-seal-refused tpm-persist "
                "pcr-measured tpm-eventlog").split()
USAGE = ("usage: check.py [--nonce WORD] [--smp N] [--kernel F] [--initrd F]"
         " [--cmdline F] [--credential DIR]"
         " [--linux-entry decompressor|startup_64] [--uefi firmware|none]"
         " LOG OUTDIR IMAGE")


def die(msg, status=2):
    print(f"linux-check: {msg}", file=sys.stderr)
    sys.exit(status)


def parse(argv):
    opt = {"--nonce": "csvsm-linux-selftest", "--smp": "",
           "--kernel": "build/linux/vmlinuz",
           "--initrd": "build/linux/initrd.img",
           "--cmdline": "build/linux/cmdline", "--credential": "",
           "--linux-entry": "decompressor", "--uefi": ""}
    while len(argv) > 3:
        if argv[0] not in opt:
            die(f"unknown argument {argv[0]}")
        opt[argv[0]] = argv[1]
        argv = argv[2:]
    if len(argv) != 3:
        print(USAGE, file=sys.stderr)
        sys.exit(2)
    if opt["--uefi"] not in ("", "firmware", "none"):
        die(f"--uefi {opt['--uefi']}: firmware or none")
    if opt["--linux-entry"] not in ("decompressor", "startup_64"):
        die(f"--linux-entry {opt['--linux-entry']}: "
            "decompressor or startup_64")
    if opt["--smp"] and not opt["--smp"].isdigit():
        die(f"--smp {opt['--smp']}: a number of CPUs")
    return opt, argv


def sha(data):
    return oracle.sha256(data).hex()


def have_line(text, regex):
    return re.search(regex, text, re.M) is not None


class Check:
    def __init__(self, opt, log, out, image):
        self.opt, self.out, self.image = opt, out, image
        self.kernel, self.initrd = opt["--kernel"], opt["--initrd"]
        self.cmdfile, self.uefi = opt["--cmdline"], opt["--uefi"]
        self.smp = opt["--smp"]
        self.text = clean_log(log)
        if self.uefi:
            self.quote_pcrs = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 16]
        else:
            self.quote_pcrs = [8, 9, 16]
        self.quoted = False
        self.pcrs = b""

    def f(self, name):
        return os.path.join(self.out, name)

    def hexf(self, name):
        try:
            return read(self.f(name)).hex()
        except OSError:
            return ""

    def have(self, check, *names):
        """Every blob there, else a failure of CHECK."""
        for n in names:
            if not size(self.f(n)):
                bad(check, f"the guest printed no {n}")
                return False
        return True

    def pcr(self, n):
        """PCR N's value, as hex, in the quoted PCRs (pcrs.bin)."""
        if n not in self.quote_pcrs:
            return ""
        i = self.quote_pcrs.index(n)
        return self.pcrs[i * 32:i * 32 + 32].hex()

    # --- the guest's verdict ------------------------------------------
    def guest(self):
        text = self.text
        result = ""
        for line in text.split("\n"):
            m = re.search(r"(?:^|[^0-9])([0-9]+ passed, [0-9]+ failed)$", line)
            if m:
                result = m.group(1)
        if not result:
            bad("guest-result",
                "no 'N passed, M failed' line: the self-test did not end")
        elif (result.endswith(" 0 failed")
              and not result.startswith("0 passed")):
            ok(f"guest-result ({result})")
        else:
            bad("guest-result", f"the guest says: {result}")
            for line in text.split("\n"):
                if re.search(r"(?:^|[^A-Z])FAIL ", line):
                    print(f"linux-check:   guest: {line}")
        checks = list(GUEST_CHECKS)
        cmdline = "\n".join(lines_of(self.cmdfile))
        if re.search(r"(?<![A-Za-z0-9_])csvsm.accept=lazy(?![A-Za-z0-9_])",
                     cmdline):
            checks.append("mem-lazy-accept")
        if self.uefi:
            checks.append("efi-runtime")
        for c in checks:
            if not have_line(text,
                             r"(?:^|[^A-Z])PASS %s(?: |$)" % re.escape(c)):
                bad(f"guest-{c}", "not passed")
        smp = self.smp
        if smp:
            if have_line(text, r"PASS cpus-online \(%s of %s\)" % (smp, smp)):
                ok(f"cpus ({smp} of {smp} online)")
            else:
                bad("cpus", f"not all {smp} CPUs came online")
            if int(smp) > 1 and not have_line(
                    text, r"(?:^|[^A-Z])PASS cpu-hotplug"):
                bad("cpu-hotplug", "no CPU went offline and back")

    # --- the reports ----------------------------------------------------
    def reports(self):
        extract_blobs(self.text, self.out, bad)
        word = self.opt["--nonce"]
        self.nonce = nonce_of(word)
        if (os.path.isfile(self.f("nonce.bin"))
                and self.hexf("nonce.bin") != self.nonce):
            bad("nonce",
                f"the guest used another nonce than SHA-512(\"{word}\")")
        measure = []
        if self.image != "-":
            m = measurement(self.image, self.smp or 1)
            if m is None:
                die(f"csvsm-igvm measure {self.image} failed")
            measure = ["--measurement", m]
        self.v = Verifier(self.out, measure, ok, bad)
        self.v.verify_svsm_report(self.nonce)
        # The PSP's report for VMPL1: REPORT_DATA is the nonce itself.
        self.v.verify_report("plain", 1, self.nonce)

    # --- the vTPM -------------------------------------------------------
    def pcr16(self):
        """PCR 16: the value after = SHA-256(before || SHA-256(data))."""
        if not self.have("pcr-extend", "pcr16-data.bin", "pcr16-before.bin",
                         "pcr16-after.bin"):
            return
        data = read(self.f("pcr16-data.bin"))
        want = oracle.extend(read(self.f("pcr16-before.bin")),
                             oracle.sha256(data)).hex()
        got = self.hexf("pcr16-after.bin")
        if got == want:
            ok("pcr-extend (PCR 16 = SHA-256(old || SHA-256(data)))")
        else:
            bad("pcr-extend", f"PCR 16 is {got}, not {want}")

    def ek(self):
        """The EK tpm2_createek made in the guest (TPM2B_PUBLIC) against
        the vTPM's entry in the services manifest the SVSM's report
        binds."""
        if not self.have("ek-manifest", "ek-public.bin", "svsm-manifest.bin"):
            return
        found = self.v.manifest_ek(self.f("svsm-manifest.bin"),
                                   self.f("manifest-ek.bin"))
        tpmt = read(self.f("ek-public.bin"))[2:]
        write(self.f("ek-tpmt.bin"), tpmt)
        if not found:
            bad("ek-manifest", "the services manifest has no vTPM entry")
        elif tpmt == read(self.f("manifest-ek.bin")):
            ok("ek-manifest (the guest's EK is the services manifest's)")
        else:
            bad("ek-manifest",
                "the guest's EK is not the one in the services manifest")

    def quote(self):
        """tpm2_checkquote with the AK, qualifying data SHA-256 of the
        nonce computed here; then pcrs.bin (the quoted PCRs as the guest
        read them, test/linux/csvsm-selftest's quote_pcrs) must hash to
        the quote's pcrDigest, so the values checked later are the
        quoted ones."""
        qnonce = sha(bytes.fromhex(self.nonce))
        if self.have("quote", "ak-public.bin", "quote-msg.bin",
                     "quote-sig.bin", "quote-pcrs.bin", "pcrs.bin"):
            with open(self.f("checkquote.txt"), "wb") as o, \
                    open(self.f("checkquote.err"), "wb") as e:
                st = subprocess.run(
                    ["tpm2_checkquote", "-u", self.f("ak-public.bin"),
                     "-m", self.f("quote-msg.bin"),
                     "-s", self.f("quote-sig.bin"),
                     "-f", self.f("quote-pcrs.bin"), "-g", "sha256",
                     "-q", qnonce], stdout=o, stderr=e).returncode
            if st != 0:
                err = first([line for line
                             in lines_of(self.f("checkquote.err"))
                             if "ERROR" in line])
                bad("quote", f"tpm2_checkquote: {err}")
            else:
                printed = subprocess.run(
                    ["tpm2_print", "-t", "TPMS_ATTEST",
                     self.f("quote-msg.bin")],
                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                    text=True, errors="replace").stdout
                digest = "\n".join(re.findall(r"^ *pcrDigest: *(.*)$",
                                              printed, re.M))
                pcrs = read(self.f("pcrs.bin"))
                if (len(pcrs) == 32 * len(self.quote_pcrs)
                        and sha(pcrs) == digest):
                    listed = ", ".join(map(str, self.quote_pcrs))
                    ok("quote (tpm2_checkquote: AK signature, nonce, PCRs "
                       f"{listed})")
                    self.quoted = True
                    self.pcrs = pcrs
                else:
                    bad("quote", "pcrs.bin is not what the quote's pcrDigest "
                        f"({digest}) covers")
        if (self.quoted and size(self.f("pcr16-after.bin"))
                and self.pcr(16) != self.hexf("pcr16-after.bin")):
            bad("quote", "the quoted PCR 16 is not the extended value")

    def credential(self):
        """The AK bound to the EK: the relying party's credential, made
        with the EK of the manifest verified above for the name of the AK
        that signed the quote, was activated by the guest's TPM: the
        secret it printed is the one the relying party chose."""
        if size(self.f("svsm-manifest.bin")):
            self.v.manifest_ek(self.f("svsm-manifest.bin"),
                               self.f("manifest-ek.bin"))
        cred = self.opt["--credential"]
        rp = os.path.join(cred, "")
        if not cred:
            bad("credential", "no relying party's record (--credential DIR)")
        elif not (size(rp + "secret.bin") and size(rp + "ek-public.bin")
                  and size(rp + "ak-name")):
            if os.path.isfile(rp + "rp.log"):
                why = last(lines_of(rp + "rp.log"))
            else:
                why = f"no {cred}/rp.log"
            bad("credential", f"the relying party made no credential: {why}")
        elif (not size(self.f("manifest-ek.bin"))
              or read(rp + "ek-public.bin")[2:]
              != read(self.f("manifest-ek.bin"))):
            bad("credential",
                "the credential was not made with the services manifest's EK")
        elif (not size(self.f("ak-public.bin"))
              or oracle.tpm_name(read(self.f("ak-public.bin")))
              != read(rp + "ak-name").decode(errors="replace").rstrip("\n")):
            bad("credential",
                "the credential was not made for the name of the quote's AK")
        else:
            got = ""
            for m in re.finditer(
                    r"^.*csvsm-selftest: credential-secret ([0-9a-f]*)$",
                    self.text, re.M):
                got = m.group(1)
            if not got:
                bad("credential", "the guest recovered no secret")
            elif got != read(rp + "secret.bin").hex():
                bad("credential", f"the guest recovered {got}, not the "
                    "relying party's secret")
            else:
                ok("credential (the guest's TPM activated the secret made "
                   "with the manifest's EK for the quote's AK)")

    # The EK certificates the guest read back with tpm2_getekcertificate
    # (the self-test's tpm-ekcert): each issued under the relying party's
    # CA ($CSVSM_EKCA, default build/ekca, where
    # scripts/linux-relying-party.sh keeps it) for the EK the verified
    # services manifest binds: the RSA one's modulus is its TPMT_PUBLIC's
    # last 256 bytes; the ECC one's point its last 68 (x and y, each after
    # a 2-byte size), the certificate's the last 64 bytes of its
    # SubjectPublicKeyInfo (04 || x || y), as openssl writes them.
    @staticmethod
    def cert_key(kind, pem):
        """The certified key as (upper-case) hex."""
        if kind == "rsa":
            r = subprocess.run(["openssl", "x509", "-in", pem, "-noout",
                                "-modulus"], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
            return re.sub(r"^Modulus=", "", r.stdout.rstrip("\n"))
        pub = subprocess.run(["openssl", "x509", "-in", pem, "-noout",
                              "-pubkey"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL).stdout
        der = subprocess.run(["openssl", "pkey", "-pubin", "-outform", "der"],
                             input=pub, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL).stdout
        return der[-64:].hex().upper()

    @staticmethod
    def manifest_key(kind, tpmt):
        """The manifest's key (a TPMT_PUBLIC's bytes) as upper-case hex."""
        if kind == "rsa":
            return tpmt[-256:].hex().upper()
        return (tpmt[-66:][:32] + tpmt[-32:]).hex().upper()

    def ekcert(self, check, blob, kind, entry, what):
        ekca = os.environ.get("CSVSM_EKCA", "build/ekca")
        pem = self.f(blob[:-len(".der")] + ".pem")
        err = self.f(f"{check}.err")
        if not self.have(check, blob, "svsm-manifest.bin"):
            return
        if not size(self.f(entry)):
            bad(check, f"no verified manifest with the {what} entry")
            return
        with open(err, "wb") as e:
            st = subprocess.run(["openssl", "x509", "-inform", "der", "-in",
                                 self.f(blob), "-out", pem],
                                stdout=subprocess.DEVNULL, stderr=e).returncode
        if st != 0:
            bad(check, f"not an X.509 certificate: {first(lines_of(err))}")
            return
        with open(err, "wb") as e:
            st = subprocess.run(["openssl", "verify", "-x509_strict",
                                 "-CAfile", f"{ekca}/ca.pem", pem],
                                stdout=e, stderr=subprocess.STDOUT).returncode
        if st != 0:
            bad(check, f"openssl verify against {ekca}/ca.pem: "
                f"{last(lines_of(err))}")
        elif (self.cert_key(kind, pem)
              != self.manifest_key(kind, read(self.f(entry)))):
            bad(check, f"the certificate's key is not the manifest's {what}")
        else:
            ok(f"{check} (openssl verifies it under {ekca}/ca.pem; its key is "
               f"the manifest's {what})")

    def ekcerts(self):
        if size(self.f("svsm-manifest.bin")):
            self.v.manifest_ek_ecc(self.f("svsm-manifest.bin"),
                                   self.f("manifest-ek-ecc.bin"))
        self.ekcert("ekcert", "ekcert.der", "rsa", "manifest-ek.bin", "RSA EK")
        self.ekcert("ekcert-ecc", "ekcert-ecc.der", "ecc",
                    "manifest-ek-ecc.bin", "ECC P-256 EK")

    # --- event logs -----------------------------------------------------
    def eventlog(self):
        """tpm2_eventlog's replay of eventlog.bin to eventlog.txt; its
        lines, or None after a failure of eventlog."""
        with open(self.f("eventlog.txt"), "wb") as o, \
                open(self.f("eventlog.err"), "wb") as e:
            st = subprocess.run(["tpm2_eventlog", self.f("eventlog.bin")],
                                stdout=o, stderr=e).returncode
        if st != 0:
            bad("eventlog",
                f"tpm2_eventlog: {first(lines_of(self.f('eventlog.err')))}")
            return None
        return lines_of(self.f("eventlog.txt"))

    @staticmethod
    def replayed(lines, n):
        """PCR N in the SHA-256 bank of the replay's "pcrs:" block, as
        lower-case hex without 0x ("" for none)."""
        got, inside, bank = [], False, None
        for line in lines:
            if line.startswith("pcrs:"):
                inside = True
                continue
            if inside and re.match(r"[^ ]", line):
                inside = False
            if inside and re.fullmatch(r"  [a-z0-9]+:", line):
                bank = line.split()[0]
                continue
            if inside and bank == "sha256:":
                f = line.replace(":", " ", 1).split()
                if f and f[0] == str(n):
                    value = f[1].lower() if len(f) > 1 else ""
                    got.append(re.sub(r"^0x", "", value))
        return "\n".join(got)

    @staticmethod
    def events(lines):
        """The events of tpm2_eventlog's output as "PCR TYPE SHA256"."""
        out, pcr, typ, alg = [], "", "", ""
        for line in lines:
            f = line.split()
            if line.startswith("- EventNum:"):
                pcr = typ = alg = ""
            if line.startswith("  PCRIndex:"):
                pcr = f[1] if len(f) > 1 else ""
            if line.startswith("  EventType:"):
                typ = f[1] if len(f) > 1 else ""
            if "AlgorithmId:" in line:
                alg = f[-1]
            if "Digest:" in line and alg == "sha256":
                out.append(f"{pcr} {typ} {f[-1].replace(chr(34), '').lower()}")
        return out

    def uefi_checks(self):
        if not self.quoted:
            bad("pcr-measured", "no quoted PCR values")
            return
        if self.uefi == "none":
            for p in range(10):
                if self.pcr(p) != ZERO32:
                    bad("pcr-measured", f"PCR {p} is {self.pcr(p)}, but the "
                        "firmware has no vTPM driver")
                    return
            ok("pcr-measured (none: PCRs 0-9 zero, the firmware has no "
               "vTPM driver)")
            if size(self.f("eventlog.bin")):
                bad("eventlog",
                    "a firmware event log, but the firmware measures nothing")
            return
        if not self.have("eventlog", "eventlog.bin"):
            return
        lines = self.eventlog()
        if lines is None:
            return
        for p in range(10):
            got = self.replayed(lines, p)
            if not got and p <= 7:
                bad("eventlog", f"the log has no event for PCR {p}")
                return
            if (got or ZERO32) != self.pcr(p):
                bad("eventlog", f"the log replays PCR {p} to "
                    f"{got or 'nothing'}, the quote says {self.pcr(p)}")
                return
        ok("eventlog (tpm2_eventlog replays OVMF's log to the quoted "
           "PCRs 0-9)")
        events = self.events(lines)
        write(self.f("events.txt"), "".join(e + "\n" for e in events).encode())
        with open(self.f("pesign.err"), "wb") as e:
            r = subprocess.run(["pesign", "--hash", f"--in={self.kernel}",
                                "-d", "sha256"], stdout=subprocess.PIPE,
                               stderr=e, text=True, errors="replace")
        auth = "\n".join(re.findall(r"^hash: *(.*)$", r.stdout, re.M))
        initrd = sha(read(self.initrd)) if os.path.isfile(self.initrd) else ""
        if r.returncode != 0 or not auth:
            bad("pcr-measured", f"pesign --hash {self.kernel}: "
                f"{first(lines_of(self.f('pesign.err')))}")
        elif f"4 EV_EFI_BOOT_SERVICES_APPLICATION {auth}" not in events:
            bad("pcr-measured", "PCR 4 has no "
                "EV_EFI_BOOT_SERVICES_APPLICATION with the kernel's "
                f"Authenticode digest {auth} (pesign)")
        elif not any(re.fullmatch(r"9 [A-Z_]* %s" % re.escape(initrd), e)
                     for e in events):
            bad("pcr-measured",
                f"PCR 9 has no event with the initrd's SHA-256 {initrd}")
        else:
            ok("pcr-measured (PCR 4: the bzImage's Authenticode digest, as "
               "pesign computes it; PCR 9: the initrd's digest)")

    def kernel_digest(self, bzimage):
        """PCR 9's kernel: the bzImage's protected-mode part, or with
        --linux-entry startup_64 the loaded kernel proper, both computed
        apart from csvsm's C code (test/lib/oracle.py;
        scripts/vmlinux-image.py: Debian's zstd and Python). None if it
        cannot be."""
        if self.opt["--linux-entry"] == "startup_64":
            tool = os.path.join(ROOT, "scripts", "vmlinux-image.py")
            r = subprocess.run([tool, self.kernel], stdout=subprocess.PIPE,
                               text=True)
            if r.returncode != 0:
                return None
            try:
                return bytes.fromhex(r.stdout.strip())
            except ValueError:
                return None
        return oracle.sha256(oracle.kernel_part(bzimage))

    def measured(self):
        """PCRs 8 and 9 (GRUB's scheme, docs/vtpm.md): 9 = the kernel
        then the initrd, 8 = the command line's bytes (no newline, no
        NUL); then the event log from setup_data, replayed by the host's
        tpm2_eventlog."""
        want8 = want9 = ""
        files = (self.kernel, self.initrd, self.cmdfile)
        bzimage = None
        if all(map(os.path.isfile, files)):
            bzimage = read(self.kernel)
        kd = None
        if bzimage is not None and oracle.kernel_part(bzimage) is not None:
            kd = self.kernel_digest(bzimage)
        if kd is not None:
            want8 = oracle.pcr8(oracle.cmdline_of(read(self.cmdfile))).hex()
            want9 = oracle.pcr9(kd, read(self.initrd)).hex()
            if not self.quoted:
                bad("pcr-measured", "no quoted PCR values")
            elif self.pcr(9) == ZERO32:
                bad("pcr-measured",
                    "PCR 9 is zero: nothing measured the kernel")
            elif self.pcr(9) != want9:
                bad("pcr-measured", f"PCR 9 is {self.pcr(9)}, not {want9} "
                    f"(the kernel {os.path.basename(self.kernel)} then the "
                    f"initrd {os.path.basename(self.initrd)})")
            elif self.pcr(8) != want8:
                bad("pcr-measured",
                    f"PCR 8 is {self.pcr(8)}, not {want8} (the command line)")
            else:
                ok("pcr-measured (PCR 8 = the command line, PCR 9 = kernel, "
                   "initrd)")
        else:
            bad("pcr-measured", f"no bzImage {self.kernel}, initrd "
                f"{self.initrd} or {self.cmdfile} to compute PCRs 8 and 9 "
                "from")
        if not self.have("eventlog", "eventlog.bin"):
            return
        lines = self.eventlog()
        if lines is None:
            return
        got8, got9 = self.replayed(lines, 8), self.replayed(lines, 9)
        if got9 != want9 or got8 != want8:
            bad("eventlog", f"the log replays to PCR 8 {got8 or 'none'}, 9 "
                f"{got9 or 'none'}; expected 8 {want8}, 9 {want9}")
        elif self.quoted and (got8 != self.pcr(8) or got9 != self.pcr(9)):
            bad("eventlog", "the log's replay is not the quoted PCRs 8 and 9")
        else:
            ok("eventlog (tpm2_eventlog replays PCRs 8 and 9 to the "
               "expected values)")


def main(argv):
    sys.stdout.reconfigure(line_buffering=True)
    opt, (log, out, image) = parse(argv)
    named("linux-check")
    if not os.access(log, os.R_OK):
        die(f"no log {log}")
    os.makedirs(out, exist_ok=True)
    for pattern in ("*.bin", "*.der", "*.txt", "*.err", "*.pub"):
        for f in glob.glob(os.path.join(out, pattern)):
            os.remove(f)
    c = Check(opt, log, out, image)
    c.guest()
    c.reports()
    c.pcr16()
    c.ek()
    c.quote()
    c.credential()
    c.ekcerts()
    if c.uefi:
        c.uefi_checks()
    else:
        c.measured()
    finish("linux-check", f" (files in {out})")


if __name__ == "__main__":
    main(sys.argv[1:])
