# Static checks: formatting, banned functions, and that platform-independent
# code builds freestanding (no C library headers).

FORMAT_FILES = $(shell git ls-files '*.c' '*.h' 2>/dev/null || \
	find include src sim test tools bench -name '*.[ch]')
GCC_INCLUDE := $(shell $(CC) -print-file-name=include)
FREESTANDING_FLAGS := -std=c11 $(WARNINGS) -Iinclude -ffreestanding \
	-nostdinc -isystem $(GCC_INCLUDE) -fsyntax-only

.PHONY: format format-check banned-check freestanding-check docs-check \
	layers-check
docs-check: $(BUILD)/libcsvsm_sim.a
	@scripts/check-docs-example.sh
	@scripts/check-docs-paths.py
	@scripts/check-term-reasons.py

format:
	clang-format -i $(FORMAT_FILES)

format-check:
	@clang-format --dry-run -Werror $(FORMAT_FILES)
	@echo "format-check: ok"

banned-check:
	@scripts/check-banned.sh

# The snp platform's sources are firmware code too, and the models are
# emu's machine's (with their own headers, model/include).
FREESTANDING_SRCS := $(CORE_SRCS) $(SNP_PLAT_SRCS)
freestanding-check:
	@for f in $(FREESTANDING_SRCS); do \
		$(CC) $(FREESTANDING_FLAGS) $$f || exit 1; \
	done
	@for f in $(MODEL_SRCS); do \
		$(CC) $(FREESTANDING_FLAGS) $(MODEL_INCLUDES) $$f || exit 1; \
	done
	@echo "freestanding-check: $(words $(FREESTANDING_SRCS) $(MODEL_SRCS)) files build freestanding"

# Every include points down a floor, and no call goes round in a circle
# (docs/architecture.md, "Floors").
layers-check:
	@scripts/check-layers.py
	@scripts/check-calls.py

# clang-tidy with .clang-tidy's checks over the SVSM (every platform), the
# simulator, the tools and the Linux guest's tpm-rtt: zero findings. Not
# src/libc (its signatures are the C standard's) nor the tests (their
# macros).
TIDY_SRCS := $(sort $(wildcard src/core/*.c src/core/protocol/*.c \
	src/mem/*.c src/lib/*.c model/snp/*.c model/kvm/*.c model/dev/*.c \
	src/dev/*.c src/vtpm/*.c src/engine/*.c \
	src/crypto/*.c src/arch/x86/*.c src/plat/*/*.c src/plat/snp/hw/*.c \
	src/plat/snp/linux/*.c \
	sim/src/*/*.c tools/*/*.c emu/src/*/*.c emu/src/*/*/*.c test/linux/*.c))
TIDY_FLAGS := -std=c11 -D_DEFAULT_SOURCE $(INCLUDES) -Isrc/arch/x86 \
	-Isrc/plat/snp -Iemu/src

tidy: $(PKI_C)
	@clang-tidy --quiet $(TIDY_SRCS) -- $(TIDY_FLAGS) 2>/dev/null \
		>$(BUILD)/tidy.log || { grep -E 'warning:|error:' -A3 \
		$(BUILD)/tidy.log; echo "tidy: findings (see above)"; exit 1; }
	@echo "tidy: $(words $(TIDY_SRCS)) files, no findings"
