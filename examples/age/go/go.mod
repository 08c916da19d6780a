module versus.example/age-bench

go 1.25.0

require (
	filippo.io/age v1.3.2
	github.com/versus-bench/versus/workers/go v0.0.0
)

require (
	filippo.io/hpke v0.4.0 // indirect
	golang.org/x/crypto v0.55.0 // indirect
	golang.org/x/sys v0.47.0 // indirect
)

replace github.com/versus-bench/versus/workers/go => ../../../workers/go
