# Static checks: formatting, banned functions, and that platform-independent
# code builds freestanding (no C library headers).

FORMAT_FILES = $(shell git ls-files '*.c' '*.h' 2>/dev/null || \
	find include src sim test tools bench -name '*.[ch]')
GCC_INCLUDE := $(shell $(CC) -print-file-name=include)
FREESTANDING_FLAGS := -std=c11 $(WARNINGS) -Iinclude -ffreestanding \
	-nostdinc -isystem $(GCC_INCLUDE) -fsyntax-only

.PHONY: format format-check banned-check freestanding-check docs-check
docs-check: $(BUILD)/libcsvsm_sim.a
	@scripts/check-docs-example.sh
	@scripts/check-term-reasons.py

format:
	clang-format -i $(FORMAT_FILES)

format-check:
	@clang-format --dry-run -Werror $(FORMAT_FILES)
	@echo "format-check: ok"

banned-check:
	@scripts/check-banned.sh

# The snp platform's sources are firmware code too.
FREESTANDING_SRCS := $(CORE_SRCS) $(SNP_PLAT_SRCS)
freestanding-check:
	@for f in $(FREESTANDING_SRCS); do \
		$(CC) $(FREESTANDING_FLAGS) $$f || exit 1; \
	done
	@echo "freestanding-check: $(words $(FREESTANDING_SRCS)) files build freestanding"
