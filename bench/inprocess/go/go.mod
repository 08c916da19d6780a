module inprocessbench

go 1.24

require github.com/versus-bench/versus/workers/go v0.0.0

// The worker library from this checkout (it has no dependencies of its own).
replace github.com/versus-bench/versus/workers/go => ../../../workers/go
