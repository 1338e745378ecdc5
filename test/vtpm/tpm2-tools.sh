#!/usr/bin/env bash
# Real TPM tools against the SVSM's vTPM: csvsm-sim serves it over mssim
# and every command takes the whole SVSM path (guest request block,
# protocol 2, libtpms). Expected values come from the tools themselves
# (verify, checkquote, unseal), from Python's hashlib for PCR values, and
# from tpm2_createek for the EK the SVSM made at boot.
#   test/vtpm/tpm2-tools.sh [PORT]
set -uo pipefail
port=${1:-$((20000 + RANDOM % 20000))}
sim=build/bin/csvsm-sim
work=$(mktemp -d)
log=build/vtpm-tools.log
mkdir -p build
: >"$log"
"$sim" vtpm --mssim "$port" --max-seconds 300 >>"$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT
export TPM2TOOLS_TCTI="mssim:host=127.0.0.1,port=$port"
for _ in $(seq 50); do
	tpm2_getrandom 1 >/dev/null 2>&1 && break
	sleep 0.1
done
cd "$work" || exit 1

passed=0
failed=0
# Without a resource manager each tool leaves its objects loaded; flushing
# transient objects after every step plays tpm2-abrmd's part.
check() { # NAME COMMAND... : passes if the command succeeds
	local name=$1
	shift
	local ok=0
	"$@" >>"$OLDPWD/$log" 2>&1 || ok=1
	tpm2_flushcontext -t >/dev/null 2>&1
	if [ $ok -eq 0 ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "  FAIL $name"
	fi
}
fails() { # NAME COMMAND... : passes if the command fails
	local name=$1
	shift
	local ok=0
	"$@" >>"$OLDPWD/$log" 2>&1 || ok=1
	tpm2_flushcontext -t >/dev/null 2>&1
	if [ $ok -eq 0 ]; then
		failed=$((failed + 1))
		echo "  FAIL $name (succeeded, must fail)"
	else
		passed=$((passed + 1))
	fi
}
flush() { tpm2_flushcontext -t >/dev/null 2>&1; tpm2_flushcontext -s >/dev/null 2>&1; true; }
sha256_extend() { # OLD_HEX DATA_HEX -> new PCR value
	python3 -c "import hashlib,sys; print(hashlib.sha256(bytes.fromhex(sys.argv[1])+bytes.fromhex(sys.argv[2])).hexdigest())" "$1" "$2"
}
pcr16() { tpm2_pcrread sha256:16 | awk '/16:/ { sub("0x", "", $2); print tolower($2) }'; }

echo "vtpm: tpm2-tools $(tpm2_getrandom --version 2>/dev/null | head -1 | sed 's/.*version=//; s/ .*//') against csvsm-sim on port $port"

# Random numbers.
check "getrandom 32" sh -c '[ "$(tpm2_getrandom 32 | wc -c)" -eq 32 ]'

# PCRs: extend, event; values from hashlib.
digest=$(printf 'csvsm' | sha256sum | cut -d' ' -f1)
before=$(pcr16)
check "pcrextend" tpm2_pcrextend "16:sha256=$digest"
check "pcr16 = sha256(old || digest)" test "$(pcr16)" = "$(sha256_extend "$before" "$digest")"
printf 'event data' >event.bin
before=$(pcr16)
check "pcrevent" tpm2_pcrevent 16 event.bin
check "pcr16 after event" test "$(pcr16)" = "$(sha256_extend "$before" "$(sha256sum event.bin | cut -d' ' -f1)")"
check "pcrreset 16" tpm2_pcrreset 16
check "pcr16 zero after reset" test "$(pcr16)" = "$(printf '%064d' 0)"

# Keys: RSA and ECC primaries and children, sign and verify.
printf 'message to sign' >msg.bin
for alg in rsa ecc; do
	check "createprimary $alg" tpm2_createprimary -C o -G "$alg" -c prim.ctx
	check "create $alg child" tpm2_create -C prim.ctx -G "$alg" -u key.pub -r key.priv
	check "load $alg child" tpm2_load -C prim.ctx -u key.pub -r key.priv -c key.ctx
	check "sign $alg" tpm2_sign -c key.ctx -g sha256 -o sig.bin msg.bin
	check "verifysignature $alg" tpm2_verifysignature -c key.ctx -g sha256 -m msg.bin -s sig.bin
	printf 'other message' >other.bin
	fails "verifysignature $alg, other message" tpm2_verifysignature -c key.ctx -g sha256 -m other.bin -s sig.bin
	flush
done

# The EK the SVSM created at boot is the profile's EK (same template, same seed).
check "createek rsa" tpm2_createek -c ek.ctx -G rsa -u ek.pub
check "readpublic 0x81010001" tpm2_readpublic -c 0x81010001 -o persistent-ek.pub
check "EK at 0x81010001 = tpm2_createek's" cmp ek.pub persistent-ek.pub

# Attestation: AK, credential activation, quote and checkquote.
check "createak" tpm2_createak -C ek.ctx -c ak.ctx -G rsa -g sha256 -s rsassa -u ak.pub -n ak.name
printf '0123456789abcdef' >secret.bin
check "makecredential" tpm2_makecredential -T none -e ek.pub -s secret.bin -n "$(xxd -p -c 256 ak.name)" -o cred.out
check "startauthsession" tpm2_startauthsession --policy-session -S session.ctx
check "policysecret endorsement" tpm2_policysecret -S session.ctx -c e
check "activatecredential" tpm2_activatecredential -c ak.ctx -C ek.ctx -i cred.out -o actcred.out -P session:session.ctx
check "activated secret = made secret" cmp secret.bin actcred.out
tpm2_flushcontext session.ctx >/dev/null 2>&1
# A credential the EK cannot open (made for another RSA key) or made for
# another name is refused, with no secret, and the vTPM serves on:
# libtpms answers the first with 0x101 (TPM_RC_FAILURE), as swtpm does.
openssl genrsa -out other.pem 2048 >/dev/null 2>&1
openssl rsa -in other.pem -pubout -out other-pub.pem >/dev/null 2>&1
activate() { # CREDENTIAL: in a fresh policy session, then flushed
	rm -f refused.out
	tpm2_startauthsession --policy-session -S refused.ctx &&
		tpm2_policysecret -S refused.ctx -c e >/dev/null &&
		tpm2_activatecredential -c ak.ctx -C ek.ctx -i "$1" -o refused.out \
			-P session:refused.ctx
	local rc=$?
	tpm2_flushcontext refused.ctx >/dev/null 2>&1
	return $rc
}
check "makecredential, another EK" tpm2_makecredential -T none -G rsa -u other-pub.pem -s secret.bin -n "$(xxd -p -c 256 ak.name)" -o cred-other-ek.out
fails "activatecredential, another EK" activate cred-other-ek.out
check "no secret from another EK's credential" test ! -e refused.out
check "makecredential, another name" tpm2_makecredential -T none -e ek.pub -s secret.bin -n "000b$(printf '%064d' 0)" -o cred-other-name.out
fails "activatecredential, another name" activate cred-other-name.out
check "no secret from another name's credential" test ! -e refused.out
check "activatecredential again after refusals" activate cred.out
check "activated secret after refusals = made secret" cmp secret.bin refused.out
printf 'nonce-1234' >nonce.bin
check "quote" tpm2_quote -c ak.ctx -l sha256:0,16 -q "$(xxd -p nonce.bin)" -m quote.msg -s quote.sig -o quote.pcrs -g sha256
check "checkquote" tpm2_checkquote -u ak.pub -m quote.msg -s quote.sig -f quote.pcrs -g sha256 -q "$(xxd -p nonce.bin)"
fails "checkquote, wrong nonce" tpm2_checkquote -u ak.pub -m quote.msg -s quote.sig -f quote.pcrs -g sha256 -q 00112233
flush

# Sealing to a PCR policy; unsealing fails once the PCR moves.
check "createprimary (SRK)" tpm2_createprimary -C o -c srk.ctx
check "pcrread to file" tpm2_pcrread -o pcr.bin sha256:7
check "createpolicy pcr" tpm2_createpolicy --policy-pcr -l sha256:7 -f pcr.bin -L pcr.policy
check "create sealed object" sh -c 'printf "sealed secret" | tpm2_create -C srk.ctx -L pcr.policy -i- -u seal.pub -r seal.priv'
check "load sealed object" tpm2_load -C srk.ctx -u seal.pub -r seal.priv -c seal.ctx
check "unseal with the PCR policy" sh -c '[ "$(tpm2_unseal -c seal.ctx -p pcr:sha256:7)" = "sealed secret" ]'
check "pcrextend 7" tpm2_pcrextend "7:sha256=$digest"
fails "unseal after the extend" tpm2_unseal -c seal.ctx -p pcr:sha256:7
flush

# NV: define, write, read, undefine.
check "nvdefine" tpm2_nvdefine 0x1500016 -C o -s 32 -a "ownerread|ownerwrite"
check "nvwrite" sh -c 'printf "hello nv" | tpm2_nvwrite 0x1500016 -C o -i-'
check "nvread" sh -c '[ "$(tpm2_nvread 0x1500016 -C o -s 8)" = "hello nv" ]'
check "nvundefine" tpm2_nvundefine 0x1500016 -C o
fails "nvread after undefine" tpm2_nvread 0x1500016 -C o -s 8

echo "vtpm: $passed passed, $failed failed (log: $log)"
[ "$failed" -eq 0 ]
