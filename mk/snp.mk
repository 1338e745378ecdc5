# The snp firmware: the SVSM for SEV-SNP hardware, an ELF that csvsm-igvm
# packs into build/csvsm.igvm. Its flags and object rules are
# mk/firmware.mk's; what is its own is src/plat/snp (the GHCB client,
# which the simulator also runs) and src/plat/snp/hw (entry, traps, page
# tables, instructions).

SNP_OBJ := $(BUILD)/snp
SNP_FW := $(SNP_OBJ)/csvsm-snp.elf
SNP_HW_C := $(sort $(wildcard src/plat/snp/hw/*.c))
SNP_HW_S := $(sort $(wildcard src/plat/snp/hw/*.S))
SNP_FW_C_SRCS := $(CORE_SRCS) $(LIBC_SRCS) $(ENGINE_SRCS) $(X86_C_SRCS) \
	$(SNP_PLAT_SRCS) $(SNP_HW_C)
SNP_FW_S_SRCS := $(X86_S_SRCS) $(LIBC_S_SRCS) $(SNP_HW_S)

$(SNP_FW): $(call fw_objs,$(SNP_FW_S_SRCS) $(SNP_FW_C_SRCS)) \
		src/plat/snp/hw/snp.ld
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(FW_LDFLAGS) -Wl,--gc-sections -Wl,--no-relax \
		-Wl,-T,src/plat/snp/hw/snp.ld \
		$(call fw_objs,$(SNP_FW_S_SRCS) $(SNP_FW_C_SRCS)) \
		$(TPM_ARCHIVES) -lgcc -o $@

.PHONY: snp
snp: $(SNP_FW)

# The emu test guest's memory-encryption check (tests_crypt.c) knows the
# plaintext of one SVSM text page, a boot-only function's: it asks the
# host to make that page shared and must not read these bytes.
$(EMU_GUEST_GEN)/svsm_page.h: $(SNP_FW) scripts/emu-svsm-page.py
	@mkdir -p $(dir $@)
	@python3 scripts/emu-svsm-page.py $(SNP_FW) snp_boot_info > $@.tmp
	@mv $@.tmp $@
$(call guest_objs,test/emu/guest/tests_crypt.c): \
	$(EMU_GUEST_GEN)/svsm_page.h
$(call guest_objs,test/emu/guest/tests_crypt.c): \
	GUEST_CFLAGS += -I$(EMU_GUEST_GEN)

# csvsm-igvm: an image from the snp firmware and Debian trixie's OVMF
# (mk/ovmf.mk), checked against an independent reading of the format and
# of x86-64 paging (and measured); Debian 12's OVMF (2022.11, the host's
# ovmf package), which has no SVSM support, is refused.
IGVM_OVMF := $(OVMF_TRIXIE)
IGVM_OVMF_NO_SVSM := /usr/share/ovmf/OVMF.fd
.PHONY: igvm-check
igvm-check: $(BIN)/csvsm-igvm $(SNP_FW) $(EMU_GUEST_ELF) $(IGVM_OVMF)
	@python3 test/igvm/igvm_check.py $(BIN)/csvsm-igvm $(SNP_FW) \
		$(IGVM_OVMF) $(EMU_GUEST_ELF) $(IGVM_OVMF_NO_SVSM)

# Every image make builds, as a QEMU (10.x) + KVM host launches it: its
# acceptance rules hold (the VP context at 0xFFFFFFFFF000 with only the
# fields QEMU loads, SEV features a KVM built to host an SVSM offers,
# which upstream's does not), and `csvsm-igvm measure --vcpus N` for
# N = 1 and 4 equals test/igvm/host_launch.py's reading of QEMU's and
# KVM's code (docs/running-on-snp.md, "The launch digest").
HOST_IMAGES = $(BUILD)/csvsm.igvm $(BUILD)/csvsm-ovmf.igvm \
	$(BUILD)/csvsm-linux.igvm $(BUILD)/csvsm-linux-shell.igvm \
	$(BUILD)/csvsm-linux-tpmbench.igvm $(BUILD)/csvsm-uefi.igvm \
	$(BUILD)/csvsm-uefi-2025.02.igvm
.PHONY: igvm-host-check
igvm-host-check: $(BIN)/csvsm-igvm $(HOST_IMAGES)
	@python3 test/igvm/host_launch.py $(BIN)/csvsm-igvm 0x800f12 \
		$(HOST_IMAGES)

# build/csvsm.igvm: the SVSM for SEV-SNP hosts with the test guest as its
# kernel, and its launch measurement (docs/running-on-snp.md); the
# emulated machine runs it (docs/emu.md). build/csvsm-ovmf.igvm carries
# Debian trixie's OVMF instead (mk/ovmf.mk, docs/uefi.md).
.PHONY: igvm
igvm: $(BUILD)/csvsm.igvm $(BUILD)/csvsm-ovmf.igvm
$(BUILD)/csvsm.igvm: $(BIN)/csvsm-igvm $(SNP_FW) $(EMU_GUEST_ELF)
	@$(BIN)/csvsm-igvm build --svsm $(SNP_FW) --kernel $(EMU_GUEST_ELF) \
		-o $@
	@echo "measurement: $$($(BIN)/csvsm-igvm measure $@)"
$(BUILD)/csvsm-ovmf.igvm: $(BIN)/csvsm-igvm $(SNP_FW) $(IGVM_OVMF)
	@$(BIN)/csvsm-igvm build --svsm $(SNP_FW) --ovmf $(IGVM_OVMF) -o $@
	@echo "measurement: $$($(BIN)/csvsm-igvm measure $@)"

# build/csvsm-linux.igvm: the SVSM with a Linux kernel, initrd and command
# line it loads itself (measured direct boot, docs/linux.md). The kernel
# and initrd come from mk/linux.mk (Debian's); any bzImage and initrd do:
#   make build/csvsm-linux.igvm LINUX_KERNEL=... LINUX_INITRD=...
# LINUX_CMDLINE is mk/linux.mk's.
LINUX_KERNEL ?= $(BUILD)/linux/vmlinuz
LINUX_INITRD ?= $(BUILD)/linux/initrd.img
$(BUILD)/csvsm-linux.igvm: $(BIN)/csvsm-igvm $(SNP_FW) $(LINUX_KERNEL) \
		$(LINUX_INITRD) $(BUILD)/linux/cmdline
	@$(BIN)/csvsm-igvm build --svsm $(SNP_FW) --linux $(LINUX_KERNEL) \
		--initrd $(LINUX_INITRD) --cmdline "$$(cat $(BUILD)/linux/cmdline)" \
		-o $@
	@echo "measurement: $$($(BIN)/csvsm-igvm measure $@)"
# The snp ELF against its hardware layer's assumptions: layout, W^X, the
# fixup table, nothing that raises #VC before the IDT exists.
.PHONY: snp-image-check
snp-image-check: $(SNP_FW)
	@python3 test/snp/snp_image_check.py $(SNP_FW)

# The firmware links no model of another party (model/, mk/sources.mk):
# none of their symbols, by name or by prefix, is in its symbol table.
.PHONY: tcb-check
tcb-check: $(SNP_FW) $(call fw_objs,$(MODEL_SRCS)) scripts/check-tcb.py
	@scripts/check-tcb.py $(SNP_FW) $(call fw_objs,$(MODEL_SRCS))
