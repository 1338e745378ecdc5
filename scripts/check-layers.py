#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every include points down a floor (docs/architecture.md, "Floors"),
and none crosses a NEVER rule (the SVSM and the models stay apart).

Maps each file under src/ and include/ to its floor and fails, with the
including file and line, on a quoted #include of a file on a higher floor.
An include within one floor is fine. A file the table below does not place
fails too: a new module gets its floor here when it is written.
"""
import os
import re
import sys

# Lowest floor first. A path ending in "/" is a directory; the longest
# matching entry wins (so a file may sit above the rest of its directory).
FLOORS = [
    ("abi", ["include/abi/"]),
    ("base", [
        "src/lib/",
        "include/svsm/acpi_loader.h", "include/svsm/addr.h",
        "include/svsm/blockdev.h",
        "include/svsm/bzimage.h",
        "include/svsm/check.h", "include/svsm/cpuid_regs.h",
        "include/svsm/err.h",
        "include/svsm/le.h", "include/svsm/lib_lock.h",
        "include/svsm/log.h", "include/svsm/overflow.h",
        "include/svsm/ovmf.h", "include/svsm/plat.h",
        "include/svsm/spinlock.h", "include/svsm/std.h",
        "include/svsm/svsm_vmsa.h", "include/svsm/terminate.h",
    ]),
    ("mem", [
        "src/mem/",
        "include/svsm/buddy.h", "include/svsm/lent.h",
        "include/svsm/mem.h", "include/svsm/slab.h",
    ]),
    ("libraries", [
        "src/crypto/", "src/libc/",
        "include/svsm/crypto.h", "include/svsm/libc.h",
    ]),
    # The other parties, as code (model/): linked by the harnesses, never
    # by the SVSM firmware, and apart from it both ways (NEVER below).
    ("model/snp", [
        "model/snp/",
        "model/include/model/igvm_reader.h",
        "model/include/model/psp_launch.h",
        "model/include/model/psp_model.h", "model/include/model/snpmodel.h",
        "model/include/model/vmsa_model.h",
    ]),
    # The host's devices (model/dev): the virtio-blk device behind the
    # SVSM's storage, over nothing but the wire format.
    ("model/dev", ["model/dev/", "model/include/model/virtio_blk.h"]),
    # The hypervisor's model (sim's, emu's): over the RMP and PSP models,
    # never reaching into the SVSM (core) or a platform.
    ("model/kvm", ["model/kvm/", "model/include/model/kvm.h",
                   "model/include/model/kvm_behaviours.h"]),
    # The SVSM's own device drivers (src/dev): its storage (the seam
    # blockdev.h, base) over the platform's MMIO and shared pages.
    ("dev", ["src/dev/"]),
    ("vtpm", ["src/vtpm/", "src/engine/", "include/svsm/vtpm.h"]),
    ("core", [
        "src/core/",
        "include/svsm/attest.h", "include/svsm/deposit.h",
        "include/svsm/guest_config.h", "include/svsm/guest_list.h",
        "include/svsm/guest_msg.h", "include/svsm/guestmem.h",
        "include/svsm/memmap.h", "include/svsm/owner_lock.h",
        "include/svsm/ownership.h", "include/svsm/page_state.h",
        "include/svsm/vcpu.h", "include/svsm/vtpm_state.h",
        "include/svsm/vtpm_store.h",
    ]),
    ("protocols", ["src/core/protocol/", "include/svsm/protocol.h"]),
    ("entry", [
        "src/core/init.c", "src/core/request.c",
        "include/svsm/request.h", "include/svsm/svsm.h",
    ]),
    ("platforms", ["src/arch/", "src/plat/"]),
    # The simulated machine (sim/src/model), under the simulator's
    # harness: it implements the platforms' seams (snp_hw.h, and the sim
    # platform's sim_hw.h, which is all plat_sim.c includes of it) and
    # never includes the harness. The simulator's public types
    # (sim/include) are its vocabulary too.
    ("sim/model", ["sim/src/model/", "sim/include/"]),
    # The emulated machine (emu/src), a harness, by role: the host it
    # runs on (machine), the hardware (hw, its interface to the host
    # apart: world.h, rmp.h, cpuid.h), the PSP, the hypervisor's device
    # models (hv/dev, with the vCPU state they share), the hypervisor (hv,
    # its loop) and the VMM's start (main.c, entry.S) on top.
    ("emu/machine", ["emu/src/machine/"]),
    ("emu/hw-host", ["emu/src/hw/world.h", "emu/src/hw/rmp.h",
                     "emu/src/hw/cpuid.h"]),
    ("emu/hw", ["emu/src/hw/"]),
    ("emu/psp", ["emu/src/psp/"]),
    ("emu/hv/dev", ["emu/src/hv/dev/", "emu/src/hv/hv_vcpu.h",
                    "emu/src/hv/hv_dma.h"]),
    ("emu/hv", ["emu/src/hv/"]),
    ("emu/vmm", ["emu/src/machine/main.c", "emu/src/machine/entry.S"]),
    ("harness", ["sim/", "tools/", "test/", "bench/", "emu/"]),
]

# Known upward includes, each with the change that removes it. Keep short.
EXCEPTIONS = set()

# Includes that no floor order may allow: the SVSM and the models of the
# other parties are two stacks over the shared floors (abi, base, mem,
# libraries). The SVSM (src/) never includes a model (model/ or its
# headers), and a model never includes the SVSM's core or a platform (nor
# the vTPM, protocols or entry, which sit between them).
# (including file's prefix, floors it may never include, why)
SVSM_FLOORS = {"dev", "vtpm", "core", "protocols", "entry", "platforms"}
MODEL_FLOORS = {"model/snp", "model/dev", "model/kvm"}
NEVER = [
    ("src/", MODEL_FLOORS, "the SVSM never includes a model of another party"),
    ("model/", SVSM_FLOORS,
     "a model never includes the SVSM (its core, vTPM or platforms)"),
    # In the machine, the hypervisor and the PSP reach the hardware only
    # through what it offers the host (world_run and the control it
    # checks, RMPUPDATE and PSMASH, CPUID): never its per-CPU state
    # (mcpu.h, the VMCBs and so the VMSAs), walker or #VC.
    ("emu/src/hv/", {"emu/hw"},
     "the hypervisor never reaches the hardware's internals"),
    ("emu/src/psp/", {"emu/hw"},
     "the PSP never reaches the hardware's internals"),
]

# The emulated machine (emu/) plays hardware, PSP and KVM: it links the
# shared floors up to the models and the x86 architecture layer, never the
# SVSM above them (its vTPM, core, protocols, entry or platforms), whose
# code it runs only as a guest image (docs/emu.md).
MACHINE = "emu/"
MACHINE_CEILING = "model/kvm"
MACHINE_MAY_ALSO = ["src/arch/"]

# The -I directories of the builds (mk/toolchain.mk, mk/emu.mk).
INCLUDE_DIRS = ["include", "emu/src", "sim/include", "model/include", "src/arch/x86",
                "src/libc/include"]
SCAN = ["src", "include", "model", "sim", "emu"]
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def floor_of(path):
    best = None
    for rank, (_name, entries) in enumerate(FLOORS):
        for e in entries:
            hit = path.startswith(e) if e.endswith("/") else path == e
            if hit and (best is None or len(e) > best[1]):
                best = (rank, len(e))
    return None if best is None else best[0]


def resolve(src, name):
    for d in [os.path.dirname(src)] + INCLUDE_DIRS:
        p = os.path.normpath(os.path.join(d, name))
        if os.path.isfile(p):
            return p
    return None


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    os.chdir(root)
    bad = []
    used = set()
    names = [n for n, _ in FLOORS]
    ceiling = names.index(MACHINE_CEILING)
    for _a, floors, _why in NEVER:
        assert floors <= set(names), floors
    edges = 0
    files = []
    for top in SCAN:
        for d, _dirs, names in os.walk(top):
            files += [os.path.join(d, n) for n in names
                      if n.endswith((".c", ".h", ".S"))]
    for f in sorted(files):
        rank = floor_of(f)
        if rank is None:
            bad.append(f"{f}:1: no floor: place it in {sys.argv[0]}")
            continue
        with open(f, encoding="utf-8", errors="replace") as fh:
            for n, line in enumerate(fh, 1):
                m = INCLUDE_RE.match(line)
                if not m:
                    continue
                target = resolve(f, m.group(1))
                if target is None:
                    bad.append(f"{f}:{n}: cannot find \"{m.group(1)}\"")
                    continue
                edges += 1
                up = floor_of(target)
                never = [why for a, floors, why in NEVER
                         if f.startswith(a) and up is not None and
                         FLOORS[up][0] in floors]
                if never:
                    bad.append(f"{f}:{n}: includes {target} "
                               f"({FLOORS[up][0]}): {never[0]} "
                               "(docs/architecture.md)")
                    continue
                if (f.startswith(MACHINE) and up is not None and
                        up > ceiling and not target.startswith(MACHINE) and
                        not any(target.startswith(a)
                                for a in MACHINE_MAY_ALSO)):
                    bad.append(
                        f"{f}:{n}: includes {target} ({FLOORS[up][0]}): "
                        "the machine reaches no SVSM code above the "
                        f"{MACHINE_CEILING} floor (docs/emu.md)")
                    continue
                if up is None:
                    bad.append(f"{f}:{n}: {target} has no floor")
                elif up > rank:
                    if (f, target) in EXCEPTIONS:
                        used.add((f, target))
                        continue
                    bad.append(
                        f"{f}:{n}: includes {target} ({FLOORS[up][0]}) "
                        f"from {FLOORS[rank][0]}: includes must point down "
                        "(docs/architecture.md)")
    for e in sorted(EXCEPTIONS - used):
        print(f"layers-check: note: exception {e[0]} -> {e[1]} is no longer "
              "needed; remove it", file=sys.stderr)
    for b in bad:
        print(b, file=sys.stderr)
    if bad:
        return 1
    print(f"layers-check: {edges} includes in {len(files)} files point down, "
          f"{len(NEVER)} never-rules hold")
    return 0


if __name__ == "__main__":
    sys.exit(main())
