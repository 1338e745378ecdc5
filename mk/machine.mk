# The emulated SEV-SNP machine (emu/): a freestanding PVH ELF that QEMU
# boots, which launches build/csvsm.igvm and runs it as SNP hardware, its
# PSP and KVM would (docs/emu.md). It links the RMP and PSP models
# (model/snp), the KVM model (model/kvm, sim's hypervisor too), the
# formatter and allocator the SVSM uses, and libcrypto for the PSP, with
# the firmware's flags (mk/firmware.mk).

MACHINE_OBJ := $(BUILD)/machine
MACHINE_ELF := $(MACHINE_OBJ)/emu.elf
MACHINE_C := $(sort $(wildcard emu/src/*/*.c emu/src/*/*/*.c))
MACHINE_S := $(sort $(wildcard emu/src/*/*.S))
MACHINE_LIB_C := src/lib/fmt.c src/lib/log.c src/lib/panic.c \
	src/lib/lib_lock.c $(sort $(wildcard src/mem/*.c)) $(LIBC_SRCS) \
	$(MODEL_SRCS) $(X86_C_SRCS) \
	src/crypto/libcrypto.c $(PKI_C)
MACHINE_LIB_S := $(X86_S_SRCS) $(LIBC_S_SRCS)

machine_objs = $(patsubst %,$(MACHINE_OBJ)/%.o,$(1))

# How a run of the machine ends, from its one list
# (emu/src/machine/machine_exits.h) through the C preprocessor (as assembler's:
# the list without its C), for the scripts that run the machine:
# MACHINE_EXIT_NAME=status and machine_exit_what STATUS, sourced by
# scripts/emu-run.sh (whose --expect takes a NAME too). Made with the
# machine, so a script never runs one without the other.
MACHINE_EXITS_H := emu/src/machine/machine_exits.h
MACHINE_EXITS_SH := $(MACHINE_OBJ)/exits.sh
machine_exits = printf '\#define X(n, s, b, w) EXROW n|s|b|w\nMACHINE_EXITS(X)\n' \
	| $(CC) -E -P -include $(MACHINE_EXITS_H) -x assembler-with-cpp - \
	| sed 's/EXROW /\n/g; s/" "//g; s/"//g' | sed 's/ *$$//; /^$$/d'

# The models (and the emulated PSP's TEST identity, $(PKI_C)) are built
# with the firmware's flags, and only they and the machine see
# model/include: the SVSM firmware's objects do not.
$(call fw_objs,$(MODEL_SRCS) $(PKI_C)): FW_CFLAGS += $(MODEL_INCLUDES)

$(MACHINE_OBJ)/%.c.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $< (machine)"
	@$(CC) $(FW_CFLAGS) $(MODEL_INCLUDES) -Iemu/src -MMD -MP -c $< -o $@

$(MACHINE_OBJ)/%.S.o: %.S
	@mkdir -p $(dir $@)
	@echo "  AS      $< (machine)"
	@$(CC) $(FW_CFLAGS) $(MODEL_INCLUDES) -Iemu/src -MMD -MP -c $< -o $@

$(MACHINE_ELF): $(call machine_objs,$(MACHINE_C) $(MACHINE_S)) \
		$(call fw_objs,$(MACHINE_LIB_C) $(MACHINE_LIB_S)) \
		emu/src/machine/machine.ld | $(MACHINE_EXITS_SH)
	@echo "  LD      $@"
	@$(CC) $(FW_LDFLAGS) -Wl,--gc-sections -Wl,-T,emu/src/machine/machine.ld \
		$(call machine_objs,$(MACHINE_C) $(MACHINE_S)) \
		$(call fw_objs,$(MACHINE_LIB_C) $(MACHINE_LIB_S)) \
		$(LIBDIR)/libcrypto.a -lgcc -o $@


$(MACHINE_EXITS_SH): $(MACHINE_EXITS_H) mk/machine.mk
	@mkdir -p $(dir $@)
	@echo "  GEN     $@"
	@{ echo '# Made from $(MACHINE_EXITS_H) by mk/machine.mk.'; \
	  $(machine_exits) | awk -F'|' '{ print "MACHINE_EXIT_" $$1 "=" $$2 }'; \
	  echo 'machine_exit_what() { # STATUS: its meaning, or fail'; \
	  echo '	case $$1 in'; \
	  $(machine_exits) | awk -F'|' '{ print "\t" $$2 ") echo \"" $$4 "\" ;;" }'; \
	  printf '\t*) return 1 ;;\n\tesac\n}\n'; } >$@.tmp && mv $@.tmp $@

.PHONY: machine
machine: $(MACHINE_ELF)

# The test guest through the snp firmware on the machine at -smp 1 and 4:
# every guest check, the machine's launch measurement equal to
# csvsm-igvm's, and the attestation report verified (scripts/emu-run.sh);
# -smp 4 once more with a TCG thread per vCPU, for true parallelism.
.PHONY: emu-check emu-hostile-check
EMU_IMAGE := $(BUILD)/csvsm.igvm
emu-check: $(MACHINE_ELF) $(EMU_IMAGE) $(BIN)/csvsm-verify $(PKI_FILES)
	@scripts/emu-run.sh --image $(EMU_IMAGE) --smp 1 --check
	@test/attest/attest-emu.sh $(MACHINE_OBJ)/run-smp1.log $(EMU_IMAGE)
	@scripts/emu-run.sh --image $(EMU_IMAGE) --smp 4 --check
	@test/attest/attest-emu.sh $(MACHINE_OBJ)/run-smp4.log $(EMU_IMAGE)
	@CSVSM_TCG_THREAD=multi scripts/emu-run.sh --image $(EMU_IMAGE) \
		--smp 4 --check --log $(MACHINE_OBJ)/run-smp4-multi.log

# A bad image is refused by the PSP with a reason (LAUNCH_REFUSED); each
# hostile hypervisor behaviour ends as its victim must end it: the PSP
# refuses a lying CPUID page, the snp firmware terminates with its named
# reason (SVSM_TERM, and the reason's name in its log), every one of
# emu/src/hv/hv_modes.h (hv_modes_run, below). A guest's triple fault ends
# in a shutdown (GUEST_SHUTDOWN), and a run past its timeout in the
# machine's stop with each vCPU's whereabouts (HOST_STOP, postmortem.h).
# The statuses are named as emu/src/machine/machine_exits.h names them, and
# emu-run.sh --expect reads the names.
comma := ,
EMU_BAD := truncated checksum vmsa-outside page-outside page-twice \
	vmsa-elsewhere vmsa-field vmsa-features
define emu_expect
	@scripts/emu-run.sh --image $(1) --smp 1 --expect $(2) --timeout 240 \
		--log $(MACHINE_OBJ)/hostile-$(3).log $(4) >/dev/null
	@grep -q -- '$(5)' $(MACHINE_OBJ)/hostile-$(3).log || { \
		echo "emu-hostile-check: $(3): no '$(5)' in the log"; exit 1; }
	@echo "emu-hostile-check: $(3): $(5)"
endef

# The hypervisor's hostile behaviours, from their one list
# (emu/src/hv/hv_modes.h) through the C preprocessor: a line per behaviour,
# "name|status|log pattern|Linux status|Linux log pattern".
HV_MODES_H := emu/src/hv/hv_modes.h
hv_modes = printf '\#define X(i, n, k, p, w, s, e, ls, le) HVROW n|s|e|ls|le\nHV_MODES(X)\n' \
	| $(CC) -E -P -include $(HV_MODES_H) -x c - \
	| sed 's/HVROW /\n/g; s/"//g' | sed 's/ *$$//; /^$$/d'
# Each behaviour but honest on IMAGE ($(1)), with emu-run.sh's options
# $(2), whose pattern in the list's column $(3) (1: the test image, 2:
# Linux) is not empty; logs $(MACHINE_OBJ)/$(4)-NAME.log. The run must
# end with its status, its log show the pattern and the lie ("lies").
# Linux's runs have a relying party on the console (its files in
# NAME-rp/), so a self-test that survives the lie ends without waiting.
define hv_modes_run
	@$(hv_modes) | tail -n +2 | while IFS='|' read -r n s1 e1 s2 e2; do \
		st=$$s$(3); pat=$$e$(3); [ -n "$$pat" ] || continue; \
		log=$(MACHINE_OBJ)/$(4)-$$n.log; t0=$$(date +%s); \
		run=scripts/emu-run.sh; [ $(3) = 1 ] || \
			run="scripts/linux-relying-party.sh --rp $(MACHINE_OBJ)/$(4)-$$n-rp"; \
		$$run --image $(1) $(2) --expect $$st \
			--timeout 240 --log $$log --hv $$n </dev/null >/dev/null \
			|| { echo "$(4): $$n: not status $$st ($$log)"; exit 1; }; \
		grep -q -- "$$pat" $$log || { \
			echo "$(4): $$n: no '$$pat' in $$log"; exit 1; }; \
		grep -q 'lies' $$log || { \
			echo "$(4): $$n: the log shows no lie ($$log)"; exit 1; }; \
		echo "$(4): $$n: $$pat ($$(($$(date +%s) - t0)) s)"; \
	done
endef
emu-hostile-check: $(MACHINE_ELF) $(EMU_IMAGE)
	@for m in $(EMU_BAD); do \
		test/emu/bad_image.py $$m $(EMU_IMAGE) $(MACHINE_OBJ)/bad-$$m.igvm \
			|| exit 1; done
	$(call emu_expect,$(MACHINE_OBJ)/bad-truncated.igvm,LAUNCH_REFUSED,truncated,,launch refused: )
	$(call emu_expect,$(MACHINE_OBJ)/bad-checksum.igvm,LAUNCH_REFUSED,checksum,,launch refused: )
	$(call emu_expect,$(MACHINE_OBJ)/bad-vmsa-outside.igvm,LAUNCH_REFUSED,vmsa-outside,,launch refused: )
	$(call emu_expect,$(MACHINE_OBJ)/bad-page-outside.igvm,LAUNCH_REFUSED,page-outside,,launch refused: )
	$(call emu_expect,$(MACHINE_OBJ)/bad-page-twice.igvm,LAUNCH_REFUSED,page-twice,,launch refused: .*launched twice)
	$(call emu_expect,$(MACHINE_OBJ)/bad-vmsa-elsewhere.igvm,LAUNCH_REFUSED,vmsa-elsewhere,,launch refused: .*QEMU takes one only at 0xfffffffff000)
	$(call emu_expect,$(MACHINE_OBJ)/bad-vmsa-field.igvm,LAUNCH_REFUSED,vmsa-field,,launch refused: .*VMSA byte 0x240 is a field QEMU does not load)
	$(call emu_expect,$(MACHINE_OBJ)/bad-vmsa-features.igvm,LAUNCH_REFUSED,vmsa-features,,launch refused: .*SEV features 0x29)
	$(call hv_modes_run,$(EMU_IMAGE),--smp 1,1,emu-hostile-check)
	$(call emu_expect,$(EMU_IMAGE),GUEST_POWEROFF,guest-poweroff,-- -fw_cfg name=opt/csvsm/guest-end$(comma)string=poweroff,VMPL1: ACPI power-off)
	$(call emu_expect,$(EMU_IMAGE),GUEST_RESET,guest-reset,-- -fw_cfg name=opt/csvsm/guest-end$(comma)string=reset,VMPL1: reset (0xCF9))
	$(call emu_expect,$(EMU_IMAGE),GUEST_SHUTDOWN,guest-triple-fault,-- -fw_cfg name=opt/csvsm/guest-end$(comma)string=triple-fault,VMPL1: shutdown (triple fault: #GP delivering #DF))
	$(call emu_expect,$(EMU_IMAGE),GUEST_TERM,guest-term-private-ghcb,-- -fw_cfg name=opt/csvsm/guest-end$(comma)string=terminate-private-ghcb,registered GHCB [0-9a-f]*: not a shared page$(comma) not read)
	$(call emu_expect,$(EMU_IMAGE),HOST_STOP,host-stop,--timeout 3,emu: stop: vCPU 0 VMPL)

# Every hostile behaviour with a Linux outcome (hv_modes.h's Linux
# column) on the Linux image: those told from boot end in the SVSM's
# boot, before Linux runs (a few seconds), or, told on a guest request or
# as #HV, while the SVSM serves Linux; the run-time ones (NAME@run, to the
# SVSM once Linux made its first exit; NAME@guest, to Linux only) end
# while Linux's decompressor runs; psc-partial, psp-truncated,
# psp-bad-status and msr-changed@guest Linux survives: its self-test runs
# to the end (a relying party answers on the console) and it powers off.
.PHONY: linux-hostile-check
linux-hostile-check: $(BUILD)/csvsm-linux.igvm $(MACHINE_ELF) $(RP_TOOLS)
	$(call hv_modes_run,$(BUILD)/csvsm-linux.igvm,--smp 1 --mem 1G,2,linux-hostile-check)
