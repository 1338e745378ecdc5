#!/bin/sh
# SPDX-License-Identifier: MIT
# Re-capture QEMU's ACPI fw_cfg files (README.md) into the current
# directory: a multiboot guest writes each file, size first, to debugcon.
set -e
here=$(dirname "$0")
gcc -m32 -ffreestanding -fno-pic -fno-stack-protector -nostdlib -static -no-pie -O1 \
	-Wl,-Ttext=0x100000 -Wl,-e,_start -Wl,--build-id=none \
	"$here/capture.c" -o capture.elf
timeout 120 qemu-system-x86_64 -machine q35 -accel tcg -smp 2 -m 512M \
	-display none -nodefaults -kernel capture.elf -debugcon file:out.bin \
	-device isa-debug-exit,iobase=0xf4,iosize=4 || true
python3 - <<'PY'
import struct
d = open("out.bin", "rb").read()
p = 0
for n in ["table-loader", "tables", "rsdp"]:
    size = struct.unpack("<I", d[p:p + 4])[0]
    open(n + ".bin", "wb").write(d[p + 4:p + 4 + size])
    p += 4 + size
PY
