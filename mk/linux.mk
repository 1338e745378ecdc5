# The Linux guest kit (docs/linux.md): Debian's kernel, the modules for
# configfs-tsm and sev-guest, and busybox-static, fetched at the versions
# test/linux/debian.lock pins, and tpm_svsm.ko built for that kernel from
# the pinned linux-source and linux-headers; tpm2-tools and every library
# it loads at the versions test/linux/userspace.lock pins (one lock for
# every kernel's kit); all cached outside the tree (scripts/linux-fetch.sh,
# scripts/linux-module-build.sh, scripts/linux-userspace.sh), and the
# initramfs with the self-test (scripts/linux-initrd.sh), nothing in it
# from the host's filesystem.
# `make linux-baseline` boots both with plain QEMU, no SEV. Not part of
# `make check` yet.

LINUX := $(BUILD)/linux
LINUX_LOCK := test/linux/debian.lock
LINUX_USERSPACE := test/linux/userspace.lock scripts/linux-userspace.sh \
	scripts/apt-private.sh
LINUX_VMLINUZ := $(LINUX)/vmlinuz
LINUX_INITRD := $(LINUX)/initrd.img
LINUX_GUEST_FILES := test/linux/init test/linux/csvsm-selftest \
	test/linux/csvsm-tpmbench test/linux/csvsm-ekcert test/linux/tpm_rtt.c
# The command line for Linux at VMPL1 under csvsm: a serial console that
# shows errors only (each byte is a #VC under SNP), options that spare the
# machine emulation Linux does not need (no HPET, a 256 KiB SWIOTLB, no
# LA57 trampoline, no i8042 probes, no check of the 8254's IRQ 0 through
# the IO-APIC: the machine has no PIT interrupt, Linux times with the
# local APIC), a reboot (so an exit) on panic, and the self-test
# (docs/linux.md, "The command line"). Overridable on make's command line;
# the image is rebuilt when it changes ($(LINUX)/cmdline).
LINUX_CMDLINE ?= console=ttyS0,115200 quiet nokaslr no5lvl hpet=disable \
	no_timer_check tsc=reliable swiotlb=128 i8042.noaux \
	i8042.nokbd panic=-1 csvsm.test=1

# The same line with another csvsm.test= mode (test/linux/init): `shell`
# for `make run` at a terminal (a shell on the console instead of the
# self-test), `tpmbench` for make bench's TPM commands. The line is
# measured, so each mode has its own image, build/csvsm-linux-MODE.igvm
# (below).
LINUX_MODES := shell tpmbench
linux_cmdline_for = $(patsubst csvsm.test=%,csvsm.test=$(1),$(LINUX_CMDLINE))

# The command lines as files that change only when the lines do.
.PHONY: FORCE
FORCE:
$(LINUX)/cmdline: FORCE
	@mkdir -p $(@D)
	@printf '%s\n' '$(strip $(LINUX_CMDLINE))' | cmp -s - $@ || \
		printf '%s\n' '$(strip $(LINUX_CMDLINE))' > $@
$(addprefix $(LINUX)/cmdline-,$(LINUX_MODES)): $(LINUX)/cmdline-%: FORCE
	@mkdir -p $(@D)
	@printf '%s\n' '$(strip $(call linux_cmdline_for,$*))' | cmp -s - $@ || \
		printf '%s\n' '$(strip $(call linux_cmdline_for,$*))' > $@

# build/csvsm-linux.igvm (mk/snp.mk) with another mode's command line:
# csvsm-linux-shell.igvm for `make run`, csvsm-linux-tpmbench.igvm for
# make bench.
$(addprefix $(BUILD)/csvsm-linux-,$(addsuffix .igvm,$(LINUX_MODES))): \
		$(BUILD)/csvsm-linux-%.igvm: $(BIN)/csvsm-igvm $(SNP_FW) \
		$(LINUX_KERNEL) $(LINUX_INITRD) $(BUILD)/linux/cmdline-%
	@$(BIN)/csvsm-igvm build --svsm $(SNP_FW) --linux $(LINUX_KERNEL) \
		--initrd $(LINUX_INITRD) \
		--cmdline "$$(cat $(BUILD)/linux/cmdline-$*)" -o $@
	@echo "measurement: $$($(BIN)/csvsm-igvm measure $@)"

$(LINUX_VMLINUZ) $(LINUX)/VERSION $(LINUX)/kit/PACKAGES &: $(LINUX_LOCK) \
		scripts/linux-fetch.sh scripts/linux-module-build.sh \
		$(LINUX_USERSPACE)
	@scripts/linux-fetch.sh --lock $(LINUX_LOCK) $(LINUX)

# Everything in it comes from the kit (the locks) and the tree.
$(LINUX_INITRD): $(LINUX)/kit/PACKAGES $(LINUX_GUEST_FILES) \
		scripts/linux-initrd.sh
	@scripts/linux-initrd.sh $(LINUX)/kit $@

# Debian 12's 6.1: a kernel too old for an SVSM, for the refusal checks.
LINUX_OLD := $(BUILD)/linux-6.1
$(LINUX_OLD)/vmlinuz: test/linux/debian-6.1.lock scripts/linux-fetch.sh
	@scripts/linux-fetch.sh --lock $< $(LINUX_OLD)

# Any Debian kernel's kit (docs/linux.md, "The kernel matrix"):
# `make linux-kit KERNEL_LOCK=test/linux/kernels/6.18-amd64.lock`
# gives build/linux-6.18-amd64/vmlinuz and initrd.img (the directory is
# named after the lock). Debian stable's kernel by default.
KERNEL_LOCK ?= test/linux/kernels/6.12-amd64.lock
KERNEL_KIT := $(BUILD)/linux-$(basename $(notdir $(KERNEL_LOCK)))
$(KERNEL_KIT)/vmlinuz $(KERNEL_KIT)/kit/PACKAGES &: $(KERNEL_LOCK) \
		scripts/linux-fetch.sh scripts/linux-module-build.sh \
		$(LINUX_USERSPACE)
	@scripts/linux-fetch.sh --lock $(KERNEL_LOCK) $(KERNEL_KIT)
$(KERNEL_KIT)/initrd.img: $(KERNEL_KIT)/kit/PACKAGES $(LINUX_GUEST_FILES) \
		scripts/linux-initrd.sh
	@scripts/linux-initrd.sh $(KERNEL_KIT)/kit $@

.PHONY: linux linux-fetch linux-old linux-baseline linux-latest linux-cmdline \
	linux-kit linux-userspace-latest
# build/linux/vmlinuz, build/linux/VERSION, build/linux/initrd.img
linux: $(LINUX_VMLINUZ) $(LINUX_INITRD)

linux-fetch: $(LINUX_VMLINUZ)

# build/linux-6.1/vmlinuz
linux-old: $(LINUX_OLD)/vmlinuz

# build/linux-NAME/vmlinuz and initrd.img for KERNEL_LOCK (above).
linux-kit: $(KERNEL_KIT)/vmlinuz $(KERNEL_KIT)/initrd.img

# The kit without SEV on plain QEMU: reaches the self-test, passes its
# no-SEV checks and powers off; prints the boot time.
linux-baseline: linux
	@scripts/linux-baseline.sh --smp 2

# The lock lines for the newest 7.3 kernel the suites carry now.
linux-latest:
	@scripts/linux-fetch.sh --latest 7.3 $(LINUX)

# The lock lines for the userspace the suites carry now (tpm2-tools and
# what it loads), to replace test/linux/userspace.lock's.
linux-userspace-latest:
	@scripts/linux-userspace.sh --latest --apt $(LINUX)/apt-userspace

linux-cmdline:
	@echo '$(LINUX_CMDLINE)'

# The measured image is a function of the tree and its locks: the
# userspace from the pinned .debs alone, the initramfs and the image
# built twice from copies of their inputs in two directories (another
# umask, time zone and locale in the second) give the same bytes and
# MEASUREMENT as build/linux/initrd.img and build/csvsm-linux.igvm
# (scripts/linux-repro-check.sh; prints the MEASUREMENT and PCRs 8 and 9
# a relying party expects).
.PHONY: linux-repro-check
linux-repro-check: $(LINUX)/kit/PACKAGES $(LINUX_VMLINUZ) $(LINUX_INITRD) \
		$(LINUX)/cmdline $(BIN)/csvsm-igvm $(SNP_FW) \
		$(BUILD)/csvsm-linux.igvm scripts/linux-repro-check.sh
	@scripts/linux-repro-check.sh $(LINUX)/kit $(LINUX_VMLINUZ) $(SNP_FW) \
		$(BIN)/csvsm-igvm $(LINUX)/cmdline $(LINUX_INITRD) \
		$(BUILD)/csvsm-linux.igvm

# test/linux/check.py on logs made from csvsm-sim's reports: extraction,
# verification and each failure it must catch; no kernel, no QEMU.
.PHONY: linux-check-test
linux-check-test: $(BIN)/csvsm-sim $(BIN)/csvsm-verify $(PKI_FILES)
	@test/linux/check-test.sh

# Debian's kernel on csvsm in the emulated SEV-SNP machine (docs/linux.md):
# at -smp 1 and -smp 4 the self-test passes and the guest powers off, a
# relying party on its console answers its credential request
# (scripts/linux-relying-party.sh), and the host verifies the reports it
# printed against `csvsm-igvm measure` of the image and the secret it
# recovered (test/linux/check.py). Logs and report files under
# build/linux-emu/.
LINUX_EMU := $(BUILD)/linux-emu
.PHONY: linux-emu-check
linux-emu-check: $(BUILD)/csvsm-linux.igvm $(MACHINE_ELF) $(RP_TOOLS)
	@mkdir -p $(LINUX_EMU)
	@for n in 1 4; do \
		scripts/linux-relying-party.sh --retry-crash \
			--rp $(LINUX_EMU)/smp$$n-rp \
			--image $(BUILD)/csvsm-linux.igvm --smp $$n \
			--mem 1G --timeout 900 \
			--expect GUEST_POWEROFF \
			--log $(LINUX_EMU)/smp$$n.log >$(LINUX_EMU)/smp$$n.out; \
		st=$$?; tail -n1 $(LINUX_EMU)/smp$$n.out; \
		if [ $$st -ne 0 ]; then \
			grep -E '^(FAIL|emu)' $(LINUX_EMU)/smp$$n.log | tail -n 20; \
			exit 1; \
		fi; \
		test/linux/check.py --smp $$n \
			--credential $(LINUX_EMU)/smp$$n-rp $(LINUX_EMU)/smp$$n.log \
			$(LINUX_EMU)/smp$$n $(BUILD)/csvsm-linux.igvm || exit 1; \
	done

# The vTPM's state across six boots of Linux on one file the host keeps
# (scripts/linux-persist-check.sh; docs/vtpm.md, "Persistent state"):
# stored, found, replayed (the ledger's rollback), corrupted, truncated,
# and under another image (Linux's image with another command line,
# another MEASUREMENT). Logs and files under build/linux-persist/.
LINUX_OTHER_CMDLINE := $(BUILD)/linux/cmdline-other
$(LINUX_OTHER_CMDLINE): $(BUILD)/linux/cmdline
	@printf '%s csvsm.image=other\n' "$$(cat $<)" >$@
$(BUILD)/csvsm-linux-other.igvm: $(BIN)/csvsm-igvm $(SNP_FW) $(LINUX_KERNEL) \
		$(LINUX_INITRD) $(LINUX_OTHER_CMDLINE)
	@$(BIN)/csvsm-igvm build --svsm $(SNP_FW) --linux $(LINUX_KERNEL) \
		--initrd $(LINUX_INITRD) --cmdline "$$(cat $(LINUX_OTHER_CMDLINE))" \
		-o $@ >/dev/null
.PHONY: linux-persist-check
linux-persist-check: $(BUILD)/csvsm-linux.igvm $(BUILD)/csvsm-linux-other.igvm \
		$(MACHINE_ELF) $(RP_TOOLS)
	@scripts/linux-persist-check.sh $(BUILD)/csvsm-linux.igvm \
		$(BUILD)/csvsm-linux-other.igvm $(LINUX_OTHER_CMDLINE)

# Every kernel of test/linux/kernels/ (or LINUX_MATRIX_LOCKS) as
# linux-emu-check boots Debian's, at -smp 2, one after the other: its kit,
# an image, the boot with the relying party, the host's checks; a line
# per kernel and a summary (scripts/linux-matrix.sh; logs in
# build/linux-matrix/). Not part of `make check`.
LINUX_MATRIX_LOCKS ?=
LINUX_MATRIX_TIMEOUT ?= 600
.PHONY: linux-matrix
linux-matrix: $(BIN)/csvsm-igvm $(SNP_FW) $(MACHINE_ELF) $(RP_TOOLS)
	@scripts/linux-matrix.sh --smp 2 --timeout $(LINUX_MATRIX_TIMEOUT) \
		--out $(BUILD)/linux-matrix $(LINUX_MATRIX_LOCKS)

# Debian stable's default kernel (trixie's 6.12, amd64) booted and checked
# as linux-emu-check does, at -smp 2; Linux 6.12 has no SVSM vTPM driver,
# so its TPM checks are skipped (scripts/linux-matrix.sh). Logs in
# build/linux-stable/.
LINUX_STABLE_LOCK := test/linux/kernels/6.12-amd64.lock
.PHONY: linux-stable-check
linux-stable-check: $(BIN)/csvsm-igvm $(SNP_FW) $(MACHINE_ELF) $(RP_TOOLS)
	@scripts/linux-matrix.sh --smp 2 --timeout 900 \
		--out $(BUILD)/linux-stable $(LINUX_STABLE_LOCK)

# Wrong inputs fail loudly: csvsm-igvm refuses an old, missing or truncated
# kernel, a missing initrd, an over-long command line; a corrupt initrd
# ends in Linux's own panic on the machine.
.PHONY: linux-refusal-check
linux-refusal-check: $(LINUX_OLD)/vmlinuz $(LINUX_VMLINUZ) $(LINUX_INITRD) \
		$(LINUX)/cmdline $(BIN)/csvsm-igvm $(SNP_FW) $(MACHINE_ELF)
	@test/linux/refusal_check.py $(LINUX_OLD)/vmlinuz

# `make run` at a terminal, checked through a pseudo-terminal: the shell
# image at -smp 2 answers typed commands, Ctrl-C, a configfs-tsm report
# from the SVSM, and `poweroff -f` ends the VM (test/linux/shell_check.py;
# the session in build/linux-shell/session.log).
.PHONY: linux-shell-check
linux-shell-check: $(BUILD)/csvsm-linux-shell.igvm $(MACHINE_ELF)
	@test/linux/shell_check.py --image $(BUILD)/csvsm-linux-shell.igvm \
		--smp 2 --log $(BUILD)/linux-shell/session.log
