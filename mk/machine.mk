# The emulated SEV-SNP machine (emu/): a freestanding PVH ELF that QEMU
# boots, which launches build/csvsm.igvm and runs it as SNP hardware, its
# PSP and KVM would (docs/emu.md). It links the RMP and PSP models
# (src/snpmodel), the formatter and allocator the SVSM uses, and
# libcrypto for the PSP, with the firmware's flags (mk/emu.mk).

MACHINE_OBJ := $(BUILD)/machine
MACHINE_ELF := $(MACHINE_OBJ)/emu.elf
MACHINE_C := $(sort $(wildcard emu/src/*.c))
MACHINE_S := $(sort $(wildcard emu/src/*.S))
MACHINE_LIB_C := src/lib/fmt.c src/lib/log.c src/lib/panic.c \
	src/lib/lib_lock.c $(sort $(wildcard src/mem/*.c)) $(LIBC_SRCS) \
	$(sort $(wildcard src/snpmodel/*.c)) $(X86_C_SRCS) \
	src/crypto/libcrypto.c $(PKI_C)
MACHINE_LIB_S := $(X86_S_SRCS) $(LIBC_S_SRCS)

machine_objs = $(patsubst %,$(MACHINE_OBJ)/%.o,$(1))

$(MACHINE_OBJ)/%.c.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $< (machine)"
	@$(CC) $(FW_CFLAGS) -Iemu/src -MMD -MP -c $< -o $@

$(MACHINE_OBJ)/%.S.o: %.S
	@mkdir -p $(dir $@)
	@echo "  AS      $< (machine)"
	@$(CC) $(FW_CFLAGS) -Iemu/src -MMD -MP -c $< -o $@

$(MACHINE_ELF): $(call machine_objs,$(MACHINE_C) $(MACHINE_S)) \
		$(call fw_objs,$(MACHINE_LIB_C) $(MACHINE_LIB_S)) \
		emu/src/machine.ld
	@echo "  LD      $@"
	@$(CC) $(FW_LDFLAGS) -Wl,--gc-sections -Wl,-T,emu/src/machine.ld \
		$(call machine_objs,$(MACHINE_C) $(MACHINE_S)) \
		$(call fw_objs,$(MACHINE_LIB_C) $(MACHINE_LIB_S)) \
		$(LIBDIR)/libcrypto.a -lgcc -o $@


.PHONY: machine
machine: $(MACHINE_ELF)
