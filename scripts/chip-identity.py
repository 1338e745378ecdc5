#!/usr/bin/env python3
# One emulated chip's identity file, which scripts/emu-run.sh hands the
# machine as fw_cfg opt/csvsm/chip-id and emu/src/psp/psp.c reads: the chip's
# VCEK key, its CHIP_ID and the host's certificate table carrying its
# VCEK certificate (and the build's ASK and ARK). Layout, little endian:
#   "CSVSMCID", u32 key length, the PKCS#8 DER key, the 64-byte CHIP_ID,
#   u32 table length, the table (cert_table.py).
# TEST keys only: nothing here is AMD's.
#   chip-identity.py PKIDIR CHIPDIR OUT
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cert_table import cert_table  # noqa: E402

pki, chip, out = sys.argv[1:4]


def read(d, name):
    return open(os.path.join(d, name), "rb").read()


key = read(chip, "vcek.key.der")
chip_id = read(chip, "chip_id.bin")
if len(chip_id) != 64:
    sys.exit(f"chip-identity: {chip}/chip_id.bin: not 64 bytes")
table = cert_table(read(chip, "vcek.der"), read(pki, "ask.der"),
                   read(pki, "ark.der"))
blob = (b"CSVSMCID" + len(key).to_bytes(4, "little") + key + chip_id +
        len(table).to_bytes(4, "little") + table)
tmp = out + ".tmp"
with open(tmp, "wb") as f:
    f.write(blob)
os.replace(tmp, out)
