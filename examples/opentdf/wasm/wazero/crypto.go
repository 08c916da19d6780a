// The host side of the module's "crypto" imports, in Go's standard library:
// the module hands over (pointer, length) pairs and the functions read and
// write its linear memory in place (wazero's Memory.Read returns a view, so
// AES-GCM seals straight into the module's output buffer).
//
// Parsed RSA keys are cached by their PEM text: parsing (and, since Go 1.24,
// validating) a private key costs more than the unwrap itself, and a real
// host would keep its keys parsed too. The last AES key's AEAD is kept as
// well, since every segment of a TDF uses the same key.

package main

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

const hostError = 0xFFFFFFFF

type hostCrypto struct {
	lastError  string
	publicKeys map[string]*rsa.PublicKey
	privKeys   map[string]*rsa.PrivateKey
	aeadKey    []byte
	aead       cipher.AEAD
}

func newHostCrypto() *hostCrypto {
	return &hostCrypto{publicKeys: map[string]*rsa.PublicKey{}, privKeys: map[string]*rsa.PrivateKey{}}
}

// instantiate registers the import module "crypto" in the runtime.
func (h *hostCrypto) instantiate(ctx context.Context, r wazero.Runtime) error {
	b := r.NewHostModuleBuilder("crypto")
	b.NewFunctionBuilder().WithFunc(h.randomBytes).Export("random_bytes")
	b.NewFunctionBuilder().WithFunc(h.aesGCMEncrypt).Export("aes_gcm_encrypt")
	b.NewFunctionBuilder().WithFunc(h.aesGCMDecrypt).Export("aes_gcm_decrypt")
	b.NewFunctionBuilder().WithFunc(h.hmacSHA256).Export("hmac_sha256")
	b.NewFunctionBuilder().WithFunc(h.rsaEncrypt).Export("rsa_oaep_sha1_encrypt")
	b.NewFunctionBuilder().WithFunc(h.rsaDecrypt).Export("rsa_oaep_sha1_decrypt")
	b.NewFunctionBuilder().WithFunc(h.getLastError).Export("get_last_error")
	_, err := b.Instantiate(ctx)
	return err
}

func (h *hostCrypto) fail(err error) uint32 {
	h.lastError = err.Error()
	return hostError
}

func view(m api.Module, p, n uint32) ([]byte, error) {
	if n == 0 {
		return nil, nil
	}
	b, ok := m.Memory().Read(p, n)
	if !ok {
		return nil, fmt.Errorf("buffer [%d, +%d) outside the module's memory", p, n)
	}
	return b, nil
}

func (h *hostCrypto) randomBytes(_ context.Context, m api.Module, out, n uint32) uint32 {
	b, err := view(m, out, n)
	if err == nil {
		_, err = rand.Read(b)
	}
	if err != nil {
		return h.fail(err)
	}
	return n
}

func (h *hostCrypto) gcm(key []byte) (cipher.AEAD, error) {
	if h.aead != nil && bytes.Equal(key, h.aeadKey) {
		return h.aead, nil
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	if h.aead, err = cipher.NewGCM(block); err != nil {
		return nil, err
	}
	h.aeadKey = append(h.aeadKey[:0], key...)
	return h.aead, nil
}

func (h *hostCrypto) aesGCMEncrypt(_ context.Context, m api.Module, keyP, keyN, ptP, ptN, outP uint32) uint32 {
	key, err := view(m, keyP, keyN)
	if err != nil {
		return h.fail(err)
	}
	pt, err := view(m, ptP, ptN)
	if err != nil {
		return h.fail(err)
	}
	out, err := view(m, outP, ptN+12+16)
	if err != nil {
		return h.fail(err)
	}
	aead, err := h.gcm(key)
	if err != nil {
		return h.fail(err)
	}
	if _, err := rand.Read(out[:12]); err != nil {
		return h.fail(err)
	}
	aead.Seal(out[12:12], out[:12], pt, nil)
	return ptN + 28
}

func (h *hostCrypto) aesGCMDecrypt(_ context.Context, m api.Module, keyP, keyN, ctP, ctN, outP uint32) uint32 {
	if ctN < 28 {
		return h.fail(errors.New("ciphertext shorter than nonce and tag"))
	}
	key, err := view(m, keyP, keyN)
	if err != nil {
		return h.fail(err)
	}
	ct, err := view(m, ctP, ctN)
	if err != nil {
		return h.fail(err)
	}
	out, err := view(m, outP, ctN-28)
	if err != nil {
		return h.fail(err)
	}
	aead, err := h.gcm(key)
	if err != nil {
		return h.fail(err)
	}
	if _, err := aead.Open(out[:0], ct[:12], ct[12:], nil); err != nil {
		return h.fail(err)
	}
	return ctN - 28
}

func (h *hostCrypto) hmacSHA256(_ context.Context, m api.Module, keyP, keyN, dataP, dataN, outP uint32) uint32 {
	key, err := view(m, keyP, keyN)
	if err != nil {
		return h.fail(err)
	}
	data, err := view(m, dataP, dataN)
	if err != nil {
		return h.fail(err)
	}
	mac := hmac.New(sha256.New, key)
	mac.Write(data)
	if !m.Memory().Write(outP, mac.Sum(nil)) {
		return h.fail(errors.New("output outside memory"))
	}
	return 32
}

func (h *hostCrypto) publicKey(pemText []byte) (*rsa.PublicKey, error) {
	if k, ok := h.publicKeys[string(pemText)]; ok {
		return k, nil
	}
	block, _ := pem.Decode(pemText)
	if block == nil {
		return nil, errors.New("public key: no PEM block")
	}
	var key any
	var err error
	switch block.Type {
	case "RSA PUBLIC KEY":
		key, err = x509.ParsePKCS1PublicKey(block.Bytes)
	case "CERTIFICATE":
		var cert *x509.Certificate
		if cert, err = x509.ParseCertificate(block.Bytes); err == nil {
			key = cert.PublicKey
		}
	default:
		key, err = x509.ParsePKIXPublicKey(block.Bytes)
	}
	if err != nil {
		return nil, err
	}
	rsaKey, ok := key.(*rsa.PublicKey)
	if !ok {
		return nil, errors.New("public key is not RSA")
	}
	h.publicKeys[string(pemText)] = rsaKey
	return rsaKey, nil
}

func (h *hostCrypto) privateKey(pemText []byte) (*rsa.PrivateKey, error) {
	if k, ok := h.privKeys[string(pemText)]; ok {
		return k, nil
	}
	block, _ := pem.Decode(pemText)
	if block == nil {
		return nil, errors.New("private key: no PEM block")
	}
	var key any
	var err error
	if block.Type == "RSA PRIVATE KEY" {
		key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
	} else {
		key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	}
	if err != nil {
		return nil, err
	}
	rsaKey, ok := key.(*rsa.PrivateKey)
	if !ok {
		return nil, errors.New("private key is not RSA")
	}
	h.privKeys[string(pemText)] = rsaKey
	return rsaKey, nil
}

func (h *hostCrypto) rsaEncrypt(_ context.Context, m api.Module, pemP, pemN, ptP, ptN, outP, outCap uint32) uint32 {
	pemText, err := view(m, pemP, pemN)
	if err != nil {
		return h.fail(err)
	}
	pt, err := view(m, ptP, ptN)
	if err != nil {
		return h.fail(err)
	}
	key, err := h.publicKey(pemText)
	if err != nil {
		return h.fail(err)
	}
	ct, err := rsa.EncryptOAEP(sha1.New(), rand.Reader, key, pt, nil)
	if err != nil {
		return h.fail(err)
	}
	if uint32(len(ct)) > outCap || !m.Memory().Write(outP, ct) {
		return h.fail(errors.New("RSA output buffer too small"))
	}
	return uint32(len(ct))
}

func (h *hostCrypto) rsaDecrypt(_ context.Context, m api.Module, pemP, pemN, ctP, ctN, outP, outCap uint32) uint32 {
	pemText, err := view(m, pemP, pemN)
	if err != nil {
		return h.fail(err)
	}
	ct, err := view(m, ctP, ctN)
	if err != nil {
		return h.fail(err)
	}
	key, err := h.privateKey(pemText)
	if err != nil {
		return h.fail(err)
	}
	pt, err := rsa.DecryptOAEP(sha1.New(), nil, key, ct, nil)
	if err != nil {
		return h.fail(err)
	}
	if uint32(len(pt)) > outCap || !m.Memory().Write(outP, pt) {
		return h.fail(errors.New("RSA output buffer too small"))
	}
	return uint32(len(pt))
}

func (h *hostCrypto) getLastError(_ context.Context, m api.Module, outP, outCap uint32) uint32 {
	msg := []byte(h.lastError)
	h.lastError = ""
	if uint32(len(msg)) > outCap {
		msg = msg[:outCap]
	}
	if !m.Memory().Write(outP, msg) {
		return hostError
	}
	return uint32(len(msg))
}
