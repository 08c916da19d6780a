// Encrypting and decrypting a whole payload held in memory, binary or
// ASCII-armored (the matrix parameter "armor"), to one X25519 recipient:
// what the seed's BenchmarkDotNet "Encrypt / Decrypt" table timed.
package main

import (
	"bytes"
	"errors"
	"io"
	"os"

	"filippo.io/age"
	"filippo.io/age/armor"
	versus "github.com/versus-bench/versus/workers/go"
)

type streamState struct {
	data     []byte // the payload (encrypt) or its ciphertext (decrypt)
	armored  bool
	identity *age.X25519Identity
}

func registerStream() {
	versus.Register("encrypt", func(s *streamState) ([]byte, error) { return encrypt(s.data, s.armored, s.identity.Recipient()) },
		versus.WithSetup(func(su versus.Setup) (*streamState, error) { return newStreamState(su, false) }))
	versus.Register("decrypt", func(s *streamState) ([]byte, error) { return decrypt(s.data, s.identity) },
		versus.WithSetup(func(su versus.Setup) (*streamState, error) { return newStreamState(su, true) }))
}

// newStreamState reads the payload, makes a key pair and checks one round
// trip (untimed); for decrypt it keeps the ciphertext instead of the payload.
func newStreamState(su versus.Setup, forDecrypt bool) (*streamState, error) {
	armored, err := su.Params.Bool("armor", false)
	if err != nil {
		return nil, err
	}
	payload, err := os.ReadFile(su.Input)
	if err != nil {
		return nil, err
	}
	id, err := age.GenerateX25519Identity()
	if err != nil {
		return nil, err
	}
	ct, err := encrypt(payload, armored, id.Recipient())
	if err != nil {
		return nil, err
	}
	pt, err := decrypt(ct, id)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(pt, payload) {
		return nil, errors.New("round trip did not restore the payload")
	}
	if forDecrypt {
		return &streamState{ct, armored, id}, nil
	}
	return &streamState{payload, armored, id}, nil
}

func encrypt(payload []byte, armored bool, r age.Recipient) ([]byte, error) {
	var out bytes.Buffer
	var dst io.Writer = &out
	var aw io.WriteCloser
	if armored {
		aw = armor.NewWriter(&out)
		dst = aw
	}
	w, err := age.Encrypt(dst, r)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(payload); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	if aw != nil {
		if err := aw.Close(); err != nil {
			return nil, err
		}
	}
	return out.Bytes(), nil
}

// decrypt detects armor as the age CLI does (by the PEM-style first line).
func decrypt(ct []byte, id age.Identity) ([]byte, error) {
	var src io.Reader = bytes.NewReader(ct)
	if bytes.HasPrefix(ct, []byte(armor.Header)) {
		src = armor.NewReader(src)
	}
	r, err := age.Decrypt(src, id)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}
