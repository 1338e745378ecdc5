#!/usr/bin/env bash
# Make the emulated PSP's TEST certificate chain, shaped like AMD's:
# an ARK (RSA-4096, self-signed, RSASSA-PSS/SHA-384), an ASK (RSA-4096,
# signed by the ARK) and a VCEK (ECDSA P-384, signed by the ASK) carrying
# AMD's hwID and TCB extensions for a made-up chip (make-test-vcek.sh).
# Every name says TEST: nothing here is AMD's, and a verifier given AMD's
# real ARK rejects it.
#   make-test-pki.sh OUTDIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$1
mkdir -p "$out"
cd "$out"

pss=(-sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:48
	-sigopt rsa_mgf1_md:sha384 -sha384)
subj() { echo "/OU=csvsm TEST ONLY/O=csvsm emulated PSP, not AMD/CN=$1"; }

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

# The build's made-up chip: a fixed id, so reports and tests are
# reproducible within a build (emulated chips named by scripts/emu-run.sh
# --chip have their own, build/chips/).
printf 'csvsm-test-chip-%048d' 0 | head -c 64 >chip_id.bin
"$here/make-test-vcek.sh" . .
cat ask.pem ark.pem >ask_ark.pem
openssl x509 -in ask.pem -outform der -out ask.der
openssl x509 -in ark.pem -outform der -out ark.der
rm -f ask.csr ask.ext
