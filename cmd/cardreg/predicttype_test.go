package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPredictNetworkType: predict --type class (or link) on a network
// model printed the network's fitted values under the header of a class,
// exit 0: a network takes no --type, which is now a usage error saying
// what it predicts; --type class on a gaussian model is one too (exit 2).
func TestPredictNetworkType(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("x1,x2,y\n")
	for i := range 40 {
		fmt.Fprintf(&b, "%d,%d,%d\n", i%7, i%5, (i%7)*2-(i%5))
	}
	file := writeFile(t, dir, "d.csv", b.String())
	model := filepath.Join(dir, "net.json")
	res := cardreg(t, "net", "--arch", "2,3,1", "--epochs", "5", "--lr", "0.01", "--standardize", "--save-model", model, file)
	require.Equal(t, 0, res.code, res.stderr)
	for _, typ := range []string{"class", "link", "response"} {
		oneLine(t, cardreg(t, "predict", "--model", model, "--type", typ, file), 2, "--type is for models saved by cardreg fit: "+model+" is a network (cardreg net)")
	}
	res = cardreg(t, "predict", "--model", model, file)
	require.Equal(t, 0, res.code, res.stderr)
	require.Equal(t, 41, strings.Count(res.stdout, "\n"))

	linear := filepath.Join(dir, "linear.json")
	require.Equal(t, 0, cardreg(t, "fit", "--lambda", "1", "--save-model", linear, file).code)
	oneLine(t, cardreg(t, "predict", "--model", linear, "--type", "class", file), 2, "--type class is for binomial models; this one is gaussian")
}
