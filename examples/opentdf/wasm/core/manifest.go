// The TDF3 manifest (0.manifest.json) as the OpenTDF SDKs write and read it:
// field names follow the TDF3 JSON schema. Written here from the schema's
// field list so that the module needs no SDK code.

package main

import "encoding/json"

type manifest struct {
	EncryptionInformation encryptionInformation `json:"encryptionInformation"`
	Payload               payloadReference      `json:"payload"`
	SchemaVersion         string                `json:"schemaVersion,omitempty"`
}

type encryptionInformation struct {
	Type                 string               `json:"type"`
	Policy               string               `json:"policy"`
	KeyAccess            []keyAccess          `json:"keyAccess"`
	Method               method               `json:"method"`
	IntegrityInformation integrityInformation `json:"integrityInformation"`
}

type keyAccess struct {
	Type          string          `json:"type"`
	URL           string          `json:"url"`
	Protocol      string          `json:"protocol"`
	WrappedKey    string          `json:"wrappedKey"`
	PolicyBinding json.RawMessage `json:"policyBinding"`
	KID           string          `json:"kid,omitempty"`
	SplitID       string          `json:"sid,omitempty"`
	SchemaVersion string          `json:"schemaVersion,omitempty"`
}

type policyBinding struct {
	Alg  string `json:"alg"`
	Hash string `json:"hash"`
}

type method struct {
	Algorithm    string `json:"algorithm"`
	IV           string `json:"iv"`
	IsStreamable bool   `json:"isStreamable"`
}

type integrityInformation struct {
	RootSignature               rootSignature `json:"rootSignature"`
	SegmentHashAlg              string        `json:"segmentHashAlg"`
	SegmentSizeDefault          int64         `json:"segmentSizeDefault"`
	EncryptedSegmentSizeDefault int64         `json:"encryptedSegmentSizeDefault"`
	Segments                    []segment     `json:"segments"`
}

type rootSignature struct {
	Alg string `json:"alg"`
	Sig string `json:"sig"`
}

type segment struct {
	Hash                 string `json:"hash"`
	SegmentSize          int64  `json:"segmentSize"`
	EncryptedSegmentSize int64  `json:"encryptedSegmentSize"`
}

type payloadReference struct {
	Type        string `json:"type"`
	URL         string `json:"url"`
	Protocol    string `json:"protocol"`
	MimeType    string `json:"mimeType"`
	IsEncrypted bool   `json:"isEncrypted"`
}

// policy is the object whose base64 encoding is encryptionInformation.policy.
type policy struct {
	UUID string     `json:"uuid"`
	Body policyBody `json:"body"`
}

type policyBody struct {
	DataAttributes []policyAttribute `json:"dataAttributes"`
	Dissem         []string          `json:"dissem"`
}

type policyAttribute struct {
	Attribute string `json:"attribute"`
}
