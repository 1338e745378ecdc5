#!/usr/bin/env bash
# make bench: instruction counts (callgrind, so stable run to run) of the
# SVSM's own code per core call, with the SNP model's cost given apart.
# Zeroing a validated page is SVSM work too, but glibc's memset zeroes a
# page with `rep stosb`, one instruction on hardware that valgrind counts
# once per byte; so its share is shown separately as well.
set -euo pipefail
bench=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() { # SCOPE PHASE ITERATIONS -> callgrind file
	valgrind --tool=callgrind --collect-atstart=no \
		--callgrind-out-file="$tmp/out.$1.$2" \
		"$bench" "$1" "$2" "$3" >/dev/null 2>"$tmp/log.$1.$2" ||
		{ cat "$tmp/log.$1.$2" >&2; exit 1; }
}

total() { awk '/^(summary|totals):/ { print $2; exit }' "$1"; }

# Split a run's self costs: "CORE GLUE ZERO" where GLUE is the simulator's
# stand-ins for hardware instructions and the counting hooks (sim/src,
# src/plat/sim) and the KVM model answering the snp platform's GHCB calls
# (model/kvm, and the kvm_* functions callgrind files under the
# include/abi/ghcb.h helpers they inline), ZERO is memset (page zeroing),
# CORE the rest: the code that runs unchanged on every platform.
split_costs() {
	callgrind_annotate --auto=no --threshold=100 "$1" >"$1.txt" 2>/dev/null || true
	awk '
	/^ *[0-9,]+ .*:/ {
		n = $1; gsub(",", "", n)
		if ($0 ~ /PROGRAM TOTALS/) next
		if ($0 ~ /sim\/src\/|plat\/sim\/|model\/kvm\/|:kvm_/) glue += n
		else if ($0 ~ /memset/) zero += n
		else core += n
	}
	END { printf "%d %d %d\n", core, glue, zero }' "$1.txt"
}

report() { # PHASE ITERATIONS ENTRIES_PER_ITERATION LABEL GOAL
	local model n costs
	run svsm "$1" "$2"
	run model "$1" "$2"
	model=$(total "$tmp/out.model.$1")
	costs=$(split_costs "$tmp/out.svsm.$1")
	n=$(($2 * $3))
	echo "$costs" | awk -v m="$model" -v n="$n" -v l="$4" -v g="$5" '{
		printf "%-32s %9.1f %9.1f %11.1f %8.1f   %s\n",
			l, $1 / n, $3 / n, $2 / n, m / n, g }'
}

if [ "${CSVSM_SIM_PLATFORM:-}" = snp ]; then
	# The same calls entered the snp way, by csvsm-bench-snp (linked with
	# the snp platform; csvsm-bench refuses the variable): core then
	# includes the snp platform's plat_* and GHCB client (each call ends
	# in a run-VMPL through the GHCB); the KVM model answering it and the
	# CPU model under plat_snp.c's seam are sim glue.
	case $bench in
	*-snp) ;;
	*) echo "bench.sh: CSVSM_SIM_PLATFORM=snp wants csvsm-bench-snp" >&2
	   exit 1 ;;
	esac
	echo "csvsm on the snp platform (src/plat/snp in core, the KVM and CPU" \
		"models in sim glue): instructions per unit (callgrind)"
else
	echo "csvsm core protocol: instructions per unit inside the SVSM (callgrind)"
fi
printf "%-32s %9s %9s %11s %8s   %s\n" "" "core" "zeroing" "sim glue" \
	"model" "goal (core)"
report query 2000 1 "QUERY_PROTOCOL, per call" "< 1000"
report val4k 20 510 "PVALIDATE 4K validate, /entry" "< 150"
report inval4k 20 510 "PVALIDATE 4K invalidate, /entry" "< 150"
report val2m 2 64 "PVALIDATE 2M validate, /entry" "-"
report inval2m 2 64 "PVALIDATE 2M invalidate, /entry" "-"
report attest 10 1 "ATTEST_SERVICES, per call" "-"
echo "core: SVSM code shared by every platform; zeroing: memset of newly"
echo "validated pages (rep stosb, one instruction on hardware, counted per"
echo "byte by valgrind); sim glue: the sim platform's stand-ins for single"
echo "instructions (PVALIDATE, RMPADJUST, guest loads), counting hooks and"
echo "the KVM model answering the snp platform's GHCB calls;"
echo "model: the SNP model playing the hardware. Lists of 510 x 4 KiB and"
echo "64 x 2 MiB entries from the Calling Area. ATTEST_SERVICES: the SVSM's"
echo "SHA-512 and AES-GCM (libcrypto) are core; the emulated PSP's decryption,"
echo "P-384 signature and sealing are model."
