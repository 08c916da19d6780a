// Command age-bench-go is the Go side of examples/age's in-process
// microbenchmarks (age-lib.toml, age-keys.toml, age-random.toml): the
// filippo.io/age library called directly, without process start-up, served to
// versus through the versus Go worker library (which also reports the bytes
// allocated per call). The operations are in stream.go, keys.go and random.go.
//
//	age-bench-go --version   # the versions it was built with
package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"

	versus "github.com/versus-bench/versus/workers/go"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == "--version" {
		fmt.Printf("filippo.io/age %s, %s\n", ageVersion(), runtime.Version())
		return
	}
	registerStream()
	registerKeys()
	registerRandom()
	versus.Main()
}

// ageVersion is the version of filippo.io/age this binary was built with.
func ageVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, d := range info.Deps {
			if d.Path == "filippo.io/age" {
				return d.Version
			}
		}
	}
	return "unknown"
}
