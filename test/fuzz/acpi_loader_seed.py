#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A valid input for fuzz-acpi_loader (test/fuzz/acpi_loader.c): region
GPA, an RSDP and a one-entry RSDT, and the script that links them as
QEMU's does (ALLOCATE both, ADD_POINTER, ADD_CHECKSUM), so the fuzzer
starts past the names and the RSDP check. Usage: acpi_loader_seed.py OUT
"""
import struct
import sys


def name(s):
    return s.encode().ljust(56, b"\0")


def cmd(n, body):
    return (struct.pack("<I", n) + body).ljust(128, b"\0")


rsdp = b"RSD PTR " + b"\0" + b"CSVSM " + b"\0" + struct.pack("<I", 0)
rsdt = b"RSDT" + struct.pack("<I", 40) + bytes(28) + struct.pack("<I", 0)
R, T = "etc/acpi/rsdp", "etc/acpi/tables"
script = b"".join([
    cmd(1, name(R) + struct.pack("<IB", 16, 2)),
    cmd(1, name(T) + struct.pack("<IB", 64, 1)),
    cmd(2, name(T) + name(T) + struct.pack("<IB", 36, 4)),
    cmd(3, name(T) + struct.pack("<III", 9, 0, 40)),
    cmd(2, name(R) + name(T) + struct.pack("<IB", 16, 4)),
    cmd(3, name(R) + struct.pack("<III", 8, 0, 20)),
])
blob = struct.pack("<I", 0x80000)
for f in (rsdp, rsdt):
    blob += struct.pack("<H", len(f)) + f
with open(sys.argv[1], "wb") as out:
    out.write(blob + script)
