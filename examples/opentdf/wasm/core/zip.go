// The ZIP container of a TDF3 file, by hand rather than archive/zip: entries
// are stored (no compression), written in one pass into a buffer sized up
// front, so the payload is encrypted straight into its final place and
// nothing is copied twice. Plain ZIP32 (archives up to 4 GiB, far beyond a
// 32-bit WebAssembly memory's practical limit), no data descriptors, no
// comment; the reader accepts what this writer and ordinary tools produce.

package main

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
)

const (
	localHeaderSize   = 30
	centralHeaderSize = 46
	endRecordSize     = 22
	zipVersion        = 20
	// 1980-01-01 00:00, the DOS epoch: archives do not depend on the clock.
	dosDate = 0x21
	dosTime = 0
)

type zipEntry struct {
	name   string
	offset uint32
	size   uint32
	crc    uint32
}

type zipWriter struct {
	buf     []byte
	entries []zipEntry
}

// begin reserves the local header of a new entry; data follows at len(buf).
func (z *zipWriter) begin(name string) {
	z.entries = append(z.entries, zipEntry{name: name, offset: uint32(len(z.buf))})
	z.buf = append(z.buf, make([]byte, localHeaderSize)...)
	z.buf = append(z.buf, name...)
}

// end fills in the local header of the current entry once its data is in buf.
func (z *zipWriter) end(crc uint32) {
	e := &z.entries[len(z.entries)-1]
	dataStart := e.offset + localHeaderSize + uint32(len(e.name))
	e.size = uint32(len(z.buf)) - dataStart
	e.crc = crc
	h := z.buf[e.offset:]
	binary.LittleEndian.PutUint32(h[0:], 0x04034b50)
	binary.LittleEndian.PutUint16(h[4:], zipVersion)
	binary.LittleEndian.PutUint16(h[6:], 0) // flags
	binary.LittleEndian.PutUint16(h[8:], 0) // stored
	binary.LittleEndian.PutUint16(h[10:], dosTime)
	binary.LittleEndian.PutUint16(h[12:], dosDate)
	binary.LittleEndian.PutUint32(h[14:], e.crc)
	binary.LittleEndian.PutUint32(h[18:], e.size)
	binary.LittleEndian.PutUint32(h[22:], e.size)
	binary.LittleEndian.PutUint16(h[26:], uint16(len(e.name)))
	binary.LittleEndian.PutUint16(h[28:], 0)
}

func (z *zipWriter) add(name string, data []byte) {
	z.begin(name)
	z.buf = append(z.buf, data...)
	z.end(crc32.ChecksumIEEE(data))
}

// close appends the central directory and the end record.
func (z *zipWriter) close() []byte {
	cdStart := uint32(len(z.buf))
	for _, e := range z.entries {
		var h [centralHeaderSize]byte
		binary.LittleEndian.PutUint32(h[0:], 0x02014b50)
		binary.LittleEndian.PutUint16(h[4:], zipVersion)
		binary.LittleEndian.PutUint16(h[6:], zipVersion)
		binary.LittleEndian.PutUint16(h[12:], dosTime)
		binary.LittleEndian.PutUint16(h[14:], dosDate)
		binary.LittleEndian.PutUint32(h[16:], e.crc)
		binary.LittleEndian.PutUint32(h[20:], e.size)
		binary.LittleEndian.PutUint32(h[24:], e.size)
		binary.LittleEndian.PutUint16(h[28:], uint16(len(e.name)))
		binary.LittleEndian.PutUint32(h[42:], e.offset)
		z.buf = append(z.buf, h[:]...)
		z.buf = append(z.buf, e.name...)
	}
	var end [endRecordSize]byte
	binary.LittleEndian.PutUint32(end[0:], 0x06054b50)
	binary.LittleEndian.PutUint16(end[8:], uint16(len(z.entries)))
	binary.LittleEndian.PutUint16(end[10:], uint16(len(z.entries)))
	binary.LittleEndian.PutUint32(end[12:], uint32(len(z.buf))-cdStart)
	binary.LittleEndian.PutUint32(end[16:], cdStart)
	z.buf = append(z.buf, end[:]...)
	return z.buf
}

// zipEntries maps each stored entry's name to its bytes (slices of archive).
func zipEntries(archive []byte) (map[string][]byte, error) {
	bad := errors.New("not a ZIP archive this module can read")
	// The end record sits at the very end, unless the archive has a comment.
	endAt := -1
	for i := len(archive) - endRecordSize; i >= 0 && i >= len(archive)-endRecordSize-0xFFFF; i-- {
		if binary.LittleEndian.Uint32(archive[i:]) == 0x06054b50 {
			endAt = i
			break
		}
	}
	if endAt < 0 {
		return nil, bad
	}
	count := int(binary.LittleEndian.Uint16(archive[endAt+10:]))
	at := int(binary.LittleEndian.Uint32(archive[endAt+16:]))
	entries := make(map[string][]byte, count)
	for i := 0; i < count; i++ {
		if at+centralHeaderSize > len(archive) || binary.LittleEndian.Uint32(archive[at:]) != 0x02014b50 {
			return nil, bad
		}
		h := archive[at:]
		if binary.LittleEndian.Uint16(h[10:]) != 0 {
			return nil, errors.New("compressed ZIP entry (TDF entries are stored)")
		}
		size := binary.LittleEndian.Uint32(h[20:])
		nameLen := int(binary.LittleEndian.Uint16(h[28:]))
		extraLen := int(binary.LittleEndian.Uint16(h[30:]))
		commentLen := int(binary.LittleEndian.Uint16(h[32:]))
		local := int(binary.LittleEndian.Uint32(h[42:]))
		if size == 0xFFFFFFFF || local == 0xFFFFFFFF {
			return nil, errors.New("ZIP64 archives are not supported by this module")
		}
		name := string(archive[at+centralHeaderSize : at+centralHeaderSize+nameLen])
		at += centralHeaderSize + nameLen + extraLen + commentLen
		if local+localHeaderSize > len(archive) {
			return nil, bad
		}
		lh := archive[local:]
		dataAt := local + localHeaderSize + int(binary.LittleEndian.Uint16(lh[26:])) + int(binary.LittleEndian.Uint16(lh[28:]))
		if dataAt+int(size) > len(archive) {
			return nil, bad
		}
		entries[name] = archive[dataAt : dataAt+int(size)]
	}
	return entries, nil
}
