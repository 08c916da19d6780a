// Key generation and the wrapping of a file key for one recipient (and its
// unwrapping by the matching identity), for X25519, the post-quantum hybrid
// ML-KEM-768-X25519 and scrypt: the seed's "Key Generation" and "Recipient
// Wrap / Unwrap" tables. Unwrap returns the file key, a constant, so its
// output is checked against the other languages'.
package main

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"filippo.io/age"
	versus "github.com/versus-bench/versus/workers/go"
)

// fileKey is the constant 16-byte file key every implementation wraps: 00 01 .. 0f.
var fileKey = func() []byte {
	k := make([]byte, 16)
	for i := range k {
		k[i] = byte(i)
	}
	return k
}()

// scryptLogN is the scrypt work factor (log2 N) of every implementation:
// 2^10, the cost the seed's 1 MB of allocations per scrypt call points to
// (128 * r * N bytes with r = 8), not the CLI's default 2^18.
const scryptLogN = 10

const passphrase = "correct horse battery staple"

type pair struct {
	r       age.Recipient
	id      age.Identity
	stanzas []*age.Stanza
}

// The matrix parameter "kind" (x25519, hybrid, scrypt) selects the key type.
func registerKeys() {
	versus.Register("keygen", func(kind string) (string, error) { return keygen(kind) },
		versus.WithSetup(setupKeygen))
	setup := func(su versus.Setup) (*pair, error) { return newPair(su.Params.String("kind", "")) }
	versus.Register("wrap", wrap, versus.WithSetup(setup))
	versus.Register("unwrap", unwrap, versus.WithSetup(setup))
}

// keygen generates one identity and returns what age-keygen writes of it:
// the identity's encoding (AGE-SECRET-KEY-1... or AGE-SECRET-KEY-PQ-1...) and
// its recipient's (age1...), a line each. The recipient is the public key,
// so every language derives it: the same work whether a library computes it
// at generation (this one does) or only when asked (the Rust crate).
func keygen(kind string) (string, error) {
	var id interface {
		String() string
	}
	var recipient string
	switch kind {
	case "x25519":
		x, err := age.GenerateX25519Identity()
		if err != nil {
			return "", err
		}
		id, recipient = x, x.Recipient().String()
	case "hybrid":
		h, err := age.GenerateHybridIdentity()
		if err != nil {
			return "", err
		}
		id, recipient = h, h.Recipient().String()
	default:
		return "", fmt.Errorf("no key generation for kind %q", kind)
	}
	return id.String() + "\n" + recipient + "\n", nil
}

// setupKeygen checks one generated key (untimed): the identity, parsed
// back, must give the recipient that keygen returned beside it.
func setupKeygen(su versus.Setup) (string, error) {
	kind := su.Params.String("kind", "")
	out, err := keygen(kind)
	if err != nil {
		return "", err
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 2 {
		return "", fmt.Errorf("keygen returned %d lines, not 2", len(lines))
	}
	ids, err := age.ParseIdentities(strings.NewReader(lines[0]))
	if err != nil {
		return "", err
	}
	var want string
	switch id := ids[0].(type) {
	case *age.X25519Identity:
		want = id.Recipient().String()
	case *age.HybridIdentity:
		want = id.Recipient().String()
	}
	if want != lines[1] {
		return "", fmt.Errorf("the %s identity's recipient is %q, keygen returned %q", kind, want, lines[1])
	}
	return kind, nil
}

// newPair makes a recipient and its identity, wraps the file key once and
// checks that it unwraps (untimed).
func newPair(kind string) (*pair, error) {
	p := &pair{}
	switch kind {
	case "x25519":
		id, err := age.GenerateX25519Identity()
		if err != nil {
			return nil, err
		}
		p.r, p.id = id.Recipient(), id
	case "hybrid":
		id, err := age.GenerateHybridIdentity()
		if err != nil {
			return nil, err
		}
		p.r, p.id = id.Recipient(), id
	case "scrypt":
		r, err := age.NewScryptRecipient(passphrase)
		if err != nil {
			return nil, err
		}
		r.SetWorkFactor(scryptLogN)
		id, err := age.NewScryptIdentity(passphrase)
		if err != nil {
			return nil, err
		}
		p.r, p.id = r, id
	default:
		return nil, fmt.Errorf("unknown kind %q", kind)
	}
	var err error
	if p.stanzas, err = p.r.Wrap(fileKey); err != nil {
		return nil, err
	}
	got, err := p.id.Unwrap(p.stanzas)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(got, fileKey) {
		return nil, errors.New("unwrap did not return the file key")
	}
	return p, nil
}

// wrap returns the stanza's body (random: not compared).
func wrap(p *pair) ([]byte, error) {
	s, err := p.r.Wrap(fileKey)
	if err != nil {
		return nil, err
	}
	return s[0].Body, nil
}

func unwrap(p *pair) ([]byte, error) { return p.id.Unwrap(p.stanzas) }
