package simulate

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cardsparse/cardreg/deepreg"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// divergeWhen makes the trainings for which pick is true diverge for real
// (a learning rate far too large) for the duration of the test.
func divergeWhen(t *testing.T, pick func(seed uint64, o *deepreg.Options) bool) {
	t.Helper()
	perturb = func(seed uint64, o *deepreg.Options) {
		if pick(seed, o) {
			o.LearningRate = 1e3
		}
	}
	t.Cleanup(func() { perturb = nil })
}

// column returns the named column of r's rows.
func column(t *testing.T, r *Result, name string) []string {
	t.Helper()
	j := slices.Index(r.Columns, name)
	require.GreaterOrEqual(t, j, 0, name)
	out := make([]string, len(r.Rows))
	for i, row := range r.Rows {
		out[i] = row[j]
	}
	return out
}

// summaryJSON renders r's files and returns the JSON summary decoded.
func summaryJSON(t *testing.T, r *Result) map[string]any {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, r.Save(dir))
	b, err := os.ReadFile(filepath.Join(dir, r.Name+".json"))
	require.NoError(t, err)
	var meta map[string]any
	require.NoError(t, json.Unmarshal(b, &meta))
	return meta["summary"].(map[string]any)
}

// TestRegressionRecordsDivergence: a λ whose training diverges is skipped
// and counted, and a repetition whose fits all diverge is a result: it is
// recorded (status, NA errors), left out of the means, named in the
// summary and the figure, and the run goes on with the other repetitions.
func TestRegressionRecordsDivergence(t *testing.T) {
	grid := regressionSettings(true).Lambdas
	top := grid[len(grid)-1]
	divergeWhen(t, func(seed uint64, o *deepreg.Options) bool {
		_, card := o.Penalty.(penalty.Cardinality)
		return seed == 7 && o.Lambda == top || // one λ of each penalised fit
			seed == 8 && o.Penalty == nil || // the unpenalised fit
			seed == 9 && card // every λ of the cardinality fit
	})
	r, err := RegressionVsLasso().Run(Config{Seed: 7, Seeds: 4, Quick: true})
	require.NoError(t, err, "a diverged repetition is a result, not a failure of the run")
	require.Len(t, r.Rows, 12)
	want := [][]string{ // status and diverged fits per method, seeds 7 to 10
		{statusOK, "0", statusOK, "1", statusOK, "1"},
		{statusDiverged, "1", statusExcluded, "0", statusExcluded, "0"},
		{statusExcluded, "0", statusExcluded, "0", statusDiverged, "2"},
		{statusOK, "0", statusOK, "0", statusOK, "0"},
	}
	status, nfits := column(t, r, "status"), column(t, r, "diverged_fits")
	werr := mustFloats(t, r, "weight_error_fro")
	for i := range r.Rows {
		w := want[i/3][2*(i%3):]
		assert.Equal(t, w[0], status[i], "row %d", i+1)
		assert.Equal(t, w[1], nfits[i], "row %d", i+1)
		assert.Equal(t, w[0] == statusDiverged, math.IsNaN(werr[i]), "row %d: only a diverged fit has no error", i+1)
	}
	sum := summaryJSON(t, r)
	reps := sum["repetitions"].(map[string]any)
	assert.EqualValues(t, 4, reps["run"])
	assert.EqualValues(t, 2, reps["summarised"])
	assert.EqualValues(t, 2, reps["diverged"])
	assert.Equal(t, []any{8.0, 9.0}, reps["diverged_seeds"])
	fits := reps["diverged_fits"].([]any)
	require.Len(t, fits, 2)
	assert.Equal(t, "unpenalised", fits[0].(map[string]any)["fit"])
	assert.Contains(t, fits[1].(map[string]any)["what"], "every λ of the grid diverged")
	skipped := sum["skipped_lambdas"].([]any)
	require.Len(t, skipped, 2, "seed 7's two skipped λ (seed 9's diverged fit is in repetitions)")
	for _, sk := range skipped {
		assert.EqualValues(t, 7, sk.(map[string]any)["seed"])
		assert.Contains(t, sk.(map[string]any)["what"], fmt.Sprintf("at λ = %g: ", top))
	}
	methods := sum["methods"].(map[string]any)
	for _, m := range regMethods {
		assert.EqualValues(t, 2, methods[m].(map[string]any)["weight_error_fro"].(map[string]any)["n"],
			"%s: the means are over the repetitions that did not diverge", m)
	}
	assert.EqualValues(t, 2, sum["target_norm_fro"].(map[string]any)["n"])
	assert.EqualValues(t, 1+len(grid), methods["cardinality"].(map[string]any)["diverged_fits"])
	assert.Regexp(t, " of 2$", methods["lasso"].(map[string]any)["weight_error_below_unpenalised"], "paired counts over the same repetitions")
	assert.Equal(t, "2 of 4 seeds; seeds 8, 9 diverged", (&repetitions{Run: 4, Summarised: 2, Diverged: 2, DivergedSeeds: []uint64{8, 9}}).caption())
}

// TestRegressionEveryRepetitionDiverged: a run whose repetitions all
// diverge has nothing to summarise and fails, saying so.
func TestRegressionEveryRepetitionDiverged(t *testing.T) {
	divergeWhen(t, func(uint64, *deepreg.Options) bool { return true })
	_, err := RegressionVsLasso().Run(Config{Seed: 7, Seeds: 2, Quick: true})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "every repetition diverged (2 of 2; the first: seed 7, unpenalised, epoch")
}

// TestCurvesRecordDivergence: a diverged training of one variant is
// recorded in its row, its repetition left out of the means, and the run
// goes on.
func TestCurvesRecordDivergence(t *testing.T) {
	dataDir := needData(t, "digits.csv")
	s := digitsSettings(true)
	projects := map[string]bool{}
	for _, v := range s.Variants {
		projects[v.Name] = v.ProjectK > 0
	}
	divergeWhen(t, func(seed uint64, o *deepreg.Options) bool { return seed == 8 && o.ProjectK > 0 })
	r, err := Digits().Run(Config{Seed: 7, Seeds: 2, Quick: true, DataDir: dataDir})
	require.NoError(t, err)
	seeds, variants, status := column(t, r, "seed"), column(t, r, "variant"), column(t, r, "status")
	reports := s.Epochs / s.ReportEvery
	var diverged, excluded int
	for i := range r.Rows {
		switch {
		case seeds[i] == "7":
			assert.Equal(t, statusOK, status[i])
		case projects[variants[i]]:
			assert.Equal(t, statusDiverged, status[i])
			diverged++
		default:
			assert.Equal(t, statusExcluded, status[i])
			excluded++
		}
	}
	assert.Equal(t, 2, diverged, "one row per diverged training")
	assert.Equal(t, 2*reports, excluded, "the other variants' histories are kept")
	sum := summaryJSON(t, r)
	reps := sum["repetitions"].(map[string]any)
	assert.EqualValues(t, 1, reps["summarised"])
	assert.Equal(t, []any{8.0}, reps["diverged_seeds"])
	v := sum["variants"].(map[string]any)["dense"].(map[string]any)
	assert.EqualValues(t, 1, v["final_train_accuracy"].(map[string]any)["n"])
}
