/* SPDX-License-Identifier: MIT */
/*
 * Fuzz csvsm-ekca's parser of untrusted EK public areas
 * (tools/ekca/ek_public.c): a services manifest's entry or a guest's
 * claimed EK, as TPMT_PUBLIC or TPM2B_PUBLIC. Checks: a parsed key
 * points inside the input and is equal to itself; OpenSSL's key from it,
 * when it makes one, has the template's size.
 */
#include <stdlib.h>

#include "../../tools/ekca/ek_public.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void inside(const uint8_t *p, size_t n, const uint8_t *data, size_t size)
{
	if (p == NULL || p < data || n > size || p + n > data + size) {
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ek_public ek;
	EVP_PKEY *k;
	int allow;

	for (allow = 0; allow < 2; allow++) {
		if (ek_public_parse(data, size, allow != 0, &ek) != NULL) {
			continue;
		}
		if (ek.kind == EK_KIND_RSA2048) {
			inside(ek.modulus, 256, data, size);
		} else {
			inside(ek.x, 32, data, size);
			inside(ek.y, 32, data, size);
		}
		if (!ek_public_equal(&ek, &ek)) {
			abort();
		}
		k = ek_public_pkey(&ek);
		if (k != NULL &&
		    EVP_PKEY_get_bits(k) !=
			    (ek.kind == EK_KIND_RSA2048 ? 2048 : 256)) {
			abort();
		}
		EVP_PKEY_free(k);
	}
	return 0;
}
