# Debian's OVMF, the UEFI firmware for csvsm's guest at VMPL1
# (docs/uefi.md): two builds, each the unified 4 MiB OvmfPkgX64 image
# (usr/share/ovmf/OVMF.fd) of the package and version its lock pins,
# fetched with a private apt and cached outside the tree
# (scripts/ovmf-fetch.sh). The directories are named by upstream version.
#   OVMF_TRIXIE  trixie's 2025.02: the SVSM core protocol, no SVSM vTPM
#   OVMF_FORKY   testing's (forky's) 2026.08: with edk2's SVSM vTPM driver
# `make ovmf` fetches both; `make ovmf-latest` prints the locks for the
# newest builds trixie and testing carry, to pin in test/ovmf/.

OVMF_DIR := $(BUILD)/ovmf
OVMF_TRIXIE := $(OVMF_DIR)/2025.02/OVMF.fd
OVMF_FORKY := $(OVMF_DIR)/2026.08/OVMF.fd

$(OVMF_DIR)/%/OVMF.fd: test/ovmf/%.lock scripts/ovmf-fetch.sh
	@scripts/ovmf-fetch.sh --lock $< $(@D)

.PHONY: ovmf ovmf-latest
ovmf: $(OVMF_TRIXIE) $(OVMF_FORKY)

ovmf-latest:
	@scripts/ovmf-fetch.sh --latest trixie $(OVMF_DIR)/latest
	@scripts/ovmf-fetch.sh --latest testing $(OVMF_DIR)/latest
