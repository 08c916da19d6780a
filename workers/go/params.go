package versus

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Params are a cell's matrix parameters as the core sent them: each value is
// a string, a bool, or a json.Number (kept exact, so large integers survive).
// The accessors convert a value and fall back to a default when the
// parameter is absent.
type Params map[string]any

// String returns the parameter as text: strings as they are, numbers as
// written by the core, bools as "true" or "false".
func (p Params) String(name, fallback string) string {
	switch v := p[name].(type) {
	case nil:
		return fallback
	case string:
		return v
	case json.Number:
		return v.String()
	default:
		return fmt.Sprint(v)
	}
}

// Int returns the parameter as an integer; a string holding an integer is
// accepted too.
func (p Params) Int(name string, fallback int64) (int64, error) {
	switch v := p[name].(type) {
	case nil:
		return fallback, nil
	case json.Number:
		if n, err := v.Int64(); err == nil {
			return n, nil
		}
	case string:
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			return n, nil
		}
	}
	return 0, p.wrongType(name, "an integer")
}

// Float returns the parameter as a number; a string holding a number is
// accepted too.
func (p Params) Float(name string, fallback float64) (float64, error) {
	switch v := p[name].(type) {
	case nil:
		return fallback, nil
	case json.Number:
		if f, err := v.Float64(); err == nil {
			return f, nil
		}
	case string:
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return f, nil
		}
	}
	return 0, p.wrongType(name, "a number")
}

// Bool returns the parameter as a bool; the strings "true" and "false" (and
// the other spellings strconv.ParseBool knows) are accepted too.
func (p Params) Bool(name string, fallback bool) (bool, error) {
	switch v := p[name].(type) {
	case nil:
		return fallback, nil
	case bool:
		return v, nil
	case string:
		if b, err := strconv.ParseBool(v); err == nil {
			return b, nil
		}
	}
	return false, p.wrongType(name, "a bool")
}

func (p Params) wrongType(name, want string) error {
	return fmt.Errorf("parameter %q is %s, expected %s", name, jsonText(p[name]), want)
}

// jsonText shows a parameter value the way the core wrote it.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
