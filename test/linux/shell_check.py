#!/usr/bin/env python3
"""What a user of `make run` at a terminal gets, checked through a
pseudo-terminal: Linux on csvsm in the emulated machine (2 CPUs) boots
the shell image (build/csvsm-linux-shell.igvm, csvsm.test=shell), and
its shell on COM1 answers typed commands: arithmetic, the CPU count,
Ctrl-C ending a foreground job, a configfs-tsm report from the SVSM
(outblob's size), then `poweroff -f` ends QEMU with 245.

    test/linux/shell_check.py [--image IGVM] [--smp N] [--log FILE]
                              [-- EMU-RUN-ARGS...]

The whole session, as the terminal showed it, goes to FILE
(build/linux-shell/session.log). EMU-RUN-ARGS go to scripts/emu-run.sh
as they are: `make run-uefi`'s shell (mk/uefi.mk) passes the kernel,
initrd and command line OVMF boots (--guest-kernel ...). Run from the
repository's top directory.
"""
import os
import pty
import re
import select
import sys
import time


def arguments(argv):
    opt = {"--image": "build/csvsm-linux-shell.igvm", "--smp": "2",
           "--log": "build/linux-shell/session.log"}
    while argv:
        if argv[0] == "--":
            argv = argv[1:]
            break
        if argv[0] not in opt or len(argv) < 2:
            print(f"linux-shell-check: unknown argument {argv[0]}",
                  file=sys.stderr)
            sys.exit(2)
        opt[argv[0]] = argv[1]
        argv = argv[2:]
    return opt["--image"], opt["--smp"], opt["--log"], argv


image, smp, log, extra = arguments(sys.argv[1:])
os.makedirs(os.path.dirname(log) or ".", exist_ok=True)
start = time.time()
pid, fd = pty.fork()
if pid == 0:
    os.execvp("scripts/emu-run.sh",
              ["scripts/emu-run.sh", "--image", image, "--smp", smp,
               "--mem", "1G", "--timeout", "1200", "--interactive",
               "--log", os.path.splitext(log)[0] + "-qemu.log"] + extra)

seen = b""
out = open(log, "wb")


def fail(why):
    out.close()
    sys.stdout.write(seen[-3000:].decode("utf-8", "replace"))
    print(f"\nlinux-shell-check: FAILED: {why} (session: {log})")
    try:
        os.kill(pid, 9)
    except OSError:
        pass
    sys.exit(1)


def expect(pattern, secs, what):
    """Read until @pattern matches what came after the last match."""
    global seen
    rx = re.compile(pattern.encode())
    deadline = time.time() + secs
    while True:
        m = rx.search(seen)
        if m:
            seen = seen[m.end():]
            return m
        left = deadline - time.time()
        if left <= 0:
            fail(f"no {what} after {secs}s")
        r, _, _ = select.select([fd], [], [], min(left, 1.0))
        if r:
            try:
                data = os.read(fd, 4096)
            except OSError:
                data = b""
            if not data:
                fail(f"QEMU ended before {what}")
            out.write(data)
            out.flush()
            seen += data


def prompt():
    expect(r"# ", 60, "the prompt")


def send(text):
    # A byte at a time, as typed: the guest's UART holds 16.
    for ch in text.encode():
        os.write(fd, bytes([ch]))
        time.sleep(0.01)


expect(r"a shell on Linux at VMPL1", 1200, "the shell's banner")
expect(r"\n~ # ", 120, "the shell's prompt")
booted = time.time() - start
# The answers are computed, so the echo of the command cannot match.
send("echo hello-$((6*7))\r")
expect(r"hello-42", 60, "echo's answer")
prompt()
send("grep -c ^processor /proc/cpuinfo\r")
m = expect(r"\r?\n(\d+)\r?\n", 60, "the CPU count")
if m.group(1).decode() != smp:
    fail(f"{m.group(1).decode()} CPUs, not {smp}")
prompt()
send("sleep 1000\r")
time.sleep(2)
send("\x03")
prompt()
send("echo back-$((1+1))\r")
expect(r"back-2", 60, "the shell after Ctrl-C")
prompt()
send("cd /sys/kernel/config/tsm/report && mkdir r0 && cd r0 && "
     "echo svsm > service_provider && "
     "head -c 64 /dev/urandom > inblob && "
     "echo outblob-$(wc -c < outblob)-bytes\r")
m = expect(r"outblob-(\d+)-bytes", 300, "a configfs-tsm report")
size = int(m.group(1))
if size < 1184:
    fail(f"outblob is {size} bytes, an SNP report is 1184")
prompt()
send("poweroff -f\r")
expect(r"emu-run: .*: the guest powered off", 120, "power-off")
_, status = os.waitpid(pid, 0)
out.close()
if os.waitstatus_to_exitcode(status) != 0:
    fail("emu-run failed")
print(f"linux-shell-check: -smp {smp}: shell after {booted:.0f}s; "
      f"echo, {smp} CPUs, Ctrl-C, a {size}-byte SVSM report, power-off "
      f"({time.time() - start:.0f}s; session: {log})")
