#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""No model of another party is in the SVSM firmware (docs/architecture.md).

usage: check-tcb.py FIRMWARE.elf MODEL.o...

The models (model/snp: the RMP, the PSP, the IGVM reader; model/kvm: KVM's
side of the GHCB protocol) are linked by sim, emu, the tools and the tests,
never by the firmware (mk/snp.mk): they are the host's and the hardware's
code, not the SVSM's, and are no part of its trusted computing base. This
check reads the built firmware's symbol table (nm, local symbols too) and
fails on any symbol a model object defines, or any symbol with a model's
prefix. It also fails if a model object defines a global symbol no prefix
covers, so that the prefixes stay the models' whole vocabulary.
"""
import re
import subprocess
import sys

# The models' name prefixes: rmp_* (the RMP), psp_* (the PSP and its
# launch, psp_launch_*), launch_* (the launch's pages, VMSAs and areas),
# igvm_* (the IGVM reader), kvm_* (the KVM model), vmsa_model_*, vblk_*
# (the host's virtio-blk device).
MODEL_PREFIX = re.compile(r"^(rmp|psp|launch|igvm|kvm|vmsa_model|vblk)_")


def symbols(path, defined_only=False):
    """(type, name) of every symbol nm lists in @path."""
    args = ["nm"] + (["--defined-only"] if defined_only else []) + [path]
    out = subprocess.run(args, check=True, capture_output=True,
                         text=True).stdout
    syms = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2:
            syms.append((parts[-2], parts[-1]))
    return syms


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    firmware, objects = argv[1], argv[2:]
    bad = []
    model = {}  # a model's global symbol -> the object defining it
    for o in objects:
        for kind, name in symbols(o, defined_only=True):
            if kind not in "TDBRVW":
                continue  # a local name is no model's vocabulary
            model.setdefault(name, o)
            if not MODEL_PREFIX.match(name):
                bad.append(f"{o}: defines {name}, which no model prefix "
                           f"covers: extend MODEL_PREFIX in {argv[0]}")
    found = 0
    for kind, name in symbols(firmware):
        if name in model or MODEL_PREFIX.match(name):
            bad.append(f"{firmware}: {kind} {name}: model code in the "
                       f"firmware (from {model.get(name, 'a model prefix')})")
        found += 1
    for b in bad:
        print(f"tcb-check: {b}", file=sys.stderr)
    if bad:
        return 1
    print(f"tcb-check: {found} firmware symbols, none of the "
          f"{len(model)} model symbols of {len(objects)} model objects")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
