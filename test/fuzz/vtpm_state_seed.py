#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seeds for fuzz-ledger and fuzz-nv_image, so they start past the magic:
a csvsm-verify ledger of two lines (tools/verify/ledger.h) and an engine
NV image of two blobs (src/engine/nv_image.h).
usage: vtpm_state_seed.py LEDGER_OUT NV_IMAGE_OUT"""
import struct
import sys


def line(chip, meas, boot, gen, digest, ek):
    return "%s %s %s %d %s %s\n" % (chip * 64, meas * 48, boot * 16, gen,
                                    digest * 48, ek * 32)


def main():
    ledger_out, image_out = sys.argv[1:3]
    with open(ledger_out, "w") as f:
        f.write("csvsm-verify ledger 1\n")
        f.write(line("ab", "cd", "01", 5, "ef", "99"))
        f.write(line("12", "34", "56", 0, "78", "00"))
    img = b"CSVSMnv1" + struct.pack("<I", 2)
    for name, data in ((b"permall", b"state"), (b"savestate", b"")):
        img += bytes([len(name)]) + name + struct.pack("<I", len(data)) + data
    with open(image_out, "wb") as f:
        f.write(img)


if __name__ == "__main__":
    main()
