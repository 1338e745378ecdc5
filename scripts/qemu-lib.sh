# shellcheck shell=bash
# What every QEMU run of csvsm shares, sourced by the runners
# (scripts/emu-run.sh, scripts/linux-baseline.sh, scripts/bench-uefi.sh).
#
# The CPU model: QEMU's EPYC (CPUID(1).EAX 0x800f12, the signature
# scripts/emu-measure.sh gives csvsm-igvm measure), with the features
# TCG cannot provide taken out so CPUID is honest. EPYC has SVM, nested
# paging, XSAVE/AVX and RDRAND.
qemu_cpu_minus=-rdseed,-sha-ni,-fxsr-opt,-misalignsse,-3dnowprefetch,-osvw
qemu_cpu_minus=$qemu_cpu_minus,-topoext,-nrip-save,-xsavec
# A plain guest's CPU (the baselines).
# shellcheck disable=SC2034
QEMU_CPU_PLAIN=EPYC,$qemu_cpu_minus
# The emulated machine's: phys-bits=52 and LA57 give the 52-bit guest
# physical space the C-bit (51) lives in.
# shellcheck disable=SC2034
QEMU_CPU_EMU=EPYC,phys-bits=52,+la57,$qemu_cpu_minus
