module github.com/versus-bench/versus/examples/opentdf/kas

go 1.25.0

require (
	connectrpc.com/connect v1.20.0
	github.com/opentdf/platform/protocol/go v0.42.0
	google.golang.org/protobuf v1.36.11
)

require (
	golang.org/x/net v0.58.0 // indirect
	golang.org/x/sys v0.47.0 // indirect
	golang.org/x/text v0.41.0 // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20260526163538-3dc84a4a5aaa // indirect
	google.golang.org/grpc v1.83.2 // indirect
)
