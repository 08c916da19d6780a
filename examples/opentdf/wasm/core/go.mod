module github.com/versus-bench/versus/examples/opentdf/wasm/core

go 1.24
