#!/usr/bin/env bash
# make bench, vTPM part: one run timing each command through the SVSM's
# vTPM path (sim), libtpms in-process, and swtpm over its socket; then
# the vTPM's stored state on sim: boots with and without it, and the
# cost of a command that changes NV (docs/vtpm.md, "Persistent state").
set -euo pipefail
state=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
swtpm socket --tpm2 --tpmstate dir="$state" \
	--server type=tcp,port="$port",bindaddr=127.0.0.1 \
	--ctrl type=tcp,port=$((port + 1)),bindaddr=127.0.0.1 \
	--flags not-need-init,startup-clear &
swtpm=$!
trap 'kill $swtpm 2>/dev/null; wait $swtpm 2>/dev/null; rm -rf "$state"' EXIT
for _ in $(seq 50); do
	TPM2TOOLS_TCTI="swtpm:host=127.0.0.1,port=$port" \
		tpm2_getrandom 1 >/dev/null 2>&1 && break
	sleep 0.1
done
build/bin/csvsm-bench-vtpm "$port"
build/bin/csvsm-bench-vtpm-state "$state"
