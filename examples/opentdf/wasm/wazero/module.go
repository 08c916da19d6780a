// One instance of tdfcore.wasm in wazero (compiler mode) and the calling
// convention of its exports (see ../core/exports.go): copy the input in with
// malloc, call, copy the result out, free. The key PEMs and KAS URL are
// copied into the module once, when the instance is made.

package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

type config struct {
	modulePath  string
	publicPEM   []byte
	privatePEM  []byte
	kasURL      string
	kid         string
	segmentSize uint32
	legacy      bool
}

type tdfModule struct {
	ctx     context.Context
	runtime wazero.Runtime
	mod     api.Module
	cfg     config
	// buffers inside the module holding the fixed arguments
	pub, priv, url, kid [2]uint32
}

func loadModule(cfg config) (*tdfModule, error) {
	wasm, err := os.ReadFile(cfg.modulePath)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler())
	wasi_snapshot_preview1.MustInstantiate(ctx, r)
	if err := newHostCrypto().instantiate(ctx, r); err != nil {
		return nil, err
	}
	compiled, err := r.CompileModule(ctx, wasm)
	if err != nil {
		return nil, err
	}
	// A reactor (c-shared) module: _initialize runs the Go runtime's init.
	mc := wazero.NewModuleConfig().WithStartFunctions("_initialize").WithStderr(os.Stderr).WithStdout(os.Stderr)
	mod, err := r.InstantiateModule(ctx, compiled, mc)
	if err != nil {
		return nil, err
	}
	t := &tdfModule{ctx: ctx, runtime: r, mod: mod, cfg: cfg}
	for _, f := range []struct {
		dst  *[2]uint32
		data []byte
	}{{&t.pub, cfg.publicPEM}, {&t.priv, cfg.privatePEM}, {&t.url, []byte(cfg.kasURL)}, {&t.kid, []byte(cfg.kid)}} {
		if *f.dst, err = t.copyIn(f.data); err != nil {
			return nil, err
		}
	}
	return t, nil
}

func (t *tdfModule) call(name string, args ...uint64) (uint32, error) {
	res, err := t.mod.ExportedFunction(name).Call(t.ctx, args...)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	if len(res) == 0 {
		return 0, nil
	}
	return uint32(res[0]), nil
}

// copyIn allocates a buffer in the module and copies data into it.
func (t *tdfModule) copyIn(data []byte) ([2]uint32, error) {
	p, err := t.call("malloc", uint64(len(data)))
	if err != nil {
		return [2]uint32{}, err
	}
	if !t.mod.Memory().Write(p, data) {
		return [2]uint32{}, errors.New("malloc returned a buffer outside memory")
	}
	return [2]uint32{p, uint32(len(data))}, nil
}

// result copies the last operation's output out of the module, or its error.
func (t *tdfModule) result(n uint32) ([]byte, error) {
	if n == 0xFFFFFFFF {
		p, _ := t.call("error_ptr")
		l, _ := t.call("error_len")
		msg, _ := t.mod.Memory().Read(p, l)
		return nil, errors.New(string(msg))
	}
	p, err := t.call("result_ptr")
	if err != nil {
		return nil, err
	}
	view, ok := t.mod.Memory().Read(p, n)
	if !ok {
		return nil, errors.New("result outside memory")
	}
	out := append([]byte(nil), view...)
	_, err = t.call("result_free")
	return out, err
}

func (t *tdfModule) encrypt(plaintext []byte) ([]byte, error) {
	in, err := t.copyIn(plaintext)
	if err != nil {
		return nil, err
	}
	defer t.call("free", uint64(in[0]))
	legacy := uint64(0)
	if t.cfg.legacy {
		legacy = 1
	}
	n, err := t.call("tdf_encrypt", uint64(t.pub[0]), uint64(t.pub[1]), uint64(t.url[0]), uint64(t.url[1]),
		uint64(t.kid[0]), uint64(t.kid[1]), uint64(in[0]), uint64(in[1]), uint64(t.cfg.segmentSize), legacy)
	if err != nil {
		return nil, err
	}
	return t.result(n)
}

func (t *tdfModule) decrypt(tdf []byte) ([]byte, error) {
	if len(t.cfg.privatePEM) == 0 {
		return nil, errors.New("no private key given (--private)")
	}
	in, err := t.copyIn(tdf)
	if err != nil {
		return nil, err
	}
	defer t.call("free", uint64(in[0]))
	n, err := t.call("tdf_decrypt", uint64(in[0]), uint64(in[1]), uint64(t.priv[0]), uint64(t.priv[1]))
	if err != nil {
		return nil, err
	}
	return t.result(n)
}

func (t *tdfModule) close() { t.runtime.Close(t.ctx) }
