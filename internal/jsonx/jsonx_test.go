package jsonx

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMarshalFinite: every kind of value encodes as encoding/json encodes
// it, with null for each non-finite number; omitempty and tags hold.
func TestMarshalFinite(t *testing.T) {
	type inner struct {
		A float64 `json:"a"`
		B []float64
		C *float64 `json:"c,omitempty"`
		D []string `json:"d,omitempty"`
		e float64
	}
	v := struct {
		X  inner            `json:"x"`
		M  map[string]any   `json:"m"`
		P  *inner           `json:"p"`
		S  string           `json:"s,omitempty"`
		F  float32          `json:"f"`
		MM map[string]inner `json:"mm,omitempty"`
	}{X: inner{A: math.Inf(1), B: []float64{1, math.NaN(), 2.5}, e: math.NaN()}, M: map[string]any{"k": math.Inf(-1), "<": 1.5}, F: 0.1}
	b, err := MarshalFinite(v)
	require.NoError(t, err)
	require.JSONEq(t, `{"x":{"a":null,"B":[1,null,2.5]},"m":{"k":null,"<":1.5},"p":null,"f":0.1}`, string(b))
	v.X.A, v.X.B, v.M = 3, []float64{1}, map[string]any{"<": 1.5}
	b, err = MarshalFinite(v)
	require.NoError(t, err)
	want, err := json.Marshal(v)
	require.NoError(t, err)
	require.Equal(t, string(want), string(b))
}

// Write indents, keeps HTML characters and writes a non-finite number as
// null.
func TestWrite(t *testing.T) {
	var b strings.Builder
	require.NoError(t, Write(&b, map[string]any{"a<b": math.NaN(), "x": []float64{1, math.Inf(1)}}))
	require.Equal(t, "{\n  \"a<b\": null,\n  \"x\": [\n    1,\n    null\n  ]\n}\n", b.String())
}
