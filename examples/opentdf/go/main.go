// Command opentdf-go is the Go side of examples/opentdf: the in-process
// versus worker for the OpenTDF Go SDK (github.com/opentdf/platform/sdk),
// as two implementations, and the suite's payload generator.
//
//	opentdf-go worker go-sdk    --kas-url URL --state DIR   (started by versus)
//	opentdf-go worker go-writer --kas-url URL --state DIR   (started by versus)
//	opentdf-go payload --size SIZE --out FILE --state DIR
//	opentdf-go version
//
// go-sdk encrypts with CreateTDF and decrypts with LoadTDF, whose rewrap goes
// to the suite's key-access service (kas/) over the network; go-writer
// encrypts with the SDK's experimental segment writer, segments in parallel.
// The payload generator writes the cell's plaintext and, beside it, the Go
// SDK's TDF of it (FILE.go-sdk.tdf) that every implementation's
// decrypt-go-tdf operation decrypts: the cross-SDK check.
package main

import (
	"fmt"
	"os"
	"runtime/debug"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "worker":
		if len(os.Args) < 3 {
			usage()
		}
		err = runWorker(os.Args[2], os.Args[3:])
	case "payload":
		err = runPayload(os.Args[2:])
	case "version", "--version":
		fmt.Println(version())
		return
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "opentdf-go:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: opentdf-go worker go-sdk|go-writer --kas-url URL --state DIR\n"+
		"       opentdf-go payload --size SIZE --out FILE --state DIR\n"+
		"       opentdf-go version")
	os.Exit(2)
}

// version names the SDK module version this binary was built with.
func version() string {
	v := "unknown"
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "github.com/opentdf/platform/sdk" {
				v = dep.Version
			}
		}
		return fmt.Sprintf("github.com/opentdf/platform/sdk %s (%s)", v, info.GoVersion)
	}
	return v
}
