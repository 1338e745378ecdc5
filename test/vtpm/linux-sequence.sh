#!/usr/bin/env bash
# The Linux kernel's TPM sequence (salted HMAC session, parameter
# encryption, TPMA_CC table) against the SVSM's vTPM, and a byte-for-byte
# differential against swtpm, Debian's libtpms in its own process.
set -uo pipefail
base=$((20000 + RANDOM % 20000))
vtpm_port=$base
swtpm_port=$((base + 2))
state=$(mktemp -d)
log=build/vtpm-linux.log
mkdir -p build
build/bin/csvsm-sim vtpm --mssim "$vtpm_port" --max-seconds 120 >"$log" 2>&1 &
sim=$!
swtpm socket --tpm2 --tpmstate dir="$state" \
	--server type=tcp,port="$swtpm_port",bindaddr=127.0.0.1 \
	--ctrl type=tcp,port=$((swtpm_port + 1)),bindaddr=127.0.0.1 \
	--flags not-need-init,startup-clear >>"$log" 2>&1 &
swtpm=$!
trap 'kill $sim $swtpm 2>/dev/null; wait $sim $swtpm 2>/dev/null; rm -rf "$state"' EXIT
for _ in $(seq 50); do
	TPM2TOOLS_TCTI="mssim:host=127.0.0.1,port=$vtpm_port" \
		tpm2_getrandom 1 >/dev/null 2>&1 &&
		TPM2TOOLS_TCTI="swtpm:host=127.0.0.1,port=$swtpm_port" \
			tpm2_getrandom 1 >/dev/null 2>&1 && break
	sleep 0.1
done
/usr/bin/python3 test/vtpm/linux_sequence.py "$vtpm_port" "$swtpm_port"
