module github.com/versus-bench/versus/workers/go

go 1.22
