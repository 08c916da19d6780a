// TDF3 encryption inside the module: everything but the cryptography (which
// the host does, see hostcrypto.go). One payload key, wrapped to one KAS;
// the payload in segments of AES-256-GCM; GMAC segment hashes (each
// segment's GCM tag), an HS256 root signature over them, and an HS256 policy
// binding, as the OpenTDF SDKs write by default.

package main

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"hash/crc32"
)

const (
	defaultSegmentSize = 2 * 1024 * 1024 // the Go SDK's default
	payloadName        = "0.payload"
	manifestName       = "0.manifest.json"
	specVersion        = "4.3.0"
)

type encryptOptions struct {
	kasPublicPEM []byte
	kasURL       string
	kid          string
	segmentSize  int
	// legacy writes the pre-4.3.0 (4.2.2) form: no schemaVersion, and
	// segment hashes and root signature hex-encoded before base64.
	legacy bool
}

var b64 = base64.StdEncoding

// integrityValue is how a hash is written into the manifest (and enters the
// aggregate hash): raw bytes from 4.3.0 on, their hex string before.
func integrityValue(mac []byte, legacy bool) []byte {
	if legacy {
		return []byte(hex.EncodeToString(mac))
	}
	return mac
}

func encrypt(plaintext []byte, o encryptOptions) ([]byte, error) {
	if o.segmentSize <= 0 {
		o.segmentSize = defaultSegmentSize
	}
	if len(o.kasPublicPEM) == 0 {
		return nil, errors.New("no KAS public key")
	}
	key, err := randomBytes(32)
	if err != nil {
		return nil, err
	}
	wrapped, err := rsaWrap(o.kasPublicPEM, key)
	if err != nil {
		return nil, err
	}
	policyB64, err := newPolicy()
	if err != nil {
		return nil, err
	}
	binding, err := hmacSHA256(key, []byte(policyB64))
	if err != nil {
		return nil, err
	}
	// The binding is hex-then-base64 in every version.
	bindingJSON, _ := json.Marshal(policyBinding{Alg: "HS256", Hash: b64.EncodeToString([]byte(hex.EncodeToString(binding)))})

	segments := (len(plaintext) + o.segmentSize - 1) / o.segmentSize
	if segments == 0 {
		segments = 1 // an empty payload is one empty segment
	}
	payloadSize := len(plaintext) + segments*gcmOverhead
	z := zipWriter{buf: make([]byte, 0, payloadSize+segments*96+4096)}

	z.begin(payloadName)
	var crc uint32
	var aggregate []byte
	hashes := make([]segment, 0, segments)
	for i := 0; i < segments; i++ {
		start := i * o.segmentSize
		end := min(start+o.segmentSize, len(plaintext))
		at := len(z.buf)
		z.buf = z.buf[:at+end-start+gcmOverhead]
		sealed := z.buf[at:]
		if err := sealInto(key, plaintext[start:end], sealed); err != nil {
			return nil, err
		}
		crc = crc32.Update(crc, crc32.IEEETable, sealed)
		tag := integrityValue(sealed[len(sealed)-gcmTagSize:], o.legacy)
		aggregate = append(aggregate, tag...)
		hashes = append(hashes, segment{
			Hash:                 b64.EncodeToString(tag),
			SegmentSize:          int64(end - start),
			EncryptedSegmentSize: int64(len(sealed)),
		})
	}
	z.end(crc)

	root, err := hmacSHA256(key, aggregate)
	if err != nil {
		return nil, err
	}
	m := manifest{
		EncryptionInformation: encryptionInformation{
			Type:   "split",
			Policy: policyB64,
			KeyAccess: []keyAccess{{
				Type:          "wrapped",
				URL:           o.kasURL,
				Protocol:      "kas",
				WrappedKey:    b64.EncodeToString(wrapped),
				PolicyBinding: bindingJSON,
				KID:           o.kid,
				SchemaVersion: "1.0",
			}},
			Method: method{Algorithm: "AES-256-GCM", IsStreamable: true},
			IntegrityInformation: integrityInformation{
				RootSignature:               rootSignature{Alg: "HS256", Sig: b64.EncodeToString(integrityValue(root, o.legacy))},
				SegmentHashAlg:              "GMAC",
				SegmentSizeDefault:          int64(o.segmentSize),
				EncryptedSegmentSizeDefault: int64(o.segmentSize + gcmOverhead),
				Segments:                    hashes,
			},
		},
		Payload: payloadReference{
			Type: "reference", URL: payloadName, Protocol: "zip",
			MimeType: "application/octet-stream", IsEncrypted: true,
		},
	}
	if !o.legacy {
		m.SchemaVersion = specVersion
	}
	manifestJSON, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	z.add(manifestName, manifestJSON)
	return z.close(), nil
}

// newPolicy returns the base64 policy object: a fresh UUID, no attributes.
func newPolicy() (string, error) {
	u, err := randomBytes(16)
	if err != nil {
		return "", err
	}
	u[6] = u[6]&0x0f | 0x40 // version 4
	u[8] = u[8]&0x3f | 0x80 // RFC 4122 variant
	h := hex.EncodeToString(u)
	id := h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
	body, err := json.Marshal(policy{UUID: id, Body: policyBody{DataAttributes: []policyAttribute{}, Dissem: []string{}}})
	if err != nil {
		return "", err
	}
	return b64.EncodeToString(body), nil
}
