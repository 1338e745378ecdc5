#!/usr/bin/env bash
# The SVSM's block device on the emulated machine (issue 28; docs/emu.md,
# "The SVSM's block device"): the host's file behind QEMU's virtio-blk,
# which the machine's hypervisor serves to the SVSM (VMPL0) alone.
#   scripts/emu-blk-check.sh [IMAGE]
# Checks, with the test image (its guest checks that VMPL1 sees no device
# at the SVSM's slots, tests_apic.c):
# - --blk on a missing file with --blk-size 64K: the file is made, 64 KiB
#   (of zeros, which the SVSM may write), the machine finds QEMU's
#   device, 128 sectors, and serves it at the SVSM's slot, where the SVSM
#   finds it; the guest passes;
# - --blk on a missing file with the default size: 1 MiB, 2048 sectors;
#   the vTPM stores its first state there (generation 1), which the
#   hypervisor writes to the file;
# - the same file again: kept, the same size (it outlives the VM), and
#   the vTPM loads generation 1 from it;
# - no --blk: no device, the guest passes;
# - each lie of the device (--blk-lie): the SVSM ends with its named
#   reason, TERM_CSVSM_DEVICE_PROTOCOL (status SVSM_TERM), or, for ioerr
#   (which an honest device may answer), runs on: the guest passes.
# The SVSM probes the device at boot and logs the capacity it read.
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
	grep -aq "blockdev: virtio-blk at 0xfef00000, $2 sectors" "$1" ||
		fail "the SVSM did not find $2 sectors at 0xfef00000 ($1)"
	echo "emu-blk-check: $(basename "$1" .log): $2 sectors at the SVSM's slot"
}

small=$dir/small.img
run "$dir/small.log" --blk "$small" --blk-size 64K
[ "$(stat -c %s "$small")" = 65536 ] || fail "$small is not 64 KiB"
has_device "$dir/small.log" 128

state=$dir/state.img
run "$dir/default.log" --blk "$state"
[ "$(stat -c %s "$state")" = 1048576 ] || fail "$state is not 1 MiB"
has_device "$dir/default.log" 2048
grep -aq "vTPM state: missing, generation 0 loaded, 1 stored" "$dir/default.log" ||
	fail "the vTPM stored no first state ($dir/default.log)"
grep -q "^emu: hypervisor: SVSM block device: write " "$dir/default.log" ||
	fail "the hypervisor wrote nothing to the file ($dir/default.log)"
run "$dir/again.log" --blk "$state" --blk-size 64K
[ "$(stat -c %s "$state")" = 1048576 ] || fail "$state was made anew"
has_device "$dir/again.log" 2048
grep -aq "vTPM state: ok, generation 1 loaded, 2 stored" "$dir/again.log" ||
	fail "the vTPM did not load its state from the file ($dir/again.log)"
echo "emu-blk-check: the vTPM's state outlived the VM in $state"

run "$dir/none.log"
grep -q "^emu: hypervisor: no host block device" "$dir/none.log" ||
	fail "without --blk the machine did not say it has no device"
! grep -q "SVSM block device at" "$dir/none.log" ||
	fail "without --blk the hypervisor serves a device"
grep -aq "blockdev: no virtio-blk device in the SVSM's slots" "$dir/none.log" ||
	fail "without --blk the SVSM did not say it found no device"
echo "emu-blk-check: no --blk: no device"

for lie in used-idx used-id used-len status never-complete; do
	log=$dir/lie-$lie.log
	scripts/emu-run.sh --image "$image" --smp 1 \
		--expect SVSM_TERM --timeout 240 \
		--log "$log" --blk "$state" --blk-lie "$lie" >/dev/null ||
		fail "--blk-lie $lie: the SVSM did not terminate ($log)"
	grep -q "^emu: hypervisor lies (blk-lie $lie)" "$log" ||
		fail "--blk-lie $lie: the machine did not tell the lie ($log)"
	grep -aq "TERM_CSVSM_DEVICE_PROTOCOL" "$log" ||
		fail "--blk-lie $lie: not TERM_CSVSM_DEVICE_PROTOCOL ($log)"
	echo "emu-blk-check: --blk-lie $lie: TERM_CSVSM_DEVICE_PROTOCOL"
done
run "$dir/lie-ioerr.log" --blk "$state" --blk-lie ioerr
grep -q "^emu: hypervisor: SVSM block device served [1-9][0-9]* requests.* [1-9][0-9]* errors" \
	"$dir/lie-ioerr.log" || fail "--blk-lie ioerr: no request failed"
echo "emu-blk-check: --blk-lie ioerr: the requests fail, the guest passes"
