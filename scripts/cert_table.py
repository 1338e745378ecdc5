# The host's certificate table for SNP extended guest requests (GHCB
# 56421 4.1.8.1): entries of GUID, offset, length, an all-zero entry,
# then the DER certificates (VCEK, ASK, ARK). One place for the layout:
# the build's identity (pki-to-c.py) and each emulated chip's
# (chip-identity.py) carry tables made here.
import uuid

GUIDS = (
    ("vcek.der", "63da758d-e664-4564-adc5-f4b93be8accd"),
    ("ask.der", "4ab7b379-bbac-4fe4-a02f-05aef327c782"),
    ("ark.der", "c0b406a4-a803-4952-9743-3fb6014cd0ae"),
)


def cert_table(vcek, ask, ark):
    """The table of the three DER certificates given, in that order."""
    ders = {"vcek.der": vcek, "ask.der": ask, "ark.der": ark}
    entries = b""
    blobs = b""
    offset = 24 * (len(GUIDS) + 1)
    for name, g in GUIDS:
        der = ders[name]
        entries += uuid.UUID(g).bytes_le + (offset + len(blobs)).to_bytes(
            4, "little") + len(der).to_bytes(4, "little")
        blobs += der
    return entries + bytes(24) + blobs
