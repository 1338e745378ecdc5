# The emu firmware (a freestanding PVH ELF for QEMU) and its test guest.
# Both are built with Debian's gcc alone: no C library, no host headers
# beyond the compiler's freestanding ones.

EMU_OBJ := $(BUILD)/emu
EMU_FW := $(EMU_OBJ)/csvsm-emu.elf
EMU_GUEST_ELF := $(EMU_OBJ)/guest.elf
EMU_GUEST_BIN := $(EMU_OBJ)/guest.bin

FW_BASE_CFLAGS := -std=c11 $(WARNINGS) -Iinclude -ffreestanding -nostdinc \
	-isystem $(GCC_INCLUDE) -O2 -g -fno-pic -fno-pie -mno-red-zone \
	-mgeneral-regs-only -fno-asynchronous-unwind-tables \
	-fno-strict-aliasing -ftrivial-auto-var-init=zero
# The SVSM: stack canaries at %fs:0x28 (the per-CPU block).
FW_CFLAGS := $(FW_BASE_CFLAGS) -fstack-protector-strong
# The test guest has no per-CPU block: no canaries.
GUEST_CFLAGS := $(FW_BASE_CFLAGS) -fno-stack-protector
FW_LDFLAGS := -nostdlib -static -no-pie -Wl,--build-id=none \
	-Wl,-z,noexecstack -Wl,--no-warn-rwx-segments

EMU_PLAT_C := $(sort $(wildcard src/plat/emu/*.c))
EMU_PLAT_S := $(sort $(wildcard src/plat/emu/*.S))
LIBC_SRCS := $(sort $(wildcard src/libc/*.c))
FW_C_SRCS := $(CORE_SRCS) $(LIBC_SRCS) $(EMU_PLAT_C)
GUEST_C_SRCS := $(sort $(wildcard test/emu/guest/*.c)) src/lib/fmt.c \
	$(LIBC_SRCS)
GUEST_S_SRCS := $(sort $(wildcard test/emu/guest/*.S))

fw_objs = $(patsubst %,$(EMU_OBJ)/fw/%.o,$(1))
guest_objs = $(patsubst %,$(EMU_OBJ)/guest/%.o,$(1))

$(EMU_OBJ)/fw/%.c.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $< (emu)"
	@$(CC) $(FW_CFLAGS) -MMD -MP -c $< -o $@

$(EMU_OBJ)/fw/%.S.o: %.S $(EMU_GUEST_BIN)
	@mkdir -p $(dir $@)
	@echo "  AS      $< (emu)"
	@$(CC) $(FW_CFLAGS) -DEMU_GUEST_BIN='"$(EMU_GUEST_BIN)"' -MMD -MP \
		-c $< -o $@

$(EMU_OBJ)/guest/%.c.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $< (guest)"
	@$(CC) $(GUEST_CFLAGS) -MMD -MP -c $< -o $@

$(EMU_OBJ)/guest/%.S.o: %.S
	@mkdir -p $(dir $@)
	@echo "  AS      $< (guest)"
	@$(CC) $(GUEST_CFLAGS) -MMD -MP -c $< -o $@

$(EMU_GUEST_ELF): $(call guest_objs,$(GUEST_S_SRCS) $(GUEST_C_SRCS)) \
		test/emu/guest/guest.ld
	@echo "  LD      $@"
	@$(CC) $(FW_LDFLAGS) -Wl,-T,test/emu/guest/guest.ld \
		$(call guest_objs,$(GUEST_S_SRCS) $(GUEST_C_SRCS)) -lgcc -o $@

$(EMU_GUEST_BIN): $(EMU_GUEST_ELF)
	@objcopy -O binary $< $@

$(EMU_FW): $(call fw_objs,$(EMU_PLAT_S) $(FW_C_SRCS)) src/plat/emu/emu.ld
	@echo "  LD      $@"
	@$(CC) $(FW_LDFLAGS) -Wl,-T,src/plat/emu/emu.ld \
		$(call fw_objs,$(EMU_PLAT_S) $(FW_C_SRCS)) -lgcc -o $@

.PHONY: emu emu-check
emu: $(EMU_FW)

# The test guest at -smp 1 and -smp 4: fails on any guest failure, SVSM
# panic or termination, or timeout (scripts/emu-run.sh).
emu-check: $(EMU_FW)
	@scripts/emu-run.sh --smp 1 --check
	@scripts/emu-run.sh --smp 4 --check
