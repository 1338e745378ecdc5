# Freestanding builds: the flags and object rules the snp firmware
# (mk/snp.mk) and the emulated machine (mk/machine.mk) share, and the test
# guest (test/emu/guest) that build/csvsm.igvm carries. All are built with
# Debian's gcc alone: no C library, no host headers beyond the compiler's
# freestanding ones.

EMU_OBJ := $(BUILD)/emu
EMU_GUEST_ELF := $(EMU_OBJ)/guest.elf

# -fpie: the SVSM runs at 512 GiB (src/plat/snp/hw/snp.ld), beyond what
# absolute 32-bit addresses reach.
FW_BASE_CFLAGS := -std=c11 $(WARNINGS) -Iinclude -Isrc/arch/x86 \
	-ffreestanding -nostdinc \
	-isystem $(GCC_INCLUDE) -O2 -g -fpie -mno-red-zone \
	-mgeneral-regs-only -fno-asynchronous-unwind-tables \
	-fno-strict-aliasing -ftrivial-auto-var-init=zero
# The SVSM: stack canaries at %fs:0x28 (the per-CPU block).
FW_CFLAGS := $(FW_BASE_CFLAGS) -fstack-protector-strong
# The test guest has no per-CPU block: no canaries.
GUEST_CFLAGS := $(FW_BASE_CFLAGS) -fno-stack-protector
FW_LDFLAGS := -nostdlib -static -no-pie -Wl,--build-id=none \
	-Wl,-z,noexecstack -Wl,--no-warn-rwx-segments

# The firmware links Debian's libtpms and libcrypto through the libc layer
# (src/libc/libc_internal.h); the test guest needs only the mem* functions.
GUEST_C_SRCS := $(sort $(wildcard test/emu/guest/*.c)) src/lib/fmt.c \
	src/libc/string.c
TPM_ARCHIVES := $(LIBDIR)/libtpms.a $(LIBDIR)/libcrypto.a
# Only libtpms' own headers from /usr/include: the rest of the firmware's
# C library headers are src/libc/include.
FW_ENGINE_INC := $(EMU_OBJ)/include
FW_ENGINE_CFLAGS := -Isrc/libc/include -I$(FW_ENGINE_INC)
GUEST_S_SRCS := $(sort $(wildcard test/emu/guest/*.S))

fw_objs = $(patsubst %,$(EMU_OBJ)/fw/%.o,$(1))
guest_objs = $(patsubst %,$(EMU_OBJ)/guest/%.o,$(1))

$(EMU_OBJ)/fw/%.c.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $< (firmware)"
	@$(CC) $(FW_CFLAGS) -MMD -MP -c $< -o $@

$(FW_ENGINE_INC)/libtpms/tpm_library.h:
	@mkdir -p $(FW_ENGINE_INC)
	@ln -sfn /usr/include/libtpms $(FW_ENGINE_INC)/libtpms

# OpenSSL's headers for src/crypto/: Debian splits them between
# /usr/include/openssl and the multiarch directory (configuration.h).
$(FW_ENGINE_INC)/openssl/evp.h:
	@mkdir -p $(FW_ENGINE_INC)/openssl
	@ln -sf /usr/include/openssl/*.h $(FW_ENGINE_INC)/openssl/
	@ln -sf /usr/include/$(shell $(CC) -print-multiarch)/openssl/*.h \
		$(FW_ENGINE_INC)/openssl/

$(call fw_objs,$(ENGINE_SRCS)): FW_CFLAGS += $(FW_ENGINE_CFLAGS)
$(call fw_objs,$(ENGINE_SRCS)): $(FW_ENGINE_INC)/libtpms/tpm_library.h \
	$(FW_ENGINE_INC)/openssl/evp.h

$(EMU_OBJ)/fw/%.S.o: %.S
	@mkdir -p $(dir $@)
	@echo "  AS      $< (firmware)"
	@$(CC) $(FW_CFLAGS) -MMD -MP -c $< -o $@

$(EMU_OBJ)/guest/%.c.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $< (guest)"
	@$(CC) $(GUEST_CFLAGS) -MMD -MP -c $< -o $@

$(EMU_OBJ)/guest/%.S.o: %.S
	@mkdir -p $(dir $@)
	@echo "  AS      $< (guest)"
	@$(CC) $(GUEST_CFLAGS) -MMD -MP -c $< -o $@

# The guest's expected PCR value, computed on the build host (hashlib), so
# the SVSM's libcrypto is checked against an independent SHA-256.
EMU_GUEST_GEN := $(EMU_OBJ)/guest-gen
$(EMU_GUEST_GEN)/vtpm_expected.h: scripts/vtpm-expected.py
	@mkdir -p $(dir $@)
	@python3 scripts/vtpm-expected.py > $@

$(call guest_objs,test/emu/guest/tests_vtpm.c): \
	$(EMU_GUEST_GEN)/vtpm_expected.h
$(call guest_objs,test/emu/guest/tests_vtpm.c): \
	GUEST_CFLAGS += -I$(EMU_GUEST_GEN)

$(EMU_GUEST_ELF): $(call guest_objs,$(GUEST_S_SRCS) $(GUEST_C_SRCS)) \
		test/emu/guest/guest.ld
	@echo "  LD      $@"
	@$(CC) $(FW_LDFLAGS) -Wl,-T,test/emu/guest/guest.ld \
		$(call guest_objs,$(GUEST_S_SRCS) $(GUEST_C_SRCS)) -lgcc -o $@
