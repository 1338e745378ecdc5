#!/usr/bin/env bash
# Make the emulated PSP's TEST certificate chain, shaped like AMD's:
# an ARK (RSA-4096, self-signed, RSASSA-PSS/SHA-384), an ASK (RSA-4096,
# signed by the ARK) and a VCEK (ECDSA P-384, signed by the ASK) carrying
# AMD's hwID and TCB extensions for a made-up chip. Every name says TEST:
# nothing here is AMD's, and a verifier given AMD's real ARK rejects it.
#   make-test-pki.sh OUTDIR
set -euo pipefail
out=$1
mkdir -p "$out"
cd "$out"

pss=(-sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:48
	-sigopt rsa_mgf1_md:sha384 -sha384)
subj() { echo "/OU=csvsm TEST ONLY/O=csvsm emulated PSP, not AMD/CN=$1"; }

# The made-up chip: a fixed id and TCB (boot loader 4, TEE 0, SNP 22,
# microcode 213), so reports and tests are reproducible within a build.
printf 'csvsm-test-chip-%048d' 0 | head -c 64 >chip_id.bin
tcb_bl=4 tcb_tee=0 tcb_snp=22 tcb_ucode=213

openssl genpkey -quiet -algorithm RSA -pkeyopt rsa_keygen_bits:4096 \
	-out ark.key
openssl req -new -x509 -key ark.key -subj "$(subj ARK-TEST)" -days 3650 \
	-set_serial 1 "${pss[@]}" \
	-addext "basicConstraints=critical,CA:true" \
	-addext "keyUsage=critical,keyCertSign,cRLSign" -out ark.pem

openssl genpkey -quiet -algorithm RSA -pkeyopt rsa_keygen_bits:4096 \
	-out ask.key
openssl req -new -key ask.key -subj "$(subj SEV-TEST)" -out ask.csr
cat >ask.ext <<EOT
basicConstraints=critical,CA:true
keyUsage=critical,keyCertSign,cRLSign
EOT
openssl x509 -req -in ask.csr -CA ark.pem -CAkey ark.key -set_serial 2 \
	-days 3650 "${pss[@]}" -extfile ask.ext -out ask.pem 2>/dev/null

openssl genpkey -quiet -algorithm EC -pkeyopt ec_paramgen_curve:P-384 \
	-out vcek.key
openssl pkcs8 -topk8 -nocrypt -in vcek.key -outform der -out vcek.key.der
openssl req -new -key vcek.key -subj "$(subj SEV-VCEK-TEST)" -out vcek.csr
cat >vcek.ext <<EOT
1.3.6.1.4.1.3704.1.1=ASN1:INTEGER:0
1.3.6.1.4.1.3704.1.2=ASN1:IA5STRING:TEST-chip
1.3.6.1.4.1.3704.1.3.1=ASN1:INTEGER:$tcb_bl
1.3.6.1.4.1.3704.1.3.2=ASN1:INTEGER:$tcb_tee
1.3.6.1.4.1.3704.1.3.3=ASN1:INTEGER:$tcb_snp
1.3.6.1.4.1.3704.1.3.8=ASN1:INTEGER:$tcb_ucode
1.3.6.1.4.1.3704.1.4=DER:$(xxd -p -c 64 chip_id.bin)
EOT
openssl x509 -req -in vcek.csr -CA ask.pem -CAkey ask.key -set_serial 3 \
	-days 3650 "${pss[@]}" -extfile vcek.ext -outform der \
	-out vcek.der 2>/dev/null
cat ask.pem ark.pem >ask_ark.pem
openssl x509 -in ask.pem -outform der -out ask.der
openssl x509 -in ark.pem -outform der -out ark.der
printf '%d %d %d %d\n' $tcb_bl $tcb_tee $tcb_snp $tcb_ucode >tcb.txt
rm -f ask.csr vcek.csr ask.ext vcek.ext
