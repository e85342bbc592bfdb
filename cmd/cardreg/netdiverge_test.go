package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// A step too large for the data ends in one line and exit 1, and no
// model, whatever form the divergence takes: every ReLU unit dead (the
// constant network with a flat, finite loss was saved with exit 0), a loss
// that explodes without reaching infinity, with plain or Adam steps, with
// or without a penalty, squared or cross-entropy loss.
func TestNetDivergenceIsAnError(t *testing.T) {
	dir := t.TempDir()
	data := writeClasses(t, dir)
	model := filepath.Join(dir, "net.json")
	for name, args := range map[string][]string{
		"relu dies":          {"--arch", "3,4,1", "--lr", "0.3"},
		"relu, huge step":    {"--arch", "3,4,1", "--lr", "100"},
		"relu, mini-batch":   {"--arch", "3,4,1", "--lr", "0.5", "--batch", "10"},
		"relu, every 20":     {"--arch", "3,4,1", "--lr", "0.3", "--every", "20"},
		"leaky-relu":         {"--arch", "3,4,1", "--lr", "1", "--activation", "leaky-relu"},
		"tanh":               {"--arch", "3,4,1", "--lr", "1", "--activation", "tanh"},
		"arctan, two layers": {"--arch", "3,4,4,1", "--lr", "1", "--activation", "arctan"},
		"adam":               {"--arch", "3,8,1", "--lr", "100", "--adam"},
		"lasso":              {"--arch", "3,4,1", "--lr", "0.3", "--penalty", "lasso", "--lambda", "0.01"},
		"cardinality, bias":  {"--arch", "3,4,1", "--lr", "0.3", "--penalty", "cardinality", "--lambda", "0.01", "--bias", "--project-k", "2"},
		"xent":               {"--arch", "3,4,2", "--lr", "100", "--loss", "xent"},
		"xent, tanh":         {"--arch", "3,4,2", "--lr", "100", "--loss", "xent", "--activation", "tanh"},
	} {
		t.Run(name, func(t *testing.T) {
			args := append([]string{"net", "--epochs", "60", "--save-model", model}, args...)
			res := cardreg(t, append(args, data)...)
			oneLine(t, res, 1, "classes.csv: ", "diverged at epoch", "at the start", "lower --lr", "the model was not saved")
			_, err := os.Stat(model)
			require.ErrorIs(t, err, os.ErrNotExist, "no model saved")
		})
	}
}

// The same data at a small step, and the settings of the other net tests,
// train as before: the divergence tests do not flag a sound training.
func TestNetSmallStepNotFlagged(t *testing.T) {
	dir := t.TempDir()
	data := writeClasses(t, dir)
	for _, args := range [][]string{
		{"--arch", "3,4,1", "--lr", "0.01", "--epochs", "300"},
		{"--arch", "3,4,1", "--lr", "0.1", "--epochs", "300", "--standardize", "--bias"},
		{"--arch", "3,8,2", "--loss", "xent", "--lr", "0.5", "--epochs", "300", "--bias", "--standardize"},
		{"--arch", "3,8,1", "--adam", "--lr", "0.05", "--epochs", "300", "--activation", "tanh", "--bias"},
	} {
		res := cardreg(t, append(append([]string{"net"}, args...), data)...)
		require.Equal(t, 0, res.code, "%v: %s", args, res.stderr)
	}
}
