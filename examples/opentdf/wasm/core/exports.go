// The module's interface to its host (a reactor: built with
// -buildmode=c-shared, the host calls _initialize once, then these exports).
//
// Memory: the host asks for buffers with malloc and returns them with free;
// the module keeps each allocation reachable in a table until then, so Go's
// (non-moving) collector leaves it in place. A TDF operation keeps its result
// in the module until the next operation or result_free; the host reads it at
// result_ptr. Errors: an operation returns 0xFFFFFFFF and the message is at
// error_ptr / error_len.

package main

import "unsafe"

var (
	allocations = map[uint32][]byte{}
	result      []byte
	lastError   []byte
)

func main() {}

//go:wasmexport malloc
func malloc(size uint32) uint32 {
	b := make([]byte, max(size, 1))
	p := uint32(uintptr(unsafe.Pointer(&b[0])))
	allocations[p] = b
	return p
}

//go:wasmexport free
func free(p uint32) {
	delete(allocations, p)
}

// view returns the bytes of a host buffer at [p, p+n), which must lie in an
// allocation made by malloc.
func view(p, n uint32) []byte {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(uintptr(p))), n)
}

func finish(out []byte, err error) uint32 {
	if err != nil {
		result = nil
		lastError = []byte(err.Error())
		return hostError
	}
	result = out
	lastError = nil
	return uint32(len(out))
}

// tdf_encrypt writes a TDF3 archive of the plaintext, its key wrapped to the
// KAS public key (PEM). legacy=1 writes the pre-4.3.0 (4.2.2) manifest form.
//
//go:wasmexport tdf_encrypt
func tdfEncrypt(pubPtr, pubLen, urlPtr, urlLen, kidPtr, kidLen, ptPtr, ptLen, segmentSize, legacy uint32) uint32 {
	opts := encryptOptions{
		kasPublicPEM: view(pubPtr, pubLen),
		kasURL:       string(view(urlPtr, urlLen)),
		kid:          string(view(kidPtr, kidLen)),
		segmentSize:  int(segmentSize),
		legacy:       legacy != 0,
	}
	return finish(encrypt(view(ptPtr, ptLen), opts))
}

// tdf_decrypt reads a TDF3 archive, unwraps its key with the private key
// (PEM) through the host, checks the policy binding, root signature and
// every segment hash, and returns the plaintext.
//
//go:wasmexport tdf_decrypt
func tdfDecrypt(tdfPtr, tdfLen, privPtr, privLen uint32) uint32 {
	return finish(decrypt(view(tdfPtr, tdfLen), view(privPtr, privLen)))
}

// tdf_manifest returns a TDF3 archive's manifest (0.manifest.json) as
// written: what a host needs to ask a KAS for the payload key.
//
//go:wasmexport tdf_manifest
func tdfManifest(tdfPtr, tdfLen uint32) uint32 {
	return finish(readManifest(view(tdfPtr, tdfLen)))
}

// tdf_decrypt_key reads a TDF3 archive with the payload key the host got
// from a KAS rewrap (32 bytes), checks the root signature and every segment
// hash, and returns the plaintext. The KAS has checked the policy binding.
//
//go:wasmexport tdf_decrypt_key
func tdfDecryptKey(tdfPtr, tdfLen, keyPtr, keyLen uint32) uint32 {
	return finish(decryptWithKey(view(tdfPtr, tdfLen), view(keyPtr, keyLen)))
}

//go:wasmexport result_ptr
func resultPtr() uint32 {
	if len(result) == 0 {
		return 0
	}
	return uint32(uintptr(unsafe.Pointer(&result[0])))
}

//go:wasmexport result_free
func resultFree() { result = nil }

//go:wasmexport error_ptr
func errorPtr() uint32 {
	if len(lastError) == 0 {
		return 0
	}
	return uint32(uintptr(unsafe.Pointer(&lastError[0])))
}

//go:wasmexport error_len
func errorLen() uint32 { return uint32(len(lastError)) }
