package versus

import (
	"encoding/json"
	"testing"
)

func TestParams(t *testing.T) {
	p := Params{
		"micros": json.Number("2000"),
		"ratio":  json.Number("0.5"),
		"size":   "1024",
		"armor":  true,
		"flag":   "false",
		"name":   "fast",
	}
	if n, err := p.Int("micros", 100); err != nil || n != 2000 {
		t.Errorf("Int micros: %d, %v", n, err)
	}
	if n, err := p.Int("size", 0); err != nil || n != 1024 {
		t.Errorf("Int of a numeric string: %d, %v", n, err)
	}
	if n, err := p.Int("absent", 100); err != nil || n != 100 {
		t.Errorf("Int default: %d, %v", n, err)
	}
	if f, err := p.Float("ratio", 0); err != nil || f != 0.5 {
		t.Errorf("Float: %v, %v", f, err)
	}
	if b, err := p.Bool("armor", false); err != nil || !b {
		t.Errorf("Bool: %v, %v", b, err)
	}
	if b, err := p.Bool("flag", true); err != nil || b {
		t.Errorf("Bool of a string: %v, %v", b, err)
	}
	for name, want := range map[string]string{"micros": "2000", "ratio": "0.5", "armor": "true", "name": "fast", "absent": "dflt"} {
		if got := p.String(name, "dflt"); got != want {
			t.Errorf("String(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestParamsWrongType(t *testing.T) {
	p := Params{"ratio": json.Number("0.5"), "name": "fast", "armor": true}
	if _, err := p.Int("ratio", 0); err == nil {
		t.Error("Int of 0.5 must fail")
	}
	if _, err := p.Int("name", 0); err == nil {
		t.Error("Int of a word must fail")
	}
	if _, err := p.Float("armor", 0); err == nil {
		t.Error("Float of a bool must fail")
	}
	if _, err := p.Bool("ratio", false); err == nil {
		t.Error("Bool of a number must fail")
	}
}
