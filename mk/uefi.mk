# UEFI on csvsm (docs/uefi.md): Debian's OVMF at VMPL1, launched and
# served by the SVSM, boots Debian's kernel (LINUX_VMLINUZ, LINUX_INITRD
# of mk/linux.mk) from the host's fw_cfg as QEMU's -kernel/-initrd/-append
# present them; its EFI stub starts Linux. The kernel, initrd and command
# line are not in the image: the firmware measures them into the vTPM
# (OVMF_FORKY, which has edk2's SVSM vTPM driver) or nothing does
# (OVMF_TRIXIE, which has none).
#   build/csvsm-uefi.igvm         the SVSM with OVMF_FORKY
#   build/csvsm-uefi-2025.02.igvm the SVSM with OVMF_TRIXIE

UEFI := $(BUILD)/uefi
UEFI_IMAGE := $(BUILD)/csvsm-uefi.igvm
UEFI_IMAGE_TRIXIE := $(BUILD)/csvsm-uefi-2025.02.igvm

$(UEFI_IMAGE): $(BIN)/csvsm-igvm $(SNP_FW) $(OVMF_FORKY)
	@$(BIN)/csvsm-igvm build --svsm $(SNP_FW) --ovmf $(OVMF_FORKY) -o $@
	@echo "measurement: $$($(BIN)/csvsm-igvm measure $@)"
$(UEFI_IMAGE_TRIXIE): $(BIN)/csvsm-igvm $(SNP_FW) $(OVMF_TRIXIE)
	@$(BIN)/csvsm-igvm build --svsm $(SNP_FW) --ovmf $(OVMF_TRIXIE) -o $@
	@echo "measurement: $$($(BIN)/csvsm-igvm measure $@)"

# The command line OVMF hands the kernel: LINUX_CMDLINE, and what the
# self-test expects of the firmware's measurements (csvsm.measured=
# firmware or none, test/linux/csvsm-selftest) and, through 2026.08 with
# RAM above 4 GiB (UEFI_MAX_LOW), of its memory (csvsm.accept=lazy: some
# left unaccepted, for Linux to accept through the SVSM). A file per
# kind, for test/linux/check.py --cmdline.
UEFI_KINDS := firmware none shell
uefi_cmdline_for = $(strip $(if $(filter shell,$(1)),$(call \
	linux_cmdline_for,shell),$(LINUX_CMDLINE) csvsm.measured=$(1) \
	$(if $(filter firmware,$(1)),csvsm.accept=lazy)))
$(addprefix $(UEFI)/cmdline-,$(UEFI_KINDS)): $(UEFI)/cmdline-%: FORCE
	@mkdir -p $(@D)
	@printf '%s\n' '$(call uefi_cmdline_for,$*)' | cmp -s - $@ || \
		printf '%s\n' '$(call uefi_cmdline_for,$*)' > $@

UEFI_DEPS := $(UEFI_IMAGE) $(UEFI_IMAGE_TRIXIE) $(MACHINE_ELF) \
	$(RP_TOOLS) $(LINUX_VMLINUZ) $(LINUX_INITRD) \
	$(addprefix $(UEFI)/cmdline-,$(UEFI_KINDS))

# q35's max-ram-below-4g for the measured boots: of 896 MiB of guest
# RAM, 640 MiB lie above 4 GiB, which OVMF 2026.08 leaves unaccepted.
# (2025.02 would fail on it: its #VC handler forwards the SVSM CA MSR
# read Linux makes when it accepts memory early, ovmf-snp-svsm.md 5.7.)
UEFI_MAX_LOW := 256M

# One boot with the relying party and the host's checks:
# uefi_boot NAME IMAGE SMP KIND
define uefi_boot
	scripts/linux-relying-party.sh --retry-crash --rp $(UEFI)/$(1)-rp \
		--image $(2) --smp $(3) --mem 1G --timeout 900 \
		--expect GUEST_POWEROFF \
		--log $(UEFI)/$(1).log \
		$(if $(filter firmware,$(4)),--max-ram-below-4g $(UEFI_MAX_LOW)) \
		--guest-kernel $(LINUX_VMLINUZ) --guest-initrd $(LINUX_INITRD) \
		--guest-append "$$(cat $(UEFI)/cmdline-$(4))" >$(UEFI)/$(1).out; \
	st=$$?; tail -n1 $(UEFI)/$(1).out; \
	if [ $$st -ne 0 ]; then \
		grep -aE '^(FAIL|emu)' $(UEFI)/$(1).log | tail -n 20; exit 1; \
	fi; \
	test/linux/check.py --uefi $(4) --smp $(3) \
		--credential $(UEFI)/$(1)-rp --kernel $(LINUX_VMLINUZ) \
		--initrd $(LINUX_INITRD) --cmdline $(UEFI)/cmdline-$(4) \
		$(UEFI)/$(1).log $(UEFI)/$(1) $(2) || exit 1
endef

# make check's UEFI boots: the measured boot through OVMF 2026.08 at
# -smp 1 and -smp 4, and trixie's OVMF 2025.02 (no vTPM driver: nothing
# measured) at -smp 2. Logs and the host's files under build/uefi/.
.PHONY: uefi-check
uefi-check: $(UEFI_DEPS)
	@mkdir -p $(UEFI)
	@$(call uefi_boot,measured-smp1,$(UEFI_IMAGE),1,firmware)
	@$(call uefi_boot,measured-smp4,$(UEFI_IMAGE),4,firmware)
	@$(call uefi_boot,trixie-smp2,$(UEFI_IMAGE_TRIXIE),2,none)

# `make run-uefi` at a terminal, checked through a pseudo-terminal as
# linux-shell-check does `make run`'s: OVMF boots the kernel with the
# shell's command line, the shell answers, `poweroff -f` ends the VM
# (the session in build/uefi/shell-session.log).
.PHONY: uefi-shell-check
uefi-shell-check: $(UEFI_IMAGE) $(MACHINE_ELF) $(LINUX_VMLINUZ) \
		$(LINUX_INITRD) $(UEFI)/cmdline-shell
	@test/linux/shell_check.py --image $(UEFI_IMAGE) --smp 2 \
		--log $(UEFI)/shell-session.log -- \
		--guest-kernel $(LINUX_VMLINUZ) --guest-initrd $(LINUX_INITRD) \
		--guest-append "$$(cat $(UEFI)/cmdline-shell)"

# Wrong inputs on the UEFI path end at once with their reason: OVMF
# without SVSM support, truncated or damaged images refused by
# csvsm-igvm; damage the firmware itself finds, a file that is no kernel
# and a kernel that cannot run at VMPL1 stopped with the firmware's or
# the kernel's own report (scripts/uefi-refusal-check.sh).
.PHONY: uefi-refusal-check
uefi-refusal-check: $(BIN)/csvsm-igvm $(SNP_FW) $(MACHINE_ELF) $(OVMF_TRIXIE) \
		$(LINUX_OLD)/vmlinuz $(LINUX_VMLINUZ) $(LINUX_INITRD)
	@scripts/uefi-refusal-check.sh $(OVMF_TRIXIE) $(IGVM_OVMF_NO_SVSM) \
		$(LINUX_OLD)/vmlinuz
