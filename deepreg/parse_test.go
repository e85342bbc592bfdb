package deepreg

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// ParseSaved reads back what SetNetwork recorded, and refuses another
// format, an unknown key and shapes that do not match.
func TestParseSaved(t *testing.T) {
	net, err := New([]int{3, 2, 1}, []Activation{ReLU{}}, true, 1)
	require.NoError(t, err)
	s := &Saved{Format: SavedFormat, Version: SavedVersion, Target: "y", Loss: "squared", Penalty: "none", Names: []string{"a", "b", "c"}}
	s.SetNetwork(net)
	raw, err := json.Marshal(s)
	require.NoError(t, err)
	got, back, err := ParseSaved(raw)
	require.NoError(t, err)
	require.Equal(t, s.Weights, got.Weights)
	require.Equal(t, net.Arch(), back.Arch())

	other := *s
	other.Version = 99
	raw, _ = json.Marshal(&other)
	_, _, err = ParseSaved(raw)
	require.ErrorContains(t, err, "version 99, this cardreg reads")
	_, _, err = ParseSaved([]byte(`{"format":"cardreg-network","extra":1}`))
	require.ErrorContains(t, err, "corrupted cardreg network")
	other = *s
	other.Names = []string{"a"}
	raw, _ = json.Marshal(&other)
	_, _, err = ParseSaved(raw)
	require.ErrorContains(t, err, "corrupted cardreg network")
}
