#!/usr/bin/env python3
"""Wrong inputs for a Linux image fail loudly (issue 16, docs/linux.md):
csvsm-igvm refuses a kernel older than 6.11 (Debian 12's real 6.1), a
missing or truncated bzImage, a missing initrd and a command line longer
than the kernel takes, each with its reason; a corrupt initrd, which no
loader can tell from a good one, boots and Linux itself says so on the
machine's console before it panics (panic=-1: a reset, GUEST_RESET).

    refusal_check.py OLD-VMLINUZ

Run from the repository's top directory; files in build/linux-refusal/.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
from expect import bad, finish, named, ok  # noqa: E402

IGVM = "build/bin/csvsm-igvm"
FW = "build/snp/csvsm-snp.elf"
KERNEL = "build/linux/vmlinuz"
INITRD = "build/linux/initrd.img"
OUT = "build/linux-refusal"


def build(*args, out):
    """csvsm-igvm build of the SVSM with ARGS to OUT: (status, output)."""
    r = subprocess.run([IGVM, "build", "--svsm", FW, *args, "-o", out],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, errors="replace")
    return r.returncode, r.stdout.rstrip("\n")


def refused(name, want, *args):
    """csvsm-igvm must refuse ARGS, saying WANT."""
    st, msg = build(*args, out=f"{OUT}/{name}.igvm")
    if st == 0:
        bad(name, "csvsm-igvm built an image")
    elif want not in msg:
        bad(name, f"no '{want}' in: {msg}")
    else:
        ok(f"{name}: {msg}")


def corrupt_initrd(cmdline):
    """The archive's bytes flipped after its first 4 KiB: Linux's own
    unpacking failure and panic on the machine's console."""
    data = bytearray(open(INITRD, "rb").read())
    for i in range(4096, len(data)):
        data[i] ^= 0x5A
    initrd = f"{OUT}/corrupt-initrd.img"
    open(initrd, "wb").write(data)
    image, log = f"{OUT}/corrupt-initrd.igvm", f"{OUT}/corrupt-initrd.log"
    st, msg = build("--linux", KERNEL, "--initrd", initrd,
                    "--cmdline", cmdline, out=image)
    if st != 0:
        print(msg, file=sys.stderr)
        sys.exit(1)
    run = subprocess.run(["scripts/emu-run.sh", "--image", image, "--smp",
                          "1", "--mem", "1G", "--timeout", "600",
                          "--expect", "GUEST_RESET", "--log", log],
                         stdout=subprocess.DEVNULL)
    text = ""
    if os.path.exists(log):
        text = open(log, "rb").read().decode("utf-8", "replace")
    seen = re.search(r"(Initramfs unpacking failed|VFS: Unable to mount "
                     r"root).*", text)
    if run.returncode == 0 and seen and "Kernel panic" in text:
        ok(f"corrupt-initrd: {seen.group(0)}")
    else:
        bad("corrupt-initrd", "no unpacking failure and panic seen "
            f"(log: {log})")


def main(argv):
    if len(argv) != 2:
        print("usage: refusal_check.py OLD-VMLINUZ", file=sys.stderr)
        sys.exit(2)
    sys.stdout.reconfigure(line_buffering=True)
    named("linux-refusal-check")
    old = argv[1]
    cmdline = open("build/linux/cmdline").read().rstrip("\n")
    os.makedirs(OUT, exist_ok=True)
    refused("old-kernel", "older than 6.11", "--linux", old,
            "--initrd", INITRD, "--cmdline", cmdline)
    refused("no-kernel", "cannot read the kernel", "--linux",
            f"{OUT}/absent", "--initrd", INITRD, "--cmdline", cmdline)
    with open(KERNEL, "rb") as f:
        head = f.read(1048576)
    open(f"{OUT}/truncated-vmlinuz", "wb").write(head)
    refused("truncated-kernel", "truncated", "--linux",
            f"{OUT}/truncated-vmlinuz", "--initrd", INITRD,
            "--cmdline", cmdline)
    open(f"{OUT}/zero-vmlinuz", "wb").write(bytes(512))
    refused("not-a-bzimage", f"kernel {OUT}/zero-vmlinuz", "--linux",
            f"{OUT}/zero-vmlinuz", "--initrd", INITRD, "--cmdline", cmdline)
    refused("no-initrd", "cannot read the initrd", "--linux", KERNEL,
            "--initrd", f"{OUT}/absent", "--cmdline", cmdline)
    refused("long-cmdline", "longer than the kernel takes", "--linux",
            KERNEL, "--initrd", INITRD, "--cmdline",
            cmdline + " " + "x" * 2100)
    corrupt_initrd(cmdline)
    finish("linux-refusal-check")


if __name__ == "__main__":
    main(sys.argv)
