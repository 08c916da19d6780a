// Rewrap: unwrap each key-access object's data key with the KAS private key,
// check its policy binding, and wrap the key again to the client's public
// key. Accepts the request body in both forms clients send: the bulk form
// ("requests": one entry per policy, each with its key-access objects; the
// Go SDK) and the older single-object form ("keyAccess", "policy"; the Java
// and TypeScript SDKs).
package main

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha1" //nolint:gosec // RSA-OAEP with SHA-1 is what TDF 4.x key wrapping uses
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"

	"connectrpc.com/connect"

	"github.com/opentdf/platform/protocol/go/kas"
)

func invalid(format string, args ...any) error {
	return connect.NewError(connect.CodeInvalidArgument, fmt.Errorf(format, args...))
}

func (s *service) rewrap(req *kas.RewrapRequest) (*kas.RewrapResponse, error) {
	body, err := requestBody(req.GetSignedRequestToken())
	if err != nil {
		return nil, err
	}
	clientKey, err := parseRSAPublicKey(body.GetClientPublicKey())
	if err != nil {
		return nil, err
	}

	legacy := len(body.GetRequests()) == 0
	requests := body.GetRequests()
	if legacy {
		if body.GetKeyAccess() == nil { //nolint:staticcheck // the legacy form is accepted on purpose
			return nil, invalid("rewrap request has neither requests nor keyAccess")
		}
		requests = []*kas.UnsignedRewrapRequest_WithPolicyRequest{{
			Policy: &kas.UnsignedRewrapRequest_WithPolicy{Id: "policy", Body: body.GetPolicy()}, //nolint:staticcheck
			KeyAccessObjects: []*kas.UnsignedRewrapRequest_WithKeyAccessObject{{
				KeyAccessObjectId: "kao-0",
				KeyAccessObject:   body.GetKeyAccess(), //nolint:staticcheck
			}},
		}}
	}

	resp := &kas.RewrapResponse{}
	for _, pr := range requests {
		result := &kas.PolicyRewrapResult{PolicyId: pr.GetPolicy().GetId()}
		for _, kao := range pr.GetKeyAccessObjects() {
			r := &kas.KeyAccessRewrapResult{KeyAccessObjectId: kao.GetKeyAccessObjectId()}
			wrapped, err := s.rewrapOne(kao.GetKeyAccessObject(), pr.GetPolicy().GetBody(), clientKey)
			if err != nil {
				r.Status = "fail"
				r.Result = &kas.KeyAccessRewrapResult_Error{Error: err.Error()}
			} else {
				r.Status = "permit"
				r.Result = &kas.KeyAccessRewrapResult_KasWrappedKey{KasWrappedKey: wrapped}
			}
			result.Results = append(result.Results, r)
		}
		resp.Responses = append(resp.Responses, result)
	}
	if legacy {
		// The older clients read the single answer from these fields.
		r := resp.GetResponses()[0].GetResults()[0]
		if r.GetStatus() != "permit" {
			return nil, connect.NewError(connect.CodePermissionDenied, errors.New(r.GetError()))
		}
		resp.EntityWrappedKey = r.GetKasWrappedKey() //nolint:staticcheck
		resp.SchemaVersion = "1.0.0"                 //nolint:staticcheck
	}
	return resp, nil
}

// rewrapOne returns the data key of one key-access object wrapped to the client.
func (s *service) rewrapOne(kao *kas.KeyAccess, policy string, client *rsa.PublicKey) ([]byte, error) {
	if kao == nil {
		return nil, errors.New("missing key access object")
	}
	if t := kao.GetKeyType(); t != "" && t != "wrapped" {
		return nil, fmt.Errorf("key type %q is not supported by this KAS (only RSA \"wrapped\")", t)
	}
	if kid := kao.GetKid(); kid != "" && kid != keyID {
		return nil, fmt.Errorf("unknown key id %q (this KAS has %q)", kid, keyID)
	}
	dek, err := rsa.DecryptOAEP(sha1.New(), rand.Reader, s.key, kao.GetWrappedKey(), nil) //nolint:gosec
	if err != nil {
		return nil, fmt.Errorf("unwrapping the data key: %w", err)
	}
	if err := checkPolicyBinding(dek, policy, kao.GetPolicyBinding().GetHash()); err != nil {
		return nil, err
	}
	out, err := rsa.EncryptOAEP(sha1.New(), rand.Reader, client, dek, nil) //nolint:gosec
	if err != nil {
		return nil, fmt.Errorf("wrapping the data key to the client key: %w", err)
	}
	return out, nil
}

// checkPolicyBinding: the binding is base64 of HMAC-SHA256(key, policy), where
// policy is the base64 policy text; TDF before 4.3.0 hex-encodes the HMAC
// before base64, 4.3.0 and later do not. Both are accepted.
func checkPolicyBinding(dek []byte, policy, binding string) error {
	mac := hmac.New(sha256.New, dek)
	mac.Write([]byte(policy))
	sum := mac.Sum(nil)
	got, err := base64.StdEncoding.DecodeString(binding)
	if err != nil {
		return fmt.Errorf("policy binding is not base64: %w", err)
	}
	if hmac.Equal(got, sum) || hmac.Equal(got, []byte(hex.EncodeToString(sum))) {
		return nil
	}
	return errors.New("policy binding does not match the policy")
}

// requestBody reads the signed request token's "requestBody" claim. The
// token's signature is not verified: without an identity provider there is
// no key bound to the client to verify it with (see README.md).
func requestBody(token string) (*kas.UnsignedRewrapRequest, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return nil, invalid("signed request token is not a JWS compact token")
	}
	payload, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return nil, invalid("signed request token payload is not base64url: %v", err)
	}
	var claims struct {
		RequestBody string `json:"requestBody"`
	}
	if err := json.Unmarshal(payload, &claims); err != nil || claims.RequestBody == "" {
		return nil, invalid("signed request token has no requestBody claim")
	}
	normalized, err := normalizeBody([]byte(claims.RequestBody))
	if err != nil {
		return nil, invalid("requestBody is not JSON: %v", err)
	}
	var body kas.UnsignedRewrapRequest
	if err := restUnmarshal.Unmarshal(normalized, &body); err != nil {
		return nil, invalid("requestBody is not an UnsignedRewrapRequest: %v", err)
	}
	return &body, nil
}

// normalizeBody rewrites what older clients send differently from the
// protocol types: a policyBinding given as a bare string (its hash).
func normalizeBody(raw []byte) ([]byte, error) {
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		return nil, err
	}
	fix := func(kao any) {
		if m, ok := kao.(map[string]any); ok {
			if s, ok := m["policyBinding"].(string); ok {
				m["policyBinding"] = map[string]any{"hash": s, "alg": "HS256"}
			}
		}
	}
	fix(body["keyAccess"])
	if reqs, ok := body["requests"].([]any); ok {
		for _, r := range reqs {
			if rm, ok := r.(map[string]any); ok {
				if kaos, ok := rm["keyAccessObjects"].([]any); ok {
					for _, k := range kaos {
						if km, ok := k.(map[string]any); ok {
							fix(km["keyAccessObject"])
						}
					}
				}
			}
		}
	}
	return json.Marshal(body)
}

func parseRSAPublicKey(text string) (*rsa.PublicKey, error) {
	block, _ := pem.Decode([]byte(text))
	if block == nil {
		return nil, invalid("clientPublicKey is not PEM")
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
		return nil, invalid("clientPublicKey: %v", err)
	}
	rsaKey, ok := key.(*rsa.PublicKey)
	if !ok {
		return nil, invalid("clientPublicKey is a %T; this KAS wraps only to RSA session keys", key)
	}
	return rsaKey, nil
}
