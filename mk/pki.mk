# The emulated PSP's TEST certificate chain (ARK, ASK, VCEK) and its
# identity as C, made once per build tree. Nothing here is AMD's.

PKI_FILES := $(PKI_DIR)/vcek.der $(PKI_DIR)/ask_ark.pem

$(PKI_FILES) &: scripts/make-test-pki.sh scripts/make-test-vcek.sh
	@echo "  PKI     $(PKI_DIR) (test ARK, ASK, VCEK)"
	@scripts/make-test-pki.sh $(PKI_DIR)

$(PKI_C): scripts/pki-to-c.py scripts/cert_table.py $(PKI_FILES)
	@echo "  GEN     $@"
	@python3 scripts/pki-to-c.py $(PKI_DIR) > $@.tmp && mv $@.tmp $@
