// The KAS's routes: the Connect/gRPC handler generated from the platform's
// protocol module, and the REST paths of the platform's gateway, both
// answering from the same three methods.
package main

import (
	"context"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net/http"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/opentdf/platform/protocol/go/kas"
	"github.com/opentdf/platform/protocol/go/kas/kasconnect"
)

// service implements kasconnect.AccessServiceHandler.
type service struct {
	key         *rsa.PrivateKey
	publicPEM   string
	logRequests bool
}

var _ kasconnect.AccessServiceHandler = (*service)(nil)

// The gateway's JSON: lowerCamelCase names, unpopulated fields included.
var (
	restMarshal   = protojson.MarshalOptions{EmitUnpopulated: true}
	restUnmarshal = protojson.UnmarshalOptions{DiscardUnknown: true}
)

func (s *service) routes() http.Handler {
	mux := http.NewServeMux()
	path, handler := kasconnect.NewAccessServiceHandler(s)
	mux.Handle(path, s.logged(handler))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"status":"SERVING"}`)
	})
	mux.Handle("GET /kas/v2/kas_public_key", s.logged(http.HandlerFunc(s.restPublicKey)))
	mux.Handle("GET /kas/kas_public_key", s.logged(http.HandlerFunc(s.restLegacyPublicKey)))
	mux.Handle("POST /kas/v2/rewrap", s.logged(http.HandlerFunc(s.restRewrap)))
	mux.Handle("/", s.logged(http.NotFoundHandler()))
	return mux
}

// logged logs each request's method and path (once per request, after it).
func (s *service) logged(h http.Handler) http.Handler {
	if !s.logRequests {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(rec, r)
		log.Printf("%s %s %s -> %d", r.Proto, r.Method, r.URL.Path, rec.status)
	})
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

// Flush keeps streaming (gRPC) responses working through the recorder.
func (r *statusRecorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// --- the three methods, shared by Connect/gRPC and REST ---------------------

func (s *service) publicKey(req *kas.PublicKeyRequest) (*kas.PublicKeyResponse, error) {
	if alg := req.GetAlgorithm(); alg != "" && alg != keyAlgorithm {
		return nil, connect.NewError(connect.CodeNotFound, errors.New("this KAS has only an "+keyAlgorithm+" key, not "+alg))
	}
	return &kas.PublicKeyResponse{PublicKey: s.publicPEM, Kid: keyID}, nil
}

func (s *service) PublicKey(_ context.Context, req *connect.Request[kas.PublicKeyRequest]) (*connect.Response[kas.PublicKeyResponse], error) {
	resp, err := s.publicKey(req.Msg)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(resp), nil
}

func (s *service) LegacyPublicKey(_ context.Context, _ *connect.Request[kas.LegacyPublicKeyRequest]) (*connect.Response[wrapperspb.StringValue], error) {
	return connect.NewResponse(wrapperspb.String(s.publicPEM)), nil
}

func (s *service) Rewrap(_ context.Context, req *connect.Request[kas.RewrapRequest]) (*connect.Response[kas.RewrapResponse], error) {
	resp, err := s.rewrap(req.Msg)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(resp), nil
}

// --- REST -------------------------------------------------------------------

func (s *service) restPublicKey(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	resp, err := s.publicKey(&kas.PublicKeyRequest{Algorithm: q.Get("algorithm"), Fmt: q.Get("fmt"), V: q.Get("v")})
	writeREST(w, resp, err)
}

func (s *service) restLegacyPublicKey(w http.ResponseWriter, _ *http.Request) {
	writeREST(w, wrapperspb.String(s.publicPEM), nil)
}

func (s *service) restRewrap(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 16<<20))
	if err != nil {
		writeREST(w, nil, connect.NewError(connect.CodeInvalidArgument, err))
		return
	}
	var req kas.RewrapRequest
	if err := restUnmarshal.Unmarshal(body, &req); err != nil {
		writeREST(w, nil, connect.NewError(connect.CodeInvalidArgument, errors.New("rewrap body is not a RewrapRequest: "+err.Error())))
		return
	}
	resp, err := s.rewrap(&req)
	writeREST(w, resp, err)
}

// writeREST answers as the platform's gateway does: the message as JSON, or
// {"code", "message"} with the HTTP status of the Connect error code.
func writeREST(w http.ResponseWriter, msg proto.Message, err error) {
	w.Header().Set("Content-Type", "application/json")
	if err != nil {
		code := connect.CodeOf(err)
		w.WriteHeader(httpStatus(code))
		_ = json.NewEncoder(w).Encode(map[string]any{"code": int(code), "message": err.Error()})
		return
	}
	out, err := restMarshal.Marshal(msg)
	if err != nil {
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	_, _ = w.Write(out)
}

func httpStatus(code connect.Code) int {
	switch code {
	case connect.CodeInvalidArgument:
		return http.StatusBadRequest
	case connect.CodeNotFound:
		return http.StatusNotFound
	case connect.CodePermissionDenied:
		return http.StatusForbidden
	case connect.CodeUnauthenticated:
		return http.StatusUnauthorized
	default:
		return http.StatusInternalServerError
	}
}
