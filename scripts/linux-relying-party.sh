#!/usr/bin/env bash
# scripts/emu-run.sh with a relying party on the guest's console: the Linux
# self-test (test/linux/csvsm-selftest) asks for a credential for its AK
# and this answers over COM1 (QEMU's -serial stdio reads our pipe):
#   linux-relying-party.sh [--nonce WORD] [--rp DIR] EMU-RUN-ARGS...
# It reads the console as it arrives; on the guest's line
# `csvsm-selftest: credential-request AKNAME=HEX` it takes the blobs
# printed so far (test/linux/relying_party.py), verifies the SVSM's report as
# test/linux/check.py does (chain, signature, VMPL 0, REPORT_DATA =
# SHA-512(nonce || manifest) with the nonce computed here from WORD,
# MEASUREMENT = scripts/emu-measure.sh of emu-run's --image and --smp),
# checks that
# AKNAME is the name of the AK public the guest printed (the AK that
# signs its quote), and runs `tpm2_makecredential -T none` with the EK
# from that verified manifest, the AK's name and 32 fresh bytes from
# /dev/urandom; the guest gets `CSVSM-CREDENTIAL HEX` (the credential
# blob), or `CSVSM-CREDENTIAL-REFUSED WHY`. DIR (default: emu-run's --log
# less .log, then -rp) keeps what a check needs afterwards
# (test/linux/check.py --credential DIR): secret.bin, ek-public.bin
# (the TPM2B_PUBLIC makecredential used), ak-name (hex), credential.bin,
# and rp.log. On the guest's lines `csvsm-selftest: ekcert-request KIND`
# (rsa2048, ecc-p256) it certifies that EK (answer_ekcert,
# build/bin/csvsm-ekca, the CA in $CSVSM_EKCA, default build/ekca):
# `CSVSM-EKCERT HEX`, kept in DIR/ekcert/. Exits with emu-run.sh's
# status. With --retry-crash, a boot
# that ends in a guest shutdown (triple fault) or reset (Linux's panic)
# is kept as LOG.crash, its machine's stop lines are printed, and the
# boot runs once more: a rare crash under investigation (docs/linux.md,
# "Kernels", the crash after an attestation) must not hide what else the
# run checks; a second crash fails.
#   linux-relying-party.sh --answer LOG DIR IMAGE [WORD]
# answers once for a console LOG already written (the tests' entry): the
# answer line on stdout, status 1 if refused.
set -uo pipefail
# The relying party's work: test/linux/relying_party.py (answer, ekcert).
rp_py=$(dirname "$0")/../test/linux/relying_party.py

# answer CONSOLE-LOG AKNAME-HEX: the answer line on stdout, DIR's files.
answer() { "$rp_py" answer "$1" "$rp" "$image" "$word" "$smp" "$2"; }

# An EK certificate (docs/vtpm.md, "EK certificates"), asked for after
# the credential, KIND rsa2048 or ecc-p256: csvsm-ekca verifies the
# SVSM's report again on its own (chain, VMPL 0, no DEBUG, the
# MEASUREMENT of --image, the nonce and manifest) and certifies the EKs
# the manifest binds (the RSA one must be the guest's tpm2_createek one)
# under the CA in $CSVSM_EKCA (made on first use). The answer line on
# stdout: `CSVSM-EKCERT HEX` (KIND's, DER) or `CSVSM-EKCERT-REFUSED WHY`;
# DIR/ekcert/ keeps the certificates.
answer_ekcert() { "$rp_py" ekcert "$rp" "$1" "$word"; }

word=csvsm-linux-selftest
smp=1
if [ "${1:-}" = --answer ]; then
	[ $# -ge 4 ] || { echo "usage: linux-relying-party.sh --answer LOG DIR IMAGE [WORD]" >&2; exit 2; }
	rp=$3
	image=$4
	word=${5:-$word}
	mkdir -p "$rp"
	akname=$(tr -d '\r' <"$2" | sed -n 's/^.*csvsm-selftest: credential-request AKNAME=\([0-9a-f]*\)$/\1/p' | tail -n1)
	answer "$2" "$akname"
	exit
fi

rp=""
image=build/csvsm.igvm
log=""
retry=0
emu=()
while [ $# -gt 0 ]; do
	case $1 in
	--retry-crash) retry=1; shift ;;
	--nonce) word=$2; shift 2 ;;
	--rp) rp=$2; shift 2 ;;
	--image) image=$2; emu+=("$1" "$2"); shift 2 ;;
	--log) log=$2; emu+=("$1" "$2"); shift 2 ;;
	--smp) smp=$2; emu+=("$1" "$2"); shift 2 ;;
	--interactive) echo "linux-relying-party: the console is ours, not a terminal's" >&2; exit 2 ;;
	*) emu+=("$1"); shift ;;
	esac
done
[ -n "$log" ] || log=build/machine/run-smp$smp.log
[ -n "$rp" ] || rp=${log%.log}-rp

boot() {
	rm -rf "$rp"
	mkdir -p "$rp"
	# QEMU's stdin: a FIFO we hold open for writing (and reading, so
	# neither open blocks); it never sees end-of-file while the guest runs.
	fifo=$rp/stdin
	mkfifo "$fifo"
	exec 3<>"$fifo"
	console=$rp/console.log
	scripts/emu-run.sh "${emu[@]}" <&3 | while IFS= read -r line || [ -n "$line" ]; do
		printf '%s\n' "$line"
		printf '%s\n' "$line" >>"$console"
		case $line in
		*"csvsm-selftest: credential-request AKNAME="*)
			akname=${line##*AKNAME=}
			akname=${akname%$'\r'}
			answer "$console" "$akname" >&3
			tail -n1 "$rp/rp.log" >&2
			;;
		*"csvsm-selftest: ekcert-request "*)
			kind=${line##*ekcert-request }
			answer_ekcert "${kind%$'\r'}" >&3
			tail -n1 "$rp/rp.log" >&2
			;;
		esac
	done
	status=${PIPESTATUS[0]}
	exec 3>&-
	rm -f "$fifo"
}

boot
if [ "$status" -ne 0 ] && [ $retry -eq 1 ] &&
	grep -aqE '^emu-run: -smp [0-9]+: (a vCPU shut down|the guest reset the VM)' \
		"$console"; then
	cp "$log" "${log%.log}.crash"
	{
		echo "linux-relying-party: CRASH, booting once more (kept as ${log%.log}.crash):"
		grep -aE '^emu: (vCPU [0-9]+ VMPL[0-9]: (shutdown|reset)|vCPU [0-9]+: |stop: )' \
			"$log" | head -n 24
		tr -d '\r' <"$log" | grep -aE -m4 'Oops|BUG:|RIP:|Kernel panic'
	} >&2
	boot
fi
exit "$status"
