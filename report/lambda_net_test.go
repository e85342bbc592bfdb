package report

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/bounds"
	"github.com/cardsparse/cardreg/deepreg"
	"github.com/stretchr/testify/require"
)

// The λ reports print their fields as JSON (non-finite as null) and their
// rows as an aligned table; the Monte-Carlo row compares with λ.
func TestLambdaReports(t *testing.T) {
	nc := bounds.NetworkConstants{L: 1, P: 10, LayerM: []float64{0.25, 0.5}, MG: 0.5, NuMin: 2, Nu: 2, Lambda: 3, LambdaL1: math.Inf(1), C: 1}
	r := NetworkLambda(nc, NetworkInputs{ALip: 1, XNorm: 2, N: 50, Penalty: "cardinality"})
	var js, text strings.Builder
	require.NoError(t, r.Write(&js, "json"))
	var got map[string]any
	require.NoError(t, json.Unmarshal([]byte(js.String()), &got))
	require.Equal(t, 3.0, got["lambda"])
	require.Nil(t, got["lambda_l1_corollary"])
	require.NoError(t, r.Write(&text, "text"))
	require.Contains(t, text.String(), "M_G                                0.5 (per weight matrix [0.25 0.5])\n")

	rr := RegressionLambda(bounds.RegressionConstants{Lambda: 8, LambdaT: 4, S: 2, Equivalence: 2}, RegressionInputs{MG: 0.5, Nu: 0.5, Sigma: 1, T: 0.05, N: 4, P: 3})
	rr.AddMonteCarlo(9, 8, 100, 1)
	text.Reset()
	require.NoError(t, rr.Write(&text, "text"))
	require.Contains(t, text.String(), "glmnet scale 1)")
	require.Contains(t, text.String(), "ABOVE the Theorem 2 lambda")
	require.Equal(t, 100, rr.Fields["mc_draws"])
}

// The history prints in the three formats, a NaN validation figure as
// "-" (text), an empty cell (csv) or no key (json).
func TestTrainingWrite(t *testing.T) {
	nan := math.NaN()
	r := &Training{Model: &deepreg.Saved{Loss: "xent", Arch: []int{2, 3}, Penalty: "none"}, Input: "dense input",
		History: []deepreg.Epoch{{Epoch: 1, Loss: 0.5, Objective: 0.5, Metric: 0.75, ValLoss: nan, ValMetric: nan, Seconds: 0.25}}}
	var text, csv, js strings.Builder
	require.NoError(t, r.Write(&text, "text"))
	require.Contains(t, text.String(), "accuracy")
	require.Contains(t, text.String(), "dense input\n")
	require.Regexp(t, ` -\s+- `, text.String())
	require.NoError(t, r.Write(&csv, "csv"))
	require.Equal(t, "epoch,loss,penalty,objective,accuracy,val_loss,val_accuracy,seconds\n1,0.5,0,0.5,0.75,,,0.25\n", csv.String())
	require.NoError(t, r.Write(&js, "json"))
	var got struct{ History []map[string]float64 }
	require.NoError(t, json.Unmarshal([]byte(js.String()), &got))
	require.NotContains(t, got.History[0], "val_loss")
	require.Equal(t, 0.75, got.History[0]["accuracy"])
}
