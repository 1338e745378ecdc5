#!/usr/bin/env bash
# Make a TEST VCEK (ECDSA P-384) for one made-up chip and its certificate,
# signed by a TEST ASK (scripts/make-test-pki.sh), carrying AMD's hwID
# extension (the chip's 64-byte CHIP_ID, CHIPDIR/chip_id.bin) and TCB
# extensions. A chip keeps its key: vcek.key is made only if missing, so
# re-running under a new ASK re-issues the certificate of the same key.
# Every name says TEST: nothing here is AMD's.
#   make-test-vcek.sh PKIDIR CHIPDIR
# PKIDIR holds ask.pem and ask.key; CHIPDIR gets vcek.key, vcek.key.der
# (PKCS#8), vcek.der and tcb.txt.
set -euo pipefail
pki=$(cd "$1" && pwd)
cd "$2"
[ -s chip_id.bin ] && [ "$(wc -c <chip_id.bin)" -eq 64 ] || {
	echo "make-test-vcek: $2/chip_id.bin: not 64 bytes" >&2
	exit 1
}

pss=(-sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:48
	-sigopt rsa_mgf1_md:sha384 -sha384)
subj="/OU=csvsm TEST ONLY/O=csvsm emulated PSP, not AMD/CN=SEV-VCEK-TEST"

# Every made-up chip's TCB (boot loader 4, TEE 0, SNP 22, microcode 213):
# one for all chips of a build, as the emulated PSP reports the build's.
tcb_bl=4 tcb_tee=0 tcb_snp=22 tcb_ucode=213

if [ ! -s vcek.key ]; then
	openssl genpkey -quiet -algorithm EC -pkeyopt ec_paramgen_curve:P-384 \
		-out vcek.key.tmp
	mv vcek.key.tmp vcek.key
fi
openssl pkcs8 -topk8 -nocrypt -in vcek.key -outform der -out vcek.key.der
openssl req -new -key vcek.key -subj "$subj" -out vcek.csr
cat >vcek.ext <<EOT
1.3.6.1.4.1.3704.1.1=ASN1:INTEGER:0
1.3.6.1.4.1.3704.1.2=ASN1:IA5STRING:TEST-chip
1.3.6.1.4.1.3704.1.3.1=ASN1:INTEGER:$tcb_bl
1.3.6.1.4.1.3704.1.3.2=ASN1:INTEGER:$tcb_tee
1.3.6.1.4.1.3704.1.3.3=ASN1:INTEGER:$tcb_snp
1.3.6.1.4.1.3704.1.3.8=ASN1:INTEGER:$tcb_ucode
1.3.6.1.4.1.3704.1.4=DER:$(xxd -p -c 64 chip_id.bin)
EOT
openssl x509 -req -in vcek.csr -CA "$pki/ask.pem" -CAkey "$pki/ask.key" \
	-set_serial "0x$(openssl rand -hex 8)" -days 3650 "${pss[@]}" \
	-extfile vcek.ext -outform der -out vcek.der.tmp 2>/dev/null
mv vcek.der.tmp vcek.der
printf '%d %d %d %d\n' $tcb_bl $tcb_tee $tcb_snp $tcb_ucode >tcb.txt
rm -f vcek.csr vcek.ext
