package jsonx

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// DecodeStrict refuses what encoding/json lets through: duplicated keys
// at any depth, unknown fields, required keys missing or null, trailing
// data.
func TestDecodeStrict(t *testing.T) {
	type v struct {
		A int   `json:"a"`
		B []int `json:"b"`
		C struct {
			D int `json:"d"`
		} `json:"c"`
	}
	var out v
	require.NoError(t, DecodeStrict([]byte(`{"a":1,"b":[2],"c":{"d":3}}`), &out, "a", "b"))
	require.Equal(t, 3, out.C.D)
	for raw, want := range map[string]string{
		`{"a":1,"a":2}`:               `key "a" appears twice in $`,
		`{"c":{"d":1,"d":2}}`:         `key "d" appears twice in $.c`,
		`{"a":1,"e":2}`:               "unknown field",
		`{"b":[1]}`:                   `field "a" is missing`,
		`{"a":null}`:                  `field "a" is null`,
		`{"a":1} {"a":2}`:             "data after the JSON object",
		`{"a":1,"b":[{"x":1,"x":2}]}`: `key "x" appears twice in $.b[0]`,
	} {
		require.ErrorContains(t, DecodeStrict([]byte(raw), &out, "a"), want, raw)
	}
}

// TextError says when the text is no JSON at all: empty, or cut short.
func TestTextError(t *testing.T) {
	var x any
	for raw, want := range map[string]string{
		"  ":         "is empty, not JSON",
		`{"a": [1,2`: "is not complete JSON (truncated?)",
		`{"a" 1}`:    "is not valid JSON at byte",
	} {
		err := json.Unmarshal([]byte(raw), &x)
		require.ErrorContains(t, TextError([]byte(raw), err), want, raw)
	}
	other := os.ErrNotExist
	require.Equal(t, other, TextError(nil, other))
}

// ReadFile drops a UTF-8 byte order mark.
func TestReadFileDropsBOM(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.json")
	require.NoError(t, os.WriteFile(path, []byte("\xEF\xBB\xBF{}"), 0o644))
	b, err := ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "{}", string(b))
}
