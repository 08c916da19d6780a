// sdkcheck proves that the TDFs the WASM module writes are real TDFs: it
// decrypts each one with the OpenTDF Go SDK (v0.35.0), which unwraps the
// key through the KAS of ../../kas (so the KAS's policy-binding check runs
// too), and compares the result with the plaintext it was made from.
//
//	sdkcheck --state KAS_STATE PLAIN TDF [PLAIN TDF ...]
//
// Exit status 0 when every pair decrypts to its plaintext, 1 otherwise; one
// line per pair on standard output.

package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/opentdf/platform/sdk"
	"golang.org/x/oauth2"
)

func main() {
	state := flag.String("state", "", "the KAS state folder (its kas-url file names the KAS)")
	flag.Parse()
	if *state == "" || flag.NArg() == 0 || flag.NArg()%2 != 0 {
		fmt.Fprintln(os.Stderr, "usage: sdkcheck --state KAS_STATE PLAIN TDF [PLAIN TDF ...]")
		os.Exit(2)
	}
	urlBytes, err := os.ReadFile(filepath.Join(*state, "kas-url"))
	if err != nil {
		fail(err)
	}
	kasURL := strings.TrimSpace(string(urlBytes))
	// The KAS checks no token, but the SDK needs a token source to sign its
	// rewrap requests; no platform configuration is fetched.
	token := oauth2.StaticTokenSource(&oauth2.Token{AccessToken: "sdkcheck", TokenType: "Bearer"})
	client, err := sdk.New(kasURL, sdk.WithPlatformConfiguration(sdk.PlatformConfiguration{}),
		sdk.WithInsecurePlaintextConn(), sdk.WithOAuthAccessTokenSource(token))
	if err != nil {
		fail(err)
	}
	failed := 0
	for i := 0; i < flag.NArg(); i += 2 {
		plainPath, tdfPath := flag.Arg(i), flag.Arg(i+1)
		if err := check(client, kasURL, plainPath, tdfPath); err != nil {
			fmt.Printf("FAIL %s: %v\n", tdfPath, err)
			failed++
		} else {
			fmt.Printf("ok   %s\n", tdfPath)
		}
	}
	if failed > 0 {
		fmt.Printf("%d of %d TDFs not read back by the Go SDK\n", failed, flag.NArg()/2)
		os.Exit(1)
	}
	fmt.Printf("all %d TDFs read back by the Go SDK %s\n", flag.NArg()/2, sdk.Version)
}

func check(client *sdk.SDK, kasURL, plainPath, tdfPath string) error {
	plain, err := os.ReadFile(plainPath)
	if err != nil {
		return err
	}
	tdf, err := os.ReadFile(tdfPath)
	if err != nil {
		return err
	}
	r, err := client.LoadTDF(bytes.NewReader(tdf), sdk.WithKasAllowlist([]string{kasURL}),
		sdk.WithSchemaValidation(sdk.Strict))
	if err != nil {
		return fmt.Errorf("LoadTDF: %w", err)
	}
	var out bytes.Buffer
	if _, err := r.WriteTo(&out); err != nil {
		return fmt.Errorf("reading the payload: %w", err)
	}
	if !bytes.Equal(out.Bytes(), plain) {
		return fmt.Errorf("decrypted %d bytes, not the %d-byte plaintext", out.Len(), len(plain))
	}
	return nil
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "sdkcheck:", err)
	os.Exit(1)
}
