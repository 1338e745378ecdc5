#!/usr/bin/env bash
# make bench: cycles from reset to a guest's first instruction, from an
# emu console log (scripts/bench-emu.sh, scripts/bench-linux.sh). The
# machine's bench instrument (emu/src/hw/instrument.c) logs the TSC, which
# counts from reset, at the first VMRUN of VMPL0 (the SVSM) and of VMPL1.
#   bench-reset-to-guest.sh LOG
set -euo pipefail
first=$(sed -n 's/^emu: bench: first VMRUN at TSC: VMPL0 \([0-9]*\), VMPL1 \([0-9]*\) (from reset; TSC \([0-9]*\) kHz)$/\1 \2 \3/p' "$1" | head -n1)
read -r f0 f1 khz <<<"$first"
awk -v f0="$f0" -v f1="$f1" -v khz="$khz" 'BEGIN {
	printf "Reset to the guest'"'"'s first instruction: %.0f TSC cycles (%.0f ms" \
		" at %.0f kHz)\n  reset to the SVSM'"'"'s first VMRUN %.0f (%.0f ms)," \
		" the SVSM'"'"'s boot %.0f (%.0f ms)\n", f1, f1 / khz, khz, f0,
		f0 / khz, f1 - f0, (f1 - f0) / khz }'
