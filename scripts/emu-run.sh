#!/usr/bin/env bash
# Boot an IGVM image on the emulated SEV-SNP machine (build/machine/emu.elf,
# docs/emu.md) under QEMU TCG and report how it ended.
#   scripts/emu-run.sh [--image IGVM] [--smp N] [--mem SIZE] [--hv MODE]
#                      [--timeout S] [--check] [--expect STATUS]
#                      [--log FILE] [--interactive]
#                      [--guest-kernel FILE] [--guest-initrd FILE]
#                      [--guest-append STRING] [--max-ram-below-4g SIZE]
#                      [--chip NAME] [--blk FILE] [--blk-size SIZE]
#                      [--blk-lie LIE] [-- EXTRA-QEMU-ARGS...]
# QEMU's status is (value << 1) | 1 of what was written to isa-debug-exit:
# how the run ended, one of the machine's list (emu/src/machine/machine_exits.h:
# GUEST_PASSED 33, SVSM_TERM 253, ..., read here from the
# build/machine/exits.sh mk/machine.mk makes of it with the machine); at
# the timeout HOST_STOP, the machine stopped on the host's NMI, saying
# where each vCPU was (124 or 137: it did not answer); 239: this script
# stopped the machine on the guest firmware's own report of a dead end
# (below).
# --check: fail unless the guest passed with "0 failed" and the machine's
# launch measurement equals `csvsm-igvm measure IMAGE --vcpus SMP` for
# the machine's CPU model (scripts/emu-measure.sh).
# --expect STATUS: fail unless QEMU ended with STATUS, a number or a name
# of the machine's list (SVSM_TERM).
# --interactive: the terminal's keys go to the guest's COM1 as bytes,
# Ctrl-C too (QEMU's stdio without signals, multiplexed): Ctrl-A X quits
# QEMU, Ctrl-A H lists the rest. --timeout 0: no timeout.
# --guest-kernel, --guest-initrd, --guest-append: the guest firmware's
# -kernel, -initrd and -append, as a host's QEMU would give them to its
# guest: fw_cfg files opt/csvsm/guest/{kernel,initrd,cmdline}, which the
# machine's hypervisor serves to the guest as fw_cfg's kernel keys (a
# bzImage split into setup and kernel, docs/emu.md "The guest's fw_cfg").
# --chip NAME: the emulated chip, whose secret (the root of the keys its
# PSP derives, MSG_KEY_REQ) is build/chips/NAME and whose CHIP_ID and
# TEST VCEK are in build/chips/NAME.vcek/, made on first use and kept
# (scripts/emu-chip.sh): runs on one chip derive the same keys and sign
# as the same chip (default: the chip "default").
# --blk FILE: the SVSM's block device (its persistent store, issue 28),
# backed by FILE on the host, which outlives the VM: QEMU's virtio-blk-pci
# in legacy mode, which the machine drives itself and serves to the SVSM
# (VMPL0) as a virtio-mmio device (docs/emu.md, "The SVSM's block
# device"). A missing FILE is made, --blk-size bytes of zeros (K, M or G;
# default 1M). Without --blk the SVSM has no device. --blk-lie LIE: the
# device answers the SVSM's requests with a hostile host's lie (used-idx,
# used-id, used-len, status, never-complete, ioerr: emu/src/hv/dev/hv_vblk.c).
# Without --interactive the console is watched for the guest firmware's
# own reports of a dead end, where it would spin until the timeout:
# OVMF's exception banner ("!!!! X64 Exception Type", then its register
# dump and CpuDeadLoop), and, given --guest-kernel, OVMF booting its
# built-in shell (it could not start that kernel). The machine is then
# stopped at once through QMP (status 239) with the firmware's line.
set -uo pipefail

image=build/csvsm.igvm
smp=1
mem=512M
hv=""
timeout_s=300
check=0
expect=""
log=""
machine=build/machine/emu.elf
serial=(-serial stdio)
guest_kernel=""
guest_initrd=""
guest_append=""
max_low=""
chip=default
blk=""
blk_size=1M
blk_lie=""
while [ $# -gt 0 ]; do
	case "$1" in
	--image) image=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--hv) hv=$2; shift 2 ;;
	--timeout) timeout_s=$2; shift 2 ;;
	--check) check=1; shift ;;
	--expect) expect=$2; shift 2 ;;
	--log) log=$2; shift 2 ;;
	--guest-kernel) guest_kernel=$2; shift 2 ;;
	--guest-initrd) guest_initrd=$2; shift 2 ;;
	--guest-append) guest_append=$2; shift 2 ;;
	--max-ram-below-4g) max_low=$2; shift 2 ;;
	--chip) chip=$2; shift 2 ;;
	--blk) blk=$2; shift 2 ;;
	--blk-size) blk_size=$2; shift 2 ;;
	--blk-lie) blk_lie=$2; shift 2 ;;
	--interactive)
		serial=(-chardev stdio,id=com1,mux=on,signal=off
			-serial chardev:com1)
		shift
		;;
	--) shift; break ;;
	*) echo "emu-run: unknown argument $1" >&2; exit 2 ;;
	esac
done
[ -n "$log" ] || log=build/machine/run-smp$smp.log
# The machine's statuses (MACHINE_EXIT_NAME, machine_exit_what STATUS).
exits=build/machine/exits.sh
if [ ! -e "$exits" ]; then
	echo "emu-run: no $exits: make machine first" >&2
	exit 2
fi
# shellcheck source=/dev/null
. "$exits"
case $expect in
'' | *[!0-9]*)
	if [ -n "$expect" ]; then
		name=MACHINE_EXIT_${expect}
		case $expect in *[!A-Z_]*) name=none ;; esac
		if [ -z "${!name:-}" ]; then
			echo "emu-run: --expect $expect: a status or a name in" \
				"emu/src/machine/machine_exits.h" >&2
			exit 2
		fi
		expect=${!name}
	fi
	;;
esac
mkdir -p "$(dirname "$log")" build/machine

# TCG's threads (CSVSM_TCG_THREAD): one for all vCPUs (single, the
# default) or one per vCPU (multi, QEMU's). Multi-threaded TCG can run
# code another vCPU has just patched as it was before (a translation made
# while the patch was written outlives it: Linux's text patching then
# oopses on its own INT3), so guests run on one thread; make emu-check
# also runs the test guest on many, for the SVSM's true parallelism
# (docs/emu.md, "What is faithful and what is not").
tcg_thread=${CSVSM_TCG_THREAD:-single}
case $tcg_thread in
single | multi) ;;
*)
	echo "emu-run: CSVSM_TCG_THREAD=$tcg_thread: single or multi" >&2
	exit 2
	;;
esac
# shellcheck source=scripts/qemu-lib.sh
. "$(dirname "$0")/qemu-lib.sh"
cpu=$QEMU_CPU_EMU
fwcfg=(-fw_cfg "name=opt/csvsm/igvm,file=$image")
# The chip: its secret (the chip file) and its identity (CHIP_ID, VCEK
# key and the certificate table carrying its VCEK certificate), made on
# first use and kept (scripts/emu-chip.sh; read by emu/src/psp/psp.c).
scripts/emu-chip.sh "$chip" || exit 2
chip_file=build/chips/$chip
fwcfg+=(-fw_cfg "name=opt/csvsm/chip-id,file=build/chips/$chip.vcek/identity.bin")
fwcfg+=(-fw_cfg "name=opt/csvsm/chip,file=$chip_file")
# The SVSM's block device: the host's file behind QEMU's virtio-blk-pci,
# legacy only (an I/O BAR the machine polls: no MSI-X vectors, one
# queue). A new file is made aside and moved in without overwriting, as
# the chip file is.
devices=()
if [ -n "$blk" ]; then
	case $blk_size in
	[1-9]*[0-9KMG] | [1-9]) ;;
	*)
		echo "emu-run: --blk-size $blk_size: bytes, or with K, M or G" >&2
		exit 2
		;;
	esac
	if [ ! -e "$blk" ]; then
		mkdir -p "$(dirname "$blk")"
		blk_tmp=$(mktemp "$blk.XXXXXX")
		truncate -s "$blk_size" "$blk_tmp"
		mv -n "$blk_tmp" "$blk"
		rm -f "$blk_tmp"
		echo "emu-run: a new block device file, $blk ($blk_size)"
	fi
	devices=(-drive "file=${blk//,/,,},format=raw,if=none,id=csvsm-blk,cache=writeback"
		-device "virtio-blk-pci,drive=csvsm-blk,disable-modern=on,disable-legacy=off,vectors=0,num-queues=1")
fi
if [ -n "$blk_lie" ]; then
	case $blk_lie in
	'' | *[!a-z-]*)
		echo "emu-run: --blk-lie $blk_lie: a lie's name" >&2
		exit 2
		;;
	esac
	if [ -z "$blk" ]; then
		echo "emu-run: --blk-lie needs --blk FILE" >&2
		exit 2
	fi
	fwcfg+=(-fw_cfg "name=opt/csvsm/blk-lie,string=$blk_lie")
fi
if [ -n "$hv" ]; then
	printf '%s' "$hv" >"build/machine/hv-$hv"
	fwcfg+=(-fw_cfg "name=opt/csvsm/hv,file=build/machine/hv-$hv")
fi
# QEMU's option syntax: a comma in a value is written twice.
if [ -n "$guest_kernel" ]; then
	fwcfg+=(-fw_cfg "name=opt/csvsm/guest/kernel,file=${guest_kernel//,/,,}")
fi
if [ -n "$guest_initrd" ]; then
	fwcfg+=(-fw_cfg "name=opt/csvsm/guest/initrd,file=${guest_initrd//,/,,}")
fi
# q35's max-ram-below-4g (SIZE: bytes, or with K, M or G): the guest's
# RAM beyond it lies from 4 GiB, where OVMF leaves it unaccepted and Linux
# accepts it lazily through the SVSM.
if [ -n "$max_low" ]; then
	fwcfg+=(-fw_cfg "name=opt/csvsm/max-ram-below-4g,string=$max_low")
fi
if [ -n "$guest_append" ]; then
	fwcfg+=(-fw_cfg "name=opt/csvsm/guest/cmdline,string=${guest_append//,/,,}")
fi

# One QMP command to QEMU (qmp_capabilities first).
qmp_send() { # COMMAND
	python3 - "$qmp" "$1" <<-'PY'
		import json, socket, sys
		s = socket.socket(socket.AF_UNIX)
		s.settimeout(5)
		s.connect(sys.argv[1])
		f = s.makefile("rw")
		f.readline()
		for cmd in ("qmp_capabilities", sys.argv[2]):
		    f.write(json.dumps({"execute": cmd}) + "\n")
		    f.flush()
		    f.readline()
	PY
}

# The console, to the terminal and the log; a dead end the firmware
# reports stops the machine (the reason in $stopped) a moment later, once
# its register dump is out.
stopped=$log.stopped
rm -f "$stopped"
console_watch() {
	local line why
	while IFS= read -r line || [ -n "$line" ]; do
		printf '%s\n' "$line"
		why=""
		case $line in
		*'!!!! X64 Exception Type'* | *'!!!! IA32 Exception Type'*)
			why="the guest firmware took an exception: ${line//!!!! /}"
			;;
		*'BdsDxe: loading Boot'*'"EFI Internal Shell"'*)
			[ -z "$guest_kernel" ] ||
				why="OVMF did not start the kernel (${guest_kernel##*/}) and booted its shell"
			;;
		esac
		if [ -n "$why" ] && [ ! -e "$stopped" ]; then
			printf '%s\n' "$why" >"$stopped"
			(sleep 1 && qmp_send quit >/dev/null 2>&1) &
		fi
	done
}

# At the timeout the machine is asked, with an NMI through QMP, to say
# where each vCPU is and stop (status 247, docs/emu.md "When a run
# stops"); QEMU is killed only if it has not stopped $grace s later.
grace=20
qmp=$(mktemp -u "${TMPDIR:-/tmp}/csvsm-qmp.XXXXXX")
watchdog() {
	local s
	# Killed when QEMU ends first: its sleep goes too (no orphan keeps
	# the caller's pipe open).
	trap 'kill "$s" 2>/dev/null; exit 0' TERM
	sleep "$timeout_s" &
	s=$!
	wait "$s"
	echo "emu-run: timeout after ${timeout_s}s: asking the machine" \
		"where each vCPU is (NMI)" >&2
	qmp_send inject-nmi || echo "emu-run: QMP did not answer" >&2
}
limit=0
if [ "$timeout_s" -gt 0 ]; then
	limit=$((timeout_s + grace))
	watchdog &
	dog=$!
fi
start=$(date +%s.%N)
timeout --foreground -k 5 "$limit" \
	qemu-system-x86_64 -machine q35 -accel "tcg,thread=$tcg_thread" -cpu "$cpu" \
	-smp "$smp" -m "$mem" -display none "${serial[@]}" -monitor none \
	-qmp "unix:$qmp,server=on,wait=off" \
	-no-reboot -nodefaults -kernel "$machine" "${fwcfg[@]}" \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 "${devices[@]}" "$@" 2>&1 |
	if [ "${serial[0]}" = -serial ]; then
		console_watch | tee "$log"
	else
		tee "$log" # keys echoed as typed: no line buffering
	fi
status=${PIPESTATUS[0]}
if [ -e "$stopped" ]; then
	status=239
fi
end=$(date +%s.%N)
if [ -n "${dog:-}" ]; then
	kill "$dog" 2>/dev/null
	wait "$dog" 2>/dev/null
fi
rm -f "$qmp"
secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')

case $status in
124 | 137) what="timeout after ${timeout_s}s; the machine did not answer its NMI" ;;
239) what="stopped: $(cat "$stopped")" ;;
*)
	what=$(machine_exit_what "$status") ||
		what="QEMU exited with status $status"
	if [ "$status" -eq "$MACHINE_EXIT_HOST_STOP" ]; then
		what="timeout after ${timeout_s}s; $what"
	fi
	;;
esac
# The guest's last words: the console's last lines that are neither the
# machine's (emu:) nor the self-test's blobs, so a failed run says what
# the guest was doing when it stopped, after the machine's counts.
last_words() {
	echo "emu-run: the guest's last words (log: $log):" >&2
	tr -d '\r' <"$log" | grep -avE '^(emu: |CSVSM-HEX |CSVSM-BLOB-)' |
		grep -av '^[[:space:]]*$' | tail -n 6 | cut -c1-200 |
		sed 's/^/  | /' >&2
}
echo "emu-run: -smp $smp${hv:+ --hv $hv}: $what (${secs}s)"
if [ -n "$expect" ] && [ "$status" -ne "$expect" ]; then
	last_words
	echo "emu-run: FAILED: -smp $smp: $what; expected status $expect" \
		"(log: $log)" >&2
	exit 1
fi
if [ $check -eq 1 ]; then
	if [ "$status" -ne "$MACHINE_EXIT_GUEST_PASSED" ] || ! grep -q '\] [0-9]* passed, 0 failed' "$log"; then
		last_words
		echo "emu-run: FAILED: -smp $smp: $what (log: $log)" >&2
		exit 1
	fi
	want=$(scripts/emu-measure.sh "$image" "$smp")
	got=$(sed -n 's/^emu: launch measurement \([0-9a-f]*\).*/\1/p' "$log")
	if [ "$got" != "$want" ]; then
		echo "emu-run: FAILED: the machine measured '$got'," \
			"csvsm-igvm measure --vcpus $smp says $want" >&2
		exit 1
	fi
	echo "emu-run: launch measurement $got = csvsm-igvm measure --vcpus $smp"
fi
exit 0
