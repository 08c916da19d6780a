// The module's whole cryptographic surface: functions the host provides
// (import module "crypto"), as in the seed's design, where every primitive
// stays on the host so a deployment can swap in its own validated provider.
// No crypto/* package is linked into the module.
//
// Convention: byte strings are (pointer, length) pairs into the module's
// linear memory; the module allocates every output buffer before the call.
// A function returns the number of bytes it wrote, or 0xFFFFFFFF on error,
// after which get_last_error copies the host's message out.

package main

import (
	"errors"
	"unsafe"
)

const hostError = 0xFFFFFFFF

// AES-GCM framing used by the seal/open imports: nonce || ciphertext || tag,
// which is exactly a TDF3 payload segment.
const (
	gcmNonceSize = 12
	gcmTagSize   = 16
	gcmOverhead  = gcmNonceSize + gcmTagSize
)

//go:wasmimport crypto random_bytes
func hostRandomBytes(out unsafe.Pointer, n uint32) uint32

// aes_gcm_encrypt writes nonce (12, fresh from the host) || ciphertext || tag (16).
//
//go:wasmimport crypto aes_gcm_encrypt
func hostAESGCMEncrypt(key unsafe.Pointer, keyLen uint32, pt unsafe.Pointer, ptLen uint32, out unsafe.Pointer) uint32

// aes_gcm_decrypt reads nonce || ciphertext || tag and writes the plaintext.
//
//go:wasmimport crypto aes_gcm_decrypt
func hostAESGCMDecrypt(key unsafe.Pointer, keyLen uint32, ct unsafe.Pointer, ctLen uint32, out unsafe.Pointer) uint32

//go:wasmimport crypto hmac_sha256
func hostHMACSHA256(key unsafe.Pointer, keyLen uint32, data unsafe.Pointer, dataLen uint32, out unsafe.Pointer) uint32

// RSA-OAEP with SHA-1 (hash and MGF1), as the OpenTDF SDKs wrap keys; the
// key is PEM (SPKI or PKCS#1 public, PKCS#8 or PKCS#1 private).
//
//go:wasmimport crypto rsa_oaep_sha1_encrypt
func hostRSAEncrypt(pem unsafe.Pointer, pemLen uint32, pt unsafe.Pointer, ptLen uint32, out unsafe.Pointer, outCap uint32) uint32

//go:wasmimport crypto rsa_oaep_sha1_decrypt
func hostRSADecrypt(pem unsafe.Pointer, pemLen uint32, ct unsafe.Pointer, ctLen uint32, out unsafe.Pointer, outCap uint32) uint32

//go:wasmimport crypto get_last_error
func hostGetLastError(out unsafe.Pointer, outCap uint32) uint32

// ptr gives the address of a slice's first byte, or nil for an empty slice.
func ptr(b []byte) unsafe.Pointer {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Pointer(&b[0])
}

func hostErr(what string) error {
	buf := make([]byte, 512)
	n := hostGetLastError(ptr(buf), uint32(len(buf)))
	if n == hostError || n > uint32(len(buf)) {
		n = 0
	}
	return errors.New(what + ": " + string(buf[:n]))
}

func randomBytes(n int) ([]byte, error) {
	b := make([]byte, n)
	if hostRandomBytes(ptr(b), uint32(n)) == hostError {
		return nil, hostErr("random_bytes")
	}
	return b, nil
}

// sealInto encrypts pt into out, which must hold len(pt)+gcmOverhead bytes.
func sealInto(key, pt, out []byte) error {
	if hostAESGCMEncrypt(ptr(key), uint32(len(key)), ptr(pt), uint32(len(pt)), ptr(out)) == hostError {
		return hostErr("aes_gcm_encrypt")
	}
	return nil
}

// openInto decrypts a segment into out (len(ct)-gcmOverhead bytes).
func openInto(key, ct, out []byte) error {
	if len(ct) < gcmOverhead {
		return errors.New("segment shorter than nonce and tag")
	}
	if hostAESGCMDecrypt(ptr(key), uint32(len(key)), ptr(ct), uint32(len(ct)), ptr(out)) == hostError {
		return hostErr("aes_gcm_decrypt")
	}
	return nil
}

func hmacSHA256(key, data []byte) ([]byte, error) {
	out := make([]byte, 32)
	if hostHMACSHA256(ptr(key), uint32(len(key)), ptr(data), uint32(len(data)), ptr(out)) == hostError {
		return nil, hostErr("hmac_sha256")
	}
	return out, nil
}

func rsaWrap(pubPEM, key []byte) ([]byte, error) {
	out := make([]byte, 1024) // up to RSA-8192
	n := hostRSAEncrypt(ptr(pubPEM), uint32(len(pubPEM)), ptr(key), uint32(len(key)), ptr(out), uint32(len(out)))
	if n == hostError || n > uint32(len(out)) {
		return nil, hostErr("rsa_oaep_sha1_encrypt")
	}
	return out[:n], nil
}

func rsaUnwrap(privPEM, wrapped []byte) ([]byte, error) {
	out := make([]byte, 1024)
	n := hostRSADecrypt(ptr(privPEM), uint32(len(privPEM)), ptr(wrapped), uint32(len(wrapped)), ptr(out), uint32(len(out)))
	if n == hostError || n > uint32(len(out)) {
		return nil, hostErr("rsa_oaep_sha1_decrypt")
	}
	return out[:n], nil
}
