# csvsm: the only entry point. `make` builds, `make check` runs every test,
# `make run` shows a session, `make bench` prints the benchmarks, `make fuzz`
# fuzzes longer. See README.md.

.DEFAULT_GOAL := all
.SUFFIXES:
.DELETE_ON_ERROR:
# Object files are results, not intermediates: keep them.
.SECONDARY:

include mk/toolchain.mk
include mk/sources.mk
include mk/pki.mk
include mk/host.mk
include mk/fuzz.mk
include mk/ekca.mk
include mk/checks.mk
include mk/firmware.mk
include mk/ovmf.mk
include mk/snp.mk
include mk/machine.mk
include mk/linux.mk
include mk/uefi.mk

.PHONY: all setup run run-uefi run-test-guest run-sim check bench fuzz clean format tidy

all: $(HOST_BINS) $(ASAN_BINS) $(FUZZ_TARGETS) $(SNP_FW) $(MACHINE_ELF) \
	freestanding-check

# Installs the Debian packages the build and tests need (idempotent).
setup:
	@scripts/setup.sh

# Boots build/csvsm.igvm (the snp firmware and the test guest) on the
# emulated SEV-SNP machine under QEMU, with two CPUs.
# `make run`: Debian's Linux on csvsm in the machine with two CPUs
# (docs/linux.md, "make run"). At a terminal, a shell on the console
# (build/csvsm-linux-shell.igvm) until `poweroff -f` or Ctrl-A X; else
# the self-test, its credential and EK certificate requests answered on
# the console (scripts/linux-relying-party.sh), then power-off, and
# status 0 only if nothing failed. The vTPM keeps its state between runs
# on the SVSM's block device, a file per image under build/vtpm/
# (docs/vtpm.md, "Persistent state"); `make run VTPM_FRESH=1` starts
# with none (a new TPM).
RUN_LOG := $(BUILD)/run/linux.log
VTPM_STATE_DIR := $(BUILD)/vtpm
# run_vtpm_state NAME: the state file for image NAME, removed first
# with VTPM_FRESH=1 (inside a recipe's shell line)
define run_vtpm_state
$(if $(filter 1,$(VTPM_FRESH)),rm -f $(VTPM_STATE_DIR)/$(1).img;) \
		echo "make run: the vTPM's state: $(VTPM_STATE_DIR)/$(1).img$(if \
		$(filter 1,$(VTPM_FRESH)), (started afresh))"
endef
# What the SVSM says of the vTPM's state in LOG, the EK the self-test
# printed and its sealed secret (tpm-persist): two runs in a row show
# one EK, and the second finds the first's secret.
define run_vtpm_summary
tr -d '\r' <$(1) | sed -n 's/^\[csvsm\] NOTICE: \(vTPM state: [a-z].*\)$$/make run: \1/p' | tail -n1; \
		tr -d '\r' <$(1) | sed -n 's/^csvsm-selftest: \(ek: .*\)$$/make run: \1/p' | tail -n1; \
		tr -d '\r' <$(1) | sed -n 's/^csvsm-selftest: \(persist: .*\)$$/make run: \1/p' | tail -n1
endef
# The self-test's verdict in LOG, for `make TARGET`: its result line,
# status 0 only if something passed and nothing failed; else its first
# failures, or the guest's last words if it printed no result.
# selftest_verdict TARGET LOG (inside a recipe's shell line)
define selftest_verdict
r=$$(grep -aoE '[0-9]+ passed, [0-9]+ failed' $(2) | tail -n1); \
		case "$$r" in \
		[1-9]*" 0 failed") echo "make $(1): the self-test: $$r" ;; \
		*) if [ -n "$$r" ]; then \
			tr -d '\r' <$(2) | grep -a '^FAIL' | head -n 5 | \
				cut -c1-200; \
		else \
			tr -d '\r' <$(2) | grep -avE '^(emu: |CSVSM-)' | \
				tail -n 6 | cut -c1-200; \
		fi; \
		echo "make $(1): the self-test did not pass:" \
			"'$${r:-no result line}' (log: $(2))"; exit 1 ;; \
		esac
endef
run: setup
	@if [ -t 0 ]; then \
		$(MAKE) --no-print-directory $(MACHINE_ELF) \
			$(BUILD)/csvsm-linux-shell.igvm || exit 1; \
		$(call run_vtpm_state,linux-shell); \
		scripts/emu-run.sh --image $(BUILD)/csvsm-linux-shell.igvm \
			--smp 2 --mem 1G --timeout 0 --interactive \
			--blk $(VTPM_STATE_DIR)/linux-shell.img --log $(RUN_LOG); \
	else \
		$(MAKE) --no-print-directory $(MACHINE_ELF) \
			$(BUILD)/csvsm-linux.igvm $(RP_TOOLS) || exit 1; \
		$(call run_vtpm_state,linux); \
		scripts/linux-relying-party.sh --image $(BUILD)/csvsm-linux.igvm \
			--smp 2 --mem 1G --timeout 900 \
			--expect GUEST_POWEROFF \
			--blk $(VTPM_STATE_DIR)/linux.img --log $(RUN_LOG) || exit 1; \
		$(call run_vtpm_summary,$(RUN_LOG)); \
		$(call selftest_verdict,run,$(RUN_LOG)); \
	fi

# `make run-uefi`: the same kernel through Debian's OVMF 2026.08 at VMPL1,
# which csvsm launches and serves and which measures the boot into csvsm's
# vTPM (docs/uefi.md), with two CPUs. At a terminal, a shell on the
# console; else the self-test with its relying party, and status 0 only
# if nothing failed.
RUN_UEFI_LOG := $(BUILD)/run/uefi.log
run-uefi: setup
	@if [ -t 0 ]; then \
		$(MAKE) --no-print-directory $(MACHINE_ELF) $(UEFI_IMAGE) \
			$(LINUX_VMLINUZ) $(LINUX_INITRD) $(UEFI)/cmdline-shell || exit 1; \
		scripts/emu-run.sh --image $(UEFI_IMAGE) \
			--smp 2 --mem 1G --timeout 0 --interactive \
			--guest-kernel $(LINUX_VMLINUZ) --guest-initrd $(LINUX_INITRD) \
			--guest-append "$$(cat $(UEFI)/cmdline-shell)" \
			--log $(RUN_UEFI_LOG); \
	else \
		$(MAKE) --no-print-directory $(MACHINE_ELF) $(UEFI_IMAGE) \
			$(LINUX_VMLINUZ) $(LINUX_INITRD) $(UEFI)/cmdline-firmware \
			$(RP_TOOLS) || exit 1; \
		scripts/linux-relying-party.sh --image $(UEFI_IMAGE) \
			--smp 2 --mem 1G --timeout 900 \
			--expect GUEST_POWEROFF \
			--max-ram-below-4g $(UEFI_MAX_LOW) \
			--guest-kernel $(LINUX_VMLINUZ) --guest-initrd $(LINUX_INITRD) \
			--guest-append "$$(cat $(UEFI)/cmdline-firmware)" \
			--log $(RUN_UEFI_LOG) || exit 1; \
		$(call selftest_verdict,run-uefi,$(RUN_UEFI_LOG)); \
	fi

# The test guest on two CPUs: the SVSM's log and its results (what
# `make run` showed before Linux).
run-test-guest: setup
	@$(MAKE) --no-print-directory $(MACHINE_ELF) $(BUILD)/csvsm.igvm
	@scripts/emu-run.sh --image $(BUILD)/csvsm.igvm --smp 2

# The simulator's narrated session (what `make run` showed before emu).
run-sim: setup
	@$(MAKE) --no-print-directory $(BIN)/csvsm-sim
	@$(BIN)/csvsm-sim demo

check: setup
	@$(MAKE) --no-print-directory check-all

check-all: format-check banned-check layers-check tcb-check tidy freestanding-check \
	docs-check \
	test test-snp test-asan emu-check emu-chip-check emu-blk-check emu-hostile-check vtpm-check attest-check ekca-check igvm-check \
	igvm-host-check \
	snp-image-check linux-check-test linux-repro-check linux-emu-check linux-persist-check \
	linux-hostile-check \
	linux-stable-check \
	linux-refusal-check linux-shell-check uefi-check uefi-shell-check uefi-refusal-check \
	fuzz-smoke fresh-clone-check
	@echo "make check: all checks passed"

# An emulated chip keeps its identity: the SVSM's sealing key (its
# fingerprint) the same on one chip and image run after run, another on
# another chip or MEASUREMENT; each chip's reports carry its own CHIP_ID
# and verify with its own VCEK (scripts/emu-chip-check.sh; four runs).
.PHONY: emu-chip-check
emu-chip-check: $(MACHINE_ELF) $(EMU_IMAGE) $(BIN)/csvsm-verify $(PKI_FILES)
	@scripts/emu-chip-check.sh $(EMU_IMAGE)

# The SVSM's block device: the host's file (emu-run.sh --blk) found by the
# machine and served at the SVSM's slot, VMPL0's only, where the SVSM
# finds its size; the file made at its size and kept, the vTPM's state in
# it from one run to the next; each lie of the device met by its named
# termination (scripts/emu-blk-check.sh; eleven runs, about 75 s).
.PHONY: emu-blk-check
emu-blk-check: $(MACHINE_ELF) $(EMU_IMAGE)
	@scripts/emu-blk-check.sh $(EMU_IMAGE)

# A newcomer's first run: `make run </dev/null` in a fresh clone of HEAD,
# nothing built, the kits cached outside the tree reused; the clone is
# removed afterwards (scripts/fresh-clone-check.sh).
.PHONY: fresh-clone-check
fresh-clone-check:
	@scripts/fresh-clone-check.sh $(FRESH_CLONE_JOBS)

bench: setup
	@$(MAKE) --no-print-directory $(BIN)/csvsm-bench $(BIN)/csvsm-bench-snp \
		$(BIN)/csvsm-bench-vtpm $(BIN)/csvsm-bench-vtpm-state \
		$(MACHINE_ELF) $(BUILD)/csvsm.igvm $(BUILD)/csvsm-linux.igvm \
		$(BUILD)/csvsm-linux-tpmbench.igvm $(RP_TOOLS)
	@scripts/bench.sh $(BIN)/csvsm-bench
	@CSVSM_SIM_PLATFORM=snp scripts/bench.sh $(BIN)/csvsm-bench-snp
	@scripts/bench-vtpm.sh
	@scripts/bench-emu.sh
	@scripts/bench-linux.sh --smp 2
	@scripts/bench-linux-tpm.sh --smp 2
	@$(MAKE) --no-print-directory $(UEFI_IMAGE) $(UEFI)/cmdline-firmware && scripts/bench-uefi.sh --max-ram-below-4g $(UEFI_MAX_LOW)

clean:
	rm -rf build
