#!/usr/bin/env bash
# The SVSM's block device on the emulated machine (issue 28; docs/emu.md,
# "The SVSM's block device"): the host's file behind QEMU's virtio-blk,
# which the machine's hypervisor serves to the SVSM (VMPL0) alone.
#   scripts/emu-blk-check.sh [IMAGE]
# Checks, with the test image (its guest checks that VMPL1 sees no device
# at the SVSM's slots, tests_apic.c):
# - --blk on a missing file with --blk-size 64K: the file is made, 64 KiB
#   of zeros, and the machine finds QEMU's device, 128 sectors, and
#   serves it at the SVSM's slot; the guest passes;
# - --blk on a missing file with the default size: 1 MiB, 2048 sectors;
# - the same file again: kept, the same size (it outlives the VM);
# - no --blk: no device, the guest passes.
set -uo pipefail

image=${1:-build/csvsm.igvm}
dir=build/machine/blk-check
rm -rf "$dir"
mkdir -p "$dir"

fail() {
	echo "emu-blk-check: FAILED: $*" >&2
	exit 1
}

# Run with emu-run.sh's options "$@" after the log $1; must pass.
run() {
	local log=$1
	shift
	scripts/emu-run.sh --image "$image" --smp 1 --check --timeout 240 \
		--log "$log" "$@" >/dev/null ||
		fail "the run with $* did not pass ($log)"
}

# The machine's lines for a file of $2 sectors in log $1.
has_device() {
	grep -q "^emu: hypervisor: host block device: QEMU's virtio-blk .* $2 sectors" "$1" ||
		fail "the machine found no device of $2 sectors ($1)"
	grep -q "^emu: hypervisor: SVSM block device at 0xfef00000 (virtio-mmio slot 0, VMPL0 only): $2 sectors" "$1" ||
		fail "the hypervisor serves no device of $2 sectors ($1)"
	grep -q "^emu: hypervisor: SVSM block device served" "$1" ||
		fail "the hypervisor did not say what it served ($1)"
	echo "emu-blk-check: $(basename "$1" .log): $2 sectors at the SVSM's slot"
}

small=$dir/small.img
run "$dir/small.log" --blk "$small" --blk-size 64K
[ "$(stat -c %s "$small")" = 65536 ] || fail "$small is not 64 KiB"
[ -z "$(tr -d '\0' <"$small" | head -c 1)" ] || fail "$small is not zeros"
has_device "$dir/small.log" 128

state=$dir/state.img
run "$dir/default.log" --blk "$state"
[ "$(stat -c %s "$state")" = 1048576 ] || fail "$state is not 1 MiB"
has_device "$dir/default.log" 2048
run "$dir/again.log" --blk "$state" --blk-size 64K
[ "$(stat -c %s "$state")" = 1048576 ] || fail "$state was made anew"
has_device "$dir/again.log" 2048

run "$dir/none.log"
grep -q "^emu: hypervisor: no host block device" "$dir/none.log" ||
	fail "without --blk the machine did not say it has no device"
! grep -q "SVSM block device at" "$dir/none.log" ||
	fail "without --blk the hypervisor serves a device"
echo "emu-blk-check: no --blk: no device"
