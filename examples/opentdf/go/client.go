// The Go SDK client as every operation here uses it: offline encryption to
// the KAS public key given directly (no platform configuration, no key
// lookup, autoconfigure off), decryption through the KAS's rewrap.
package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/oauth2"

	"github.com/opentdf/platform/sdk"
)

// tdfVersion is the TDF format written by every Go operation: the Go SDK's
// default (4.3.0) cannot be read by the Java SDK 0.7.3 or the TypeScript
// client, 4.2.2 can (README.md, "Interoperability").
const tdfVersion = "4.2.2"

type client struct {
	sdk     *sdk.SDK
	kasURL  string
	kasInfo sdk.KASInfo
}

// kasState is what the KAS wrote into its --state folder.
func readKASState(state, kasURL string) (url, publicPEM string, err error) {
	pub, err := os.ReadFile(filepath.Join(state, "kas-public.pem"))
	if err != nil {
		return "", "", fmt.Errorf("reading the KAS public key (is the kas service running with --state %s?): %w", state, err)
	}
	if kasURL == "" {
		b, err := os.ReadFile(filepath.Join(state, "kas-url"))
		if err != nil {
			return "", "", fmt.Errorf("no --kas-url and no kas-url file in %s: %w", state, err)
		}
		kasURL = strings.TrimSpace(string(b))
	}
	return kasURL, string(pub), nil
}

func newClient(kasURL, state string) (*client, error) {
	kasURL, publicPEM, err := readKASState(state, kasURL)
	if err != nil {
		return nil, err
	}
	// No identity provider: a static access token only makes the SDK build
	// its signed rewrap requests (it needs a token source for that); the KAS
	// does not check it.
	token := oauth2.StaticTokenSource(&oauth2.Token{AccessToken: "versus-benchmark", TokenType: "Bearer"})
	s, err := sdk.New(kasURL,
		sdk.WithPlatformConfiguration(sdk.PlatformConfiguration{}),
		sdk.WithInsecurePlaintextConn(),
		sdk.WithOAuthAccessTokenSource(token),
	)
	if err != nil {
		return nil, fmt.Errorf("sdk.New: %w", err)
	}
	return &client{
		sdk:    s,
		kasURL: kasURL,
		kasInfo: sdk.KASInfo{
			URL:       kasURL,
			PublicKey: publicPEM,
			KID:       "r1",
			Algorithm: "rsa:2048",
			Default:   true,
		},
	}, nil
}

// encrypt writes a TDF of plain into out (reset first) with CreateTDF.
func (c *client) encrypt(plain []byte, out *bytes.Buffer) error {
	out.Reset()
	_, err := c.sdk.CreateTDF(out, bytes.NewReader(plain),
		sdk.WithAutoconfigure(false),
		sdk.WithKasInformation(c.kasInfo),
		sdk.WithTargetMode(tdfVersion),
	)
	return err
}

// decrypt reads the TDF with LoadTDF, which rewraps through the KAS, into
// out (reset first).
func (c *client) decrypt(tdf []byte, out *bytes.Buffer) error {
	out.Reset()
	r, err := c.sdk.LoadTDF(bytes.NewReader(tdf), sdk.WithKasAllowlist([]string{c.kasURL}))
	if err != nil {
		return fmt.Errorf("LoadTDF: %w", err)
	}
	if _, err := r.WriteTo(out); err != nil {
		return fmt.Errorf("reading the TDF payload: %w", err)
	}
	return nil
}

// roundTrip decrypts tdf and checks that it gives plain back.
func (c *client) roundTrip(tdf, plain []byte) error {
	var out bytes.Buffer
	if err := c.decrypt(tdf, &out); err != nil {
		return err
	}
	if !bytes.Equal(out.Bytes(), plain) {
		return errors.New("decrypting what was encrypted did not give the plaintext back")
	}
	return nil
}

var background = context.Background()
