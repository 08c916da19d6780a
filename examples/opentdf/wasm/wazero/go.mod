module github.com/versus-bench/versus/examples/opentdf/wasm/wazero

go 1.25.0

replace github.com/versus-bench/versus/workers/go => ../../../../workers/go

require (
	github.com/tetratelabs/wazero v1.12.0
	github.com/versus-bench/versus/workers/go v0.0.0-00010101000000-000000000000
)

require golang.org/x/sys v0.44.0 // indirect
