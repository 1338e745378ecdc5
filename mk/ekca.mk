# csvsm-ekca: the relying party's EK certificate authority (tools/ekca/,
# docs/vtpm.md, "EK certificates"), over csvsm-verify's library.
EKCA_MAIN_SRCS := tools/ekca/csvsm_ekca.c
EKCA_LIB_SRCS := $(filter-out $(EKCA_MAIN_SRCS),\
	$(sort $(wildcard tools/ekca/*.c)))

$(BIN)/csvsm-ekca: $(call host_objs,$(EKCA_MAIN_SRCS) $(EKCA_LIB_SRCS) \
		$(VERIFY_LIB_SRCS))
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(HOST_CFLAGS) $^ -lcrypto -o $@

# The same tool under AddressSanitizer + UBSan, for its check.
$(BIN)/csvsm-ekca-asan: $(call asan_objs,$(EKCA_MAIN_SRCS) $(EKCA_LIB_SRCS) \
		$(VERIFY_LIB_SRCS))
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(ASAN_CFLAGS) $^ -lcrypto -o $@

HOST_BINS += $(BIN)/csvsm-ekca

# What a relying party on a Linux guest's console needs
# (scripts/linux-relying-party.sh): the report's verifier, the EK
# certificate authority (the self-test's tpm-ekcert asks it) and the
# build's PKI.
RP_TOOLS := $(BIN)/csvsm-verify $(BIN)/csvsm-ekca $(PKI_FILES)
ASAN_BINS += $(BIN)/csvsm-ekca-asan

# The EK parser's fuzzer links the CA's library (only it calls it).
$(BIN)/fuzz-ekca_ek_public: \
	$(patsubst %.c,$(FUZZ_OBJ)/%.o,$(EKCA_LIB_SRCS))


# The CA against csvsm-sim's reports (issue, openssl verify, refusals),
# and the NV provisioning round trip on swtpm and on csvsm's vTPM
# (test/ekca/ekca-check.sh).
.PHONY: ekca-check
ekca-check: $(BIN)/csvsm-ekca $(BIN)/csvsm-ekca-asan $(BIN)/csvsm-sim \
		$(PKI_FILES)
	@test/ekca/ekca-check.sh
