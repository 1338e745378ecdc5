# libFuzzer targets (clang): one per parser of untrusted input.
# `make fuzz` runs each for FUZZ_SECONDS; `make check` runs a short smoke.

FUZZ_OBJ := $(BUILD)/fuzz
FUZZ_SECONDS ?= 300
FUZZ_SMOKE_RUNS ?= 200000
FUZZ_SMOKE_SECONDS ?= 30
FUZZ_TARGETS := $(patsubst test/fuzz/%.c,$(BIN)/fuzz-%,$(FUZZ_SRCS))

$(FUZZ_OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $< (fuzz)"
	@$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@

# csvsm-verify's and csvsm-igvm's parsers ride along (only their own
# targets call them).
$(BIN)/fuzz-%: $(FUZZ_OBJ)/test/fuzz/%.o \
		$(patsubst %.c,$(FUZZ_OBJ)/%.o,$(sort $(LIB_SRCS) \
		$(VERIFY_LIB_SRCS) $(IGVM_LIB_SRCS)))
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $^ $(HOST_LDLIBS) -o $@

.PHONY: fuzz-build fuzz-smoke fuzz-seeds
fuzz-build: $(FUZZ_TARGETS)

# Seeds from real inputs, so the fuzzers start past the magic numbers:
# the tail of Debian's OVMF (GUID table and SEV metadata), flag byte 0;
# a bzImage setup header (protocol 2.15, 64-bit, release 6.12);
# for the ACPI loader, an RSDP and RSDT linked as QEMU's script links them;
# for the kernel proper's reader, a small vmlinux, compressed, in a bzImage;
# for the fw_cfg DMA walk, a guest's chain of accesses as OVMF makes them;
# for the SVSM's block device on emu, a driver's set-up and three requests;
# for csvsm-verify's ledger, a file of two lines; for the engine's NV
# image, one of two blobs (test/fuzz/vtpm_state_seed.py).
OVMF_SEED := $(BUILD)/corpus/fuzz-ovmf_meta/seed-debian-ovmf
BZIMAGE_SEED := $(BUILD)/corpus/fuzz-bzimage/seed-header
ACPI_SEED := $(BUILD)/corpus/fuzz-acpi_loader/seed-linked-rsdp
VMLINUX_SEEDS := $(BUILD)/corpus/fuzz-vmlinux
FWCFG_DMA_SEED := $(BUILD)/corpus/fuzz-emu_fwcfg_dma/seed-ovmf-chain
VBLK_DMA_SEED := $(BUILD)/corpus/fuzz-emu_vblk_dma/seed-three-requests
LEDGER_SEED := $(BUILD)/corpus/fuzz-ledger/seed-two-lines
NV_IMAGE_SEED := $(BUILD)/corpus/fuzz-nv_image/seed-two-blobs
fuzz-seeds:
	@mkdir -p $(dir $(LEDGER_SEED)) $(dir $(NV_IMAGE_SEED))
	@python3 test/fuzz/vtpm_state_seed.py $(LEDGER_SEED) $(NV_IMAGE_SEED)
	@mkdir -p $(dir $(BZIMAGE_SEED))
	@python3 -c 'import struct,sys; b=bytearray(2560); b[0x1F1]=4; \
		struct.pack_into("<IHBB", b, 0x1F4, 0x1000, 0, 0, 0); \
		struct.pack_into("<HBB4sHIHH", b, 0x1FE, 0xAA55, 0xEB, 0x6A, \
		b"HdrS", 0x20F, 0, 0, 0x400); b[0x211]=1; \
		struct.pack_into("<IIBBHI", b, 0x22C, 0x7FFFFFFF, 0x200000, \
		1, 0, 0x7F, 2047); struct.pack_into("<QI", b, 0x258, \
		0x1000000, 0x800000); b[0x600:0x606]=b"6.12.0"; \
		sys.stdout.buffer.write(bytes(b))' > $(BZIMAGE_SEED)
	@mkdir -p $(dir $(ACPI_SEED))
	@python3 test/fuzz/acpi_loader_seed.py $(ACPI_SEED)
	@python3 test/fuzz/vmlinux_seed.py $(VMLINUX_SEEDS)
	@mkdir -p $(dir $(FWCFG_DMA_SEED))
	@python3 test/fuzz/emu_fwcfg_dma_seed.py $(FWCFG_DMA_SEED)
	@mkdir -p $(dir $(VBLK_DMA_SEED))
	@python3 test/fuzz/emu_vblk_dma_seed.py $(VBLK_DMA_SEED)
	@mkdir -p $(dir $(OVMF_SEED))
	@if [ -f /usr/share/ovmf/OVMF.fd ]; then \
		{ printf '\000'; tail -c 4095 /usr/share/ovmf/OVMF.fd; } \
			> $(OVMF_SEED); fi

# Every reproducer a fuzzer found stays in test/fuzz/regress/<target>/
# and is run first (libFuzzer runs file arguments once each).
fuzz-smoke: $(FUZZ_TARGETS) fuzz-seeds
	@for t in $(FUZZ_TARGETS); do \
		r=test/fuzz/regress/$$(basename $$t); \
		if [ -d $$r ] && [ -n "$$(ls $$r)" ]; then \
			echo "fuzz regressions: $$t ($$(ls $$r | wc -l) inputs)"; \
			$$t $$r/* >$(BUILD)/$$(basename $$t).regress.log 2>&1 \
				|| { tail -40 $(BUILD)/$$(basename $$t).regress.log; exit 1; }; \
		fi; \
	done
	@for t in $(FUZZ_TARGETS); do \
		echo "fuzz smoke: $$t (at most $(FUZZ_SMOKE_RUNS) runs, $(FUZZ_SMOKE_SECONDS)s)"; \
		mkdir -p $(BUILD)/corpus/$$(basename $$t); \
		$$t -runs=$(FUZZ_SMOKE_RUNS) -max_total_time=$(FUZZ_SMOKE_SECONDS) \
			-seed=1 -max_len=4096 \
			$(BUILD)/corpus/$$(basename $$t) >$(BUILD)/$$(basename $$t).log 2>&1 \
			|| { tail -40 $(BUILD)/$$(basename $$t).log; exit 1; }; \
	done

fuzz: setup $(FUZZ_TARGETS) fuzz-seeds
	@for t in $(FUZZ_TARGETS); do \
		echo "fuzzing $$t for $(FUZZ_SECONDS)s"; \
		mkdir -p $(BUILD)/corpus/$$(basename $$t); \
		$$t -max_total_time=$(FUZZ_SECONDS) -max_len=4096 \
			$(BUILD)/corpus/$$(basename $$t) || exit 1; \
	done

# emu's guest page-table walker runs hosted on the sim platform's memory.
# guest_walk.c fuzzes the emulated machine's page walker (emu/src/hw/walk.c),
# which is built hosted for it.
$(FUZZ_OBJ)/emu/src/hw/walk.o $(FUZZ_OBJ)/test/fuzz/guest_walk.o: \
	FUZZ_CFLAGS += -Iemu/src -Isrc/arch/x86
$(BIN)/fuzz-guest_walk: $(FUZZ_OBJ)/emu/src/hw/walk.o

# emu_insn_decode.c fuzzes the machine's decoders of guest instruction
# bytes (emu/src/hw/insn_decode.c), which it compiles in.
$(FUZZ_OBJ)/test/fuzz/emu_insn_decode.o: FUZZ_CFLAGS += -Iemu/src

# emu_fwcfg.c fuzzes the machine's fw_cfg view for its guest
# (emu/src/hv/dev/hv_fwcfg_view.c), which it compiles in.
$(FUZZ_OBJ)/test/fuzz/emu_fwcfg.o: FUZZ_CFLAGS += -Iemu/src
