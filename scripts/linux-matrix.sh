#!/usr/bin/env bash
# Debian's kernels on csvsm, one after the other (docs/linux.md, "The
# kernel matrix"): for each lock (default test/linux/kernels/*.lock) the
# kit (`make linux-kit KERNEL_LOCK=LOCK`: build/linux-NAME/vmlinuz and
# initrd.img), an image of it with the SVSM (csvsm-igvm build --linux,
# `make -s linux-cmdline`'s line), a boot on the emulated SEV-SNP machine
# with the relying party on the console (scripts/linux-relying-party.sh)
# and the host's checks of what the guest printed (test/linux/check.py),
# as `make linux-emu-check` does for the default kernel.
#   linux-matrix.sh [--smp N] [--mem SIZE] [--timeout S] [--out DIR] [LOCK...]
# One line per kernel: NAME, PASS or FAIL, the guest's "N passed, M
# failed", the boot's seconds, and for a failure why (the first failed
# checks, or how the machine ended); then a summary. Exit status 1 if any
# kernel failed. DIR (default build/linux-matrix) keeps NAME.igvm,
# NAME.log (the console), NAME.out (emu-run's), NAME-rp/ (the relying
# party's), NAME/ and NAME-check.log (check.py's), NAME-kit.log.
#
# A kit whose kernel has no SVSM vTPM driver (kit/tpm_svsm "none WHY":
# Linux 6.12) passes with the guest's TPM checks skipped for "no
# tpm_svsm: WHY", and check.py's failures then only the TPM's (its
# checks require them); the event log, written by the SVSM, is checked
# all the same. A kit made without modules (kit/modules-absent WHY: 6.19
# to 7.1, whose modules the suites lack) passes with the checks that need
# configfs-tsm, sev-guest and tpm_svsm skipped for "no modules: WHY", and
# check.py's failures only the reports' and the TPM's. The line says
# which checks were skipped, and why. Every other kit must pass
# check.py whole. One machine at a time.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

smp=2
mem=1G
timeout_s=600
out=build/linux-matrix
while [ $# -gt 0 ]; do
	case $1 in
	--smp) smp=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--timeout) timeout_s=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	-*) echo "linux-matrix: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
locks=("$@")
if [ ${#locks[@]} -eq 0 ]; then
	mapfile -t locks < <(printf '%s\n' test/linux/kernels/*.lock | sort -V)
fi
[ ${#locks[@]} -gt 0 ] || { echo "linux-matrix: no locks" >&2; exit 2; }
svsm=build/snp/csvsm-snp.elf
igvm=build/bin/csvsm-igvm
for f in "$svsm" "$igvm" build/machine/emu.elf build/bin/csvsm-verify; do
	[ -e "$f" ] || { echo "linux-matrix: $f missing (make linux-matrix builds it)" >&2; exit 2; }
done
mkdir -p "$out"
cmdfile=$out/cmdline
make -s --no-print-directory linux-cmdline >"$cmdfile" || exit 2

# The guest's checks a kit may have it skip: those that need tpm_svsm,
# and those that need the modules (configfs, tsm_report, sev-guest).
tpm_checks="tpm-devices tpm-dmesg tpm-random tpm-pcr-extend tpm-ek tpm-quote
	tpm-credential tpm-ekcert tpm-seal tpm-seal-refused tpm-persist pcr-measured"
mod_checks="configfs-tsm sev-guest attest-svsm attest-vmpl1 mem-shared-private
	attest-after-reload"
# check.py's checks that fail when the guest skipped CHECK:
# guest-CHECK (the guest's own results it requires passed) and those of
# what CHECK would have printed.
host_checks() { # CHECK
	echo "guest-$1"
	case $1 in
	attest-svsm) echo svsm-report ;;
	attest-vmpl1) echo plain-report ;;
	tpm-pcr-extend) echo pcr-extend ;;
	tpm-ek) echo ek-manifest ;;
	tpm-quote) echo quote ;;
	tpm-credential) echo credential ;;
	tpm-ekcert) echo ekcert; echo ekcert-ecc ;;
	pcr-measured) echo pcr-measured ;;
	esac
}

npass=0
nfail=0
failed=()
t_all=$SECONDS
printf '%-20s %-4s %-22s %7s  %s\n' KERNEL "" "GUEST" SECONDS ""
for lock in "${locks[@]}"; do
	name=$(basename "$lock" .lock)
	kit=build/linux-$name
	img=$out/$name.igvm
	log=$out/$name.log
	rm -rf "${out:?}/$name" "$out/$name-rp" "$log" "$out/$name.out" \
		"$out/$name-check.log" "$img"
	result="-" why="" secs="-" verdict=FAIL
	if ! make -s --no-print-directory linux-kit KERNEL_LOCK="$lock" \
		>"$out/$name-kit.log" 2>&1; then
		why="kit: $(grep -m1 -E 'linux-(fetch|initrd|module-build):' \
			"$out/$name-kit.log" || tail -n1 "$out/$name-kit.log")"
	elif ! entry=$(cat "$kit/entry" 2>/dev/null || echo decompressor) ||
		! "$igvm" build --svsm "$svsm" --linux "$kit/vmlinuz" \
		--initrd "$kit/initrd.img" --cmdline "$(cat "$cmdfile")" \
		--linux-entry "$entry" -o "$img" >"$out/$name-image.log" 2>&1; then
		why="image: $(tail -n1 "$out/$name-image.log")"
	else
		t0=$SECONDS
		scripts/linux-relying-party.sh --retry-crash --rp "$out/$name-rp" \
			--image "$img" \
			--smp "$smp" --mem "$mem" --timeout "$timeout_s" \
			--expect GUEST_POWEROFF \
			--log "$log" >"$out/$name.out" 2>&1
		st=$?
		secs=$((SECONDS - t0))
		ended=$(grep -a '^emu-run: -smp' "$out/$name.out" | tail -n1 |
			sed 's/^emu-run: -smp [0-9]*: //')
		result=$(tr -d '\r' <"$log" | grep -aoE '[0-9]+ passed, [0-9]+ failed$' |
			tail -n1)
		test/linux/check.py --smp "$smp" --linux-entry "$entry" \
			--kernel "$kit/vmlinuz" \
			--initrd "$kit/initrd.img" --cmdline "$cmdfile" \
			--credential "$out/$name-rp" "$log" "$out/$name" "$img" \
			>"$out/$name-check.log" 2>&1
		cst=$?
		# The host's failures, by check name.
		hostfail=$(sed -n 's/^linux-check: FAIL \([^:]*\):.*/\1/p' \
			"$out/$name-check.log" | tr '\n' ' ')
		# What the kit says the guest cannot check, and why: "CHECK
		# REASON" lines, and the host's checks that may fail for them.
		notpm="" nomod="" expect=""
		if [ -f "$kit/kit/tpm_svsm" ]; then
			read -r how notpm_why <"$kit/kit/tpm_svsm"
			case $how in
			none | missing) notpm="no tpm_svsm: $notpm_why" ;;
			esac
		fi
		if [ -f "$kit/kit/modules-absent" ]; then
			nomod="no modules: $(head -n1 "$kit/kit/modules-absent")"
			for c in $mod_checks; do
				expect+="$c $nomod"$'\n'
			done
		fi
		if [ -n "${notpm:-$nomod}" ]; then
			for c in $tpm_checks; do
				expect+="$c ${notpm:-$nomod}"$'\n'
			done
		fi
		# The guest's skips, "CHECK REASON", and those the kit calls for
		# that it did not make.
		skipped=$(tr -d '\r' <"$log" |
			sed -n 's/^.*SKIP \([a-z0-9-]*\): \(.*\)$/\1 \2/p')
		unskipped=$(grep -v '^$' <<<"$expect" | grep -vxF -f <(echo "$skipped") |
			cut -d' ' -f1 | tr '\n' ' ')
		allowed=$(while read -r c _; do
			[ -z "$c" ] || host_checks "$c"
		done <<<"$expect")
		# The host's failures the kit's skips do not explain.
		unexplained=$(tr ' ' '\n' <<<"$hostfail" | grep -v '^$' |
			grep -vxF -f <(echo "${allowed:-guest-none}") | tr '\n' ' ')
		if [ -n "$nomod" ] && [ -n "$notpm" ]; then
			skipnote="attestation checks skipped: $nomod; TPM checks skipped: $notpm"
		elif [ -n "$nomod" ]; then
			skipnote="attestation and TPM checks skipped: $nomod"
		else
			skipnote="TPM checks skipped: $notpm"
		fi
		if [ $st -ne 0 ]; then
			why="${ended:-emu-run failed}"
			[ -n "$result" ] || why="$why; no self-test result"
		elif [ -z "$result" ]; then
			why="no self-test result (${ended:-?})"
		elif [ $cst -eq 0 ]; then
			verdict=PASS
		elif [ -n "$expect" ] && [ -n "$unskipped" ]; then
			if [ -n "$nomod" ]; then
				read -r -a u <<<"$unskipped"
				why="the kit has no modules, but the guest did not skip ${u[*]:0:3}"
				[ ${#u[@]} -le 3 ] || why+=" and $((${#u[@]} - 3)) more"
			else
				why="the kit has no tpm_svsm, but the guest did not skip the TPM checks"
			fi
		elif [ -n "$expect" ] && [ -n "$hostfail" ] && [ -z "$unexplained" ]; then
			verdict=PASS
			why=$skipnote
		fi
		[ "$entry" = decompressor ] || why="entered at $entry${why:+; $why}"
		if [ $verdict = FAIL ] && [ -z "$why" ]; then
			# The guest's failures first, then the host's.
			why=$(tr -d '\r' <"$log" | sed -n 's/^.*\(FAIL [a-z0-9-]*\).*/\1/p' |
				grep -v 'FAIL watchdog' | head -n4 | sed 's/^FAIL //' | tr '\n' ' ')
			[ -n "$why" ] && why="guest: $why" ||
				why="host: $(tr ' ' '\n' <<<"${unexplained:-$hostfail}" |
					grep -v '^$' | head -n4 | tr '\n' ' ')"
		fi
	fi
	if [ $verdict = PASS ]; then
		npass=$((npass + 1))
	else
		nfail=$((nfail + 1))
		failed+=("$name")
	fi
	printf '%-20s %-4s %-22s %7s  %s\n' "$name" "$verdict" "${result:--}" \
		"$secs" "$why"
done
echo "linux-matrix: $npass passed, $nfail failed of ${#locks[@]} kernels" \
	"in $((SECONDS - t_all)) s (-smp $smp; logs in $out)${failed[*]:+; failed: ${failed[*]}}"
[ $nfail -eq 0 ]
