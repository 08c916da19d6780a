package hashbench

import (
	"crypto/sha256"
	"fmt"
	"testing"
)

func BenchmarkSha256(b *testing.B) {
	for _, size := range []int{64, 1024} {
		data := make([]byte, size)
		b.Run(fmt.Sprintf("size=%d", size), func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				sha256.Sum256(data)
			}
		})
	}
}

func BenchmarkConcat(b *testing.B) {
	for i := 0; i < b.N; i++ {
		_ = fmt.Sprint("a", i)
	}
}
