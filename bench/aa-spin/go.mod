module aa-spin

go 1.22

require github.com/versus-bench/versus/workers/go v0.0.0

replace github.com/versus-bench/versus/workers/go => ../../workers/go
