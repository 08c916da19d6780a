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
		versus.WithSetup(func(su versus.Setup) (string, error) { return su.Params.String("kind", ""), nil }))
	setup := func(su versus.Setup) (*pair, error) { return newPair(su.Params.String("kind", "")) }
	versus.Register("wrap", wrap, versus.WithSetup(setup))
	versus.Register("unwrap", unwrap, versus.WithSetup(setup))
}

// keygen generates one identity and returns its encoding (AGE-SECRET-KEY-1...).
func keygen(kind string) (string, error) {
	switch kind {
	case "x25519":
		id, err := age.GenerateX25519Identity()
		if err != nil {
			return "", err
		}
		return id.String(), nil
	case "hybrid":
		id, err := age.GenerateHybridIdentity()
		if err != nil {
			return "", err
		}
		return id.String(), nil
	}
	return "", fmt.Errorf("no key generation for kind %q", kind)
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
