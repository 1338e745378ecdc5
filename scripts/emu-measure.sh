#!/usr/bin/env bash
# The MEASUREMENT a relying party expects when the emulated machine
# (scripts/emu-run.sh) launches IMAGE with -smp SMP: `csvsm-igvm measure`
# for that many vCPUs (KVM measures a VMSA for each) and the signature of
# the machine's CPU model, QEMU's EPYC (family 23, model 1, stepping 2:
# CPUID(1).EAX 0x800f12), which every AP's VMSA holds in RDX
# (docs/running-on-snp.md, "The launch digest").
#   emu-measure.sh IMAGE SMP
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: emu-measure.sh IMAGE SMP" >&2; exit 2; }
bin=${CSVSM_BIN:-build/bin}
exec "$bin/csvsm-igvm" measure "$1" --vcpus "$2" --vcpu-sig 0x800f12
