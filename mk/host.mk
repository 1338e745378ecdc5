# Hosted builds: the simulator library, tests, tools and benchmarks,
# once plain (-O2) and once under AddressSanitizer + UBSan.

HOST_OBJ := $(BUILD)/host
ASAN_OBJ := $(BUILD)/asan

host_objs = $(patsubst %.c,$(HOST_OBJ)/%.o,$(1))
asan_objs = $(patsubst %.c,$(ASAN_OBJ)/%.o,$(1))

$(HOST_OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(HOST_CFLAGS) -MMD -MP -c $< -o $@

$(ASAN_OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $< (asan)"
	@$(CC) $(ASAN_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/libcsvsm_sim.a: $(call host_objs,$(LIB_SRCS))
	@mkdir -p $(dir $@)
	@echo "  AR      $@"
	@rm -f $@ && ar rcs $@ $^

# The same simulator with the snp platform's plat_snp.c answering
# svsm/plat.h over the simulated CPU (sim/src/model/snp_insn_sim.c;
# sim/src/harness/snp_linked.c says which platform is linked).
$(BUILD)/libcsvsm_sim_snp.a: $(call host_objs,$(LIB_SNP_SRCS))
	@mkdir -p $(dir $@)
	@echo "  AR      $@"
	@rm -f $@ && ar rcs $@ $^

$(BUILD)/libcsvsm_sim_asan.a: $(call asan_objs,$(LIB_SRCS))
	@mkdir -p $(dir $@)
	@echo "  AR      $@"
	@rm -f $@ && ar rcs $@ $^

$(BUILD)/libcsvsm_sim_snp_asan.a: $(call asan_objs,$(LIB_SNP_SRCS))
	@mkdir -p $(dir $@)
	@echo "  AR      $@"
	@rm -f $@ && ar rcs $@ $^

# The firmware's libc layer, built hosted with every symbol renamed tl_*
# (test/libc/rename.h) so that the tests can compare it with glibc. Its
# firmware hooks (svsm_hooks.c) are replaced by the test's.
LIBC_TEST_SRCS := $(filter-out src/libc/svsm_hooks.c,$(LIBC_SRCS)) \
	$(LIBC_S_SRCS)
libc_test_objs = $(patsubst %,$(1)/libc-test/%.o,$(LIBC_TEST_SRCS))
LIBC_TEST_FLAGS := -include test/libc/rename.h -Wno-missing-prototypes

$(HOST_OBJ)/libc-test/%.o: % test/libc/rename.h
	@mkdir -p $(dir $@)
	@echo "  CC      $< (libc test)"
	@$(CC) $(HOST_CFLAGS) $(LIBC_TEST_FLAGS) -MMD -MP -c $< -o $@

$(ASAN_OBJ)/libc-test/%.o: % test/libc/rename.h
	@mkdir -p $(dir $@)
	@echo "  CC      $< (libc test, asan)"
	@$(CC) $(ASAN_CFLAGS) $(LIBC_TEST_FLAGS) -MMD -MP -c $< -o $@

$(BIN)/csvsm-tests: $(call host_objs,$(TEST_FW_SRCS) $(TEST_SRCS) \
		$(TEST_IGVM_SRCS)) \
		$(call libc_test_objs,$(HOST_OBJ)) $(BUILD)/libcsvsm_sim.a
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(HOST_CFLAGS) $^ $(HOST_LDLIBS) -o $@

# The whole suite again, every machine's SVSM the snp platform's: booted
# by snp_boot(), entered through snp_serve(), its plat_* plat_snp.c.
$(BIN)/csvsm-tests-snp: $(call host_objs,$(TEST_FW_SRCS) $(TEST_SRCS) \
		$(TEST_IGVM_SRCS)) \
		$(call libc_test_objs,$(HOST_OBJ)) $(BUILD)/libcsvsm_sim_snp.a
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(HOST_CFLAGS) $^ $(HOST_LDLIBS) -o $@

$(BIN)/csvsm-tests-asan: $(call asan_objs,$(TEST_FW_SRCS) $(TEST_SRCS) \
		$(TEST_IGVM_SRCS)) \
		$(call libc_test_objs,$(ASAN_OBJ)) $(BUILD)/libcsvsm_sim_asan.a
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(ASAN_CFLAGS) $^ $(HOST_LDLIBS) -o $@

$(BIN)/csvsm-tests-snp-asan: $(call asan_objs,$(TEST_FW_SRCS) $(TEST_SRCS) \
		$(TEST_IGVM_SRCS)) \
		$(call libc_test_objs,$(ASAN_OBJ)) \
		$(BUILD)/libcsvsm_sim_snp_asan.a
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(ASAN_CFLAGS) $^ $(HOST_LDLIBS) -o $@

$(BIN)/csvsm-sim: $(call host_objs,$(TOOL_SIM_SRCS) $(TOOL_COMMON_SRCS)) \
		$(BUILD)/libcsvsm_sim.a
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(HOST_CFLAGS) $^ $(HOST_LDLIBS) -o $@

$(BIN)/csvsm-bench: $(call host_objs,$(BENCH_SRCS)) $(BUILD)/libcsvsm_sim.a
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(HOST_CFLAGS) $^ $(HOST_LDLIBS) -o $@

$(BIN)/csvsm-bench-snp: $(call host_objs,$(BENCH_SRCS)) \
		$(BUILD)/libcsvsm_sim_snp.a
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(HOST_CFLAGS) $^ $(HOST_LDLIBS) -o $@

$(BIN)/csvsm-bench-vtpm: $(call host_objs,$(BENCH_VTPM_SRCS)) \
		$(BUILD)/libcsvsm_sim.a
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(HOST_CFLAGS) $^ $(HOST_LDLIBS) -o $@

$(BIN)/csvsm-bench-vtpm-state: $(call host_objs,$(BENCH_VTPM_STATE_SRCS)) \
		$(BUILD)/libcsvsm_sim.a
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(HOST_CFLAGS) $^ $(HOST_LDLIBS) -o $@

$(BIN)/csvsm-verify: $(call host_objs,$(VERIFY_MAIN_SRCS) $(VERIFY_LIB_SRCS))
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(HOST_CFLAGS) $^ -lcrypto -o $@

# The launch digest is the emulated PSP's code (model/snp/psp.c).
$(BIN)/csvsm-igvm: $(call host_objs,$(IGVM_MAIN_SRCS) $(IGVM_LIB_SRCS)) \
		$(BUILD)/libcsvsm_sim.a
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(HOST_CFLAGS) $^ $(HOST_LDLIBS) -o $@

HOST_BINS := $(BIN)/csvsm-tests $(BIN)/csvsm-tests-snp $(BIN)/csvsm-sim \
	$(BIN)/csvsm-bench $(BIN)/csvsm-bench-snp $(BIN)/csvsm-bench-vtpm \
	$(BIN)/csvsm-bench-vtpm-state \
	$(BIN)/csvsm-verify $(BIN)/csvsm-igvm
ASAN_BINS := $(BIN)/csvsm-tests-asan $(BIN)/csvsm-tests-snp-asan

.PHONY: test test-asan test-snp vtpm-check attest-check
test: $(BIN)/csvsm-tests
	$(BIN)/csvsm-tests

# The whole suite again with every machine's SVSM the snp platform's
# (src/plat/snp/ over the hypervisor model's GHCB and the simulated CPU).
test-snp: $(BIN)/csvsm-tests-snp
	$(BIN)/csvsm-tests-snp

# Both platforms' suites under AddressSanitizer + UBSan.
test-asan: $(BIN)/csvsm-tests-asan $(BIN)/csvsm-tests-snp-asan
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		$(BIN)/csvsm-tests-asan
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		$(BIN)/csvsm-tests-snp-asan

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# Real TPM tools (tpm2-tools, pytss) against the SVSM's vTPM over mssim,
# and a differential run against swtpm.
vtpm-check: $(BIN)/csvsm-sim
	@test/vtpm/tpm2-tools.sh
	@test/vtpm/linux-sequence.sh

# Attestation end to end on sim, and csvsm-verify against AMD's real
# Milan report (every changed byte must be rejected), its VCEK out of
# certificate tables (malformed ones refused) and a manifest entry only
# out of a verified report; the vTPM's stored
# state across boots judged by csvsm-verify's ledger (docs/vtpm.md).
attest-check: $(BIN)/csvsm-sim $(BIN)/csvsm-verify $(PKI_FILES)
	@python3 test/attest/verify_vectors.py $(BIN)/csvsm-verify \
		test/attest/amd-milan
	@python3 test/attest/verify_outputs.py $(BIN)/csvsm-verify \
		$(BIN)/csvsm-sim $(PKI_DIR) test/attest/amd-milan
	@test/attest/attest-sim.sh
	@test/attest/state-ledger.sh
