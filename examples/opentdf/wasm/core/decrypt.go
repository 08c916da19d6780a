// TDF3 decryption inside the module. decrypt unwraps the payload key
// locally: the host holds the KAS private key and unwraps it itself
// (RSA-OAEP import), as the seed's wazero and Chicory hosts did instead of
// asking a KAS. decryptWithKey takes the payload key from the host, which
// got it from a KAS rewrap (the seed's TypeScript host: the manifest comes
// from readManifest, the KAS checks the policy binding). Every other check
// a reader owes is made either way: root signature, each segment's hash,
// and GCM's own tag on each segment.

package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// tdf is an archive's two entries, the manifest parsed.
type tdf struct {
	manifest manifest
	payload  []byte
}

func readArchive(archive []byte) (tdf, error) {
	entries, err := zipEntries(archive)
	if err != nil {
		return tdf{}, err
	}
	manifestJSON, ok := entries[manifestName]
	if !ok {
		return tdf{}, errors.New("no " + manifestName + " in the archive")
	}
	payload, ok := entries[payloadName]
	if !ok {
		return tdf{}, errors.New("no " + payloadName + " in the archive")
	}
	var t tdf
	if err := json.Unmarshal(manifestJSON, &t.manifest); err != nil {
		return tdf{}, fmt.Errorf("manifest: %w", err)
	}
	t.payload = payload
	return t, nil
}

// readManifest returns the archive's manifest as written (0.manifest.json),
// for a host that asks a KAS for the payload key.
func readManifest(archive []byte) ([]byte, error) {
	entries, err := zipEntries(archive)
	if err != nil {
		return nil, err
	}
	m, ok := entries[manifestName]
	if !ok {
		return nil, errors.New("no " + manifestName + " in the archive")
	}
	return append([]byte(nil), m...), nil
}

func decrypt(archive, privatePEM []byte) ([]byte, error) {
	t, err := readArchive(archive)
	if err != nil {
		return nil, err
	}
	key, err := unwrapLocally(t.manifest.EncryptionInformation, privatePEM)
	if err != nil {
		return nil, err
	}
	return decryptPayload(t, key)
}

// decryptWithKey decrypts with the payload key the host obtained (32 bytes:
// the XOR of every split's key, as a KAS rewrap gives them back).
func decryptWithKey(archive, key []byte) ([]byte, error) {
	if len(key) != 32 {
		return nil, fmt.Errorf("the payload key is %d bytes, not 32", len(key))
	}
	t, err := readArchive(archive)
	if err != nil {
		return nil, err
	}
	return decryptPayload(t, key)
}

// unwrapLocally: the payload key is the XOR of every split; one wrapped key
// per split here, each unwrapped with the private key and checked against
// its policy binding.
func unwrapLocally(info encryptionInformation, privatePEM []byte) ([]byte, error) {
	key := make([]byte, 32)
	seen := map[string]bool{}
	for _, ka := range info.KeyAccess {
		if seen[ka.SplitID] {
			continue
		}
		wrapped, err := b64.DecodeString(ka.WrappedKey)
		if err != nil {
			return nil, fmt.Errorf("wrappedKey: %w", err)
		}
		split, err := rsaUnwrap(privatePEM, wrapped)
		if err != nil {
			return nil, err
		}
		if len(split) != 32 {
			return nil, errors.New("unwrapped key is not 32 bytes")
		}
		if err := checkBinding(ka.PolicyBinding, split, info.Policy); err != nil {
			return nil, err
		}
		for i := range key {
			key[i] ^= split[i]
		}
		seen[ka.SplitID] = true
	}
	if len(seen) == 0 {
		return nil, errors.New("no key access object")
	}
	return key, nil
}

// decryptPayload checks the root signature and every segment against the
// payload key, and decrypts the segments.
func decryptPayload(t tdf, key []byte) ([]byte, error) {
	info := t.manifest.EncryptionInformation
	if !strings.EqualFold(info.Method.Algorithm, "AES-256-GCM") {
		return nil, errors.New("unsupported payload algorithm " + info.Method.Algorithm)
	}
	legacy := t.manifest.SchemaVersion == ""
	payload := t.payload
	var err error

	integrity := info.IntegrityInformation
	hashes := make([][]byte, len(integrity.Segments))
	var aggregate []byte
	for i, s := range integrity.Segments {
		if hashes[i], err = b64.DecodeString(s.Hash); err != nil {
			return nil, fmt.Errorf("segment hash: %w", err)
		}
		aggregate = append(aggregate, hashes[i]...)
	}
	if !strings.EqualFold(integrity.RootSignature.Alg, "HS256") && integrity.RootSignature.Alg != "" {
		return nil, errors.New("unsupported root signature " + integrity.RootSignature.Alg)
	}
	root, err := hmacSHA256(key, aggregate)
	if err != nil {
		return nil, err
	}
	if b64.EncodeToString(integrityValue(root, legacy)) != integrity.RootSignature.Sig {
		return nil, errors.New("root signature mismatch")
	}

	var total int64
	for _, s := range integrity.Segments {
		size, _ := segmentSizes(s, integrity)
		total += size
	}
	plaintext := make([]byte, total)
	gmac := strings.EqualFold(integrity.SegmentHashAlg, "GMAC")
	var in, out int64
	for i, s := range integrity.Segments {
		size, encSize := segmentSizes(s, integrity)
		if in+encSize > int64(len(payload)) || size < 0 || encSize != size+gcmOverhead {
			return nil, fmt.Errorf("segment %d: sizes do not match the payload", i)
		}
		sealed := payload[in : in+encSize]
		var mac []byte
		if gmac {
			mac = sealed[len(sealed)-gcmTagSize:]
		} else if mac, err = hmacSHA256(key, sealed); err != nil {
			return nil, err
		}
		if !bytes.Equal(integrityValue(mac, legacy), hashes[i]) {
			return nil, fmt.Errorf("segment %d: hash mismatch", i)
		}
		if err := openInto(key, sealed, plaintext[out:out+size]); err != nil {
			return nil, fmt.Errorf("segment %d: %w", i, err)
		}
		in += encSize
		out += size
	}
	return plaintext, nil
}

// segmentSizes resolves a segment's plaintext and encrypted sizes: a field
// left out (0) takes the manifest's default, except that a plaintext size of
// 0 is real (an empty payload) unless the encrypted size is the default too.
func segmentSizes(s segment, i integrityInformation) (int64, int64) {
	enc := s.EncryptedSegmentSize
	if enc == 0 {
		enc = i.EncryptedSegmentSizeDefault
	}
	size := s.SegmentSize
	if size == 0 && enc == i.EncryptedSegmentSizeDefault {
		size = i.SegmentSizeDefault
	}
	return size, enc
}

// checkBinding verifies HMAC(split, policy) against the key access object's
// policy binding: an {alg, hash} object, or the bare hash of older files;
// the hash is base64 of the hex digest.
func checkBinding(raw json.RawMessage, split []byte, policyB64 string) error {
	var hash string
	var obj policyBinding
	if err := json.Unmarshal(raw, &obj); err == nil {
		hash = obj.Hash
	} else if err := json.Unmarshal(raw, &hash); err != nil {
		return errors.New("unreadable policy binding")
	}
	mac, err := hmacSHA256(split, []byte(policyB64))
	if err != nil {
		return err
	}
	if b64.EncodeToString([]byte(hex.EncodeToString(mac))) != hash {
		return errors.New("policy binding mismatch")
	}
	return nil
}
