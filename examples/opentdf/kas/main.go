// Command kas is a small key-access service (KAS) for the OpenTDF benchmark
// of examples/opentdf. It exists so that every SDK's decrypt can make the
// same network rewrap it makes against the real OpenTDF platform, without a
// Docker Compose platform, an identity provider or a policy database.
//
// At start it makes one RSA-2048 key pair (key id "r1", algorithm rsa:2048)
// and writes into --state DIR:
//
//	kas-public.pem   the public key, which the SDKs wrap data keys to
//	kas-private.pem  the private key, only for the "decrypt-local"
//	                 implementations, which unwrap without the network
//	kas-url          http://127.0.0.1:PORT/kas, the KAS URL as TDFs name it
//
// It serves, on 127.0.0.1:--port, over HTTP/1.1 and unencrypted HTTP/2:
//
//	GET  /healthz                       readiness probe
//	GET  /kas/v2/kas_public_key         public key (REST, as the platform)
//	GET  /kas/kas_public_key            the same, legacy v1 form
//	POST /kas/v2/rewrap                 rewrap (REST, as the platform)
//	/kas.AccessService/{PublicKey,LegacyPublicKey,Rewrap}
//	                                    the same over Connect, gRPC, gRPC-Web
//
// What it does not do (so its latency is a floor under the real
// platform's): no authentication (the request token's signature and any
// access or DPoP token are not checked), no entity resolution, no attribute
// or policy decision. It does check the policy binding, as the real KAS does.
package main

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"time"
)

const (
	keyID        = "r1"
	keyAlgorithm = "rsa:2048"
)

func main() {
	port := flag.Int("port", 0, "TCP port on 127.0.0.1 (0: any free port)")
	state := flag.String("state", "", "folder for kas-public.pem, kas-private.pem and kas-url (created if missing)")
	quiet := flag.Bool("quiet", false, "do not log each request")
	version := flag.Bool("version", false, "print the version (the protocol module's and Go's) and exit")
	flag.Parse()
	if *version {
		fmt.Println(versionLine())
		return
	}
	if *state == "" {
		fmt.Fprintln(os.Stderr, "kas: --state DIR is required")
		os.Exit(2)
	}

	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		log.Fatalf("kas: generating the RSA-2048 key: %v", err)
	}
	publicPEM, err := writeKeys(*state, key)
	if err != nil {
		log.Fatalf("kas: %v", err)
	}

	listener, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", *port))
	if err != nil {
		log.Fatalf("kas: listening on 127.0.0.1:%d: %v", *port, err)
	}
	url := "http://" + listener.Addr().String() + "/kas"
	if err := os.WriteFile(filepath.Join(*state, "kas-url"), []byte(url+"\n"), 0o644); err != nil {
		log.Fatalf("kas: %v", err)
	}

	svc := &service{key: key, publicPEM: publicPEM, logRequests: !*quiet}
	protocols := new(http.Protocols)
	protocols.SetHTTP1(true)
	protocols.SetUnencryptedHTTP2(true) // gRPC clients without TLS speak h2c
	server := &http.Server{
		Handler:           svc.routes(),
		Protocols:         protocols,
		ReadHeaderTimeout: 10 * time.Second,
	}
	log.Printf("kas: serving %s (key id %s, %s), state in %s", url, keyID, keyAlgorithm, *state)
	if err := server.Serve(listener); err != nil {
		log.Fatalf("kas: %v", err)
	}
}

// writeKeys writes the key pair as PEM files into dir and returns the public
// key's PEM text (PKIX "PUBLIC KEY", the form the SDKs accept).
func writeKeys(dir string, key *rsa.PrivateKey) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("creating the state folder: %w", err)
	}
	der, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return "", fmt.Errorf("encoding the public key: %w", err)
	}
	publicPEM := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
	privDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return "", fmt.Errorf("encoding the private key: %w", err)
	}
	privatePEM := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: privDER})
	if err := os.WriteFile(filepath.Join(dir, "kas-private.pem"), privatePEM, 0o600); err != nil {
		return "", fmt.Errorf("writing kas-private.pem: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "kas-public.pem"), publicPEM, 0o644); err != nil {
		return "", fmt.Errorf("writing kas-public.pem: %w", err)
	}
	return string(publicPEM), nil
}

// versionLine names this service, the platform protocol module it speaks and
// the Go that built it, from the binary's own build information.
func versionLine() string {
	protocol := "unknown"
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "github.com/opentdf/platform/protocol/go" {
				protocol = dep.Version
			}
		}
	}
	return fmt.Sprintf("versus example KAS (platform protocol/go %s, %s)", protocol, runtime.Version())
}
