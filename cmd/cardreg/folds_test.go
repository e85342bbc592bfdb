package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFoldsAdviceWorks: cv on 2 rows said "use --folds 2 or fewer", and
// --folds 2 was then refused (at least 3). The advice now comes from
// estimator.MaxFolds: on every route and in fit and cv, too few rows are
// said to be too few, and a number of folds suggested is one the command
// then takes.
func TestFoldsAdviceWorks(t *testing.T) {
	dir := t.TempDir()
	suggested := regexp.MustCompile(`use --folds (\d+) or fewer`)
	for _, n := range []int{2, 3, 4} {
		var b strings.Builder
		b.WriteString("x,k,y\n")
		for i := range n {
			fmt.Fprintf(&b, "%d,%d,%d\n", i+1, i%2+1, (i*7)%5+1)
		}
		file := writeFile(t, dir, fmt.Sprintf("rows%d.csv", n), b.String())
		for _, args := range [][]string{
			{"cv", "--drop", "k"},
			{"fit", "--drop", "k"},
			{"cv", "--drop", "k", "--stream"},
			{"cv", "--drop", "k", "--family", "poisson", "--stream"},
			{"fit", "--drop", "k", "--family", "poisson"},
		} {
			res := cardreg(t, append(args, file)...)
			require.Equal(t, 1, res.code, "%v: %s", args, res.stderr)
			m := suggested.FindStringSubmatch(res.stderr)
			if n < 3 {
				require.Nil(t, m, res.stderr)
				require.Contains(t, res.stderr, fmt.Sprintf("%d observations are too few to cross-validate (3 at least, one per fold)", n))
				continue
			}
			require.NotNil(t, m, res.stderr)
			res = cardreg(t, append(append(args, "--folds", m[1], "--nlambda", "5"), file)...)
			if args[0] == "fit" {
				res = cardreg(t, append(append(args, "--folds", m[1]), file)...)
			}
			require.Equal(t, 0, res.code, "%v --folds %s: %s", args, m[1], res.stderr)
		}
		// The other way out said, a fit without folds, works on 2 rows too.
		for _, args := range [][]string{{"fit", "--lambda", "aic"}, {"fit", "--lambda", "1"}, {"path", "--nlambda", "5"}} {
			res := cardreg(t, append(append(args, "--drop", "k"), file)...)
			require.Equal(t, 0, res.code, "%v: %s", args, res.stderr)
		}
	}
}

// TestFoldIDNotCheckedAgainstFolds: with --foldid the folds are the
// column's, but streamed gaussian statistics still checked --folds' 10
// against the rows ("10 folds for 5 observations: use --folds 5").
func TestFoldIDNotCheckedAgainstFolds(t *testing.T) {
	file := writeFile(t, t.TempDir(), "k.csv", "x,k,y\n1,1,2\n2,2,5\n3,3,1\n4,1,4\n5,2,3\n6,3,3\n")
	for _, route := range [][]string{nil, {"--stream"}, {"--family", "poisson"}} {
		res := cardreg(t, append(append([]string{"cv", "--foldid", "k", "--nlambda", "5"}, route...), file)...)
		require.Equal(t, 0, res.code, "%v: %s", route, res.stderr)
	}
}

// TestEmptyFoldAdvice: a fold of the statistics with no weight said "use
// fewer folds", also when --foldid (which refuses --folds) left a fold
// number out. The advice now names what chose the folds.
func TestEmptyFoldAdvice(t *testing.T) {
	dir := t.TempDir()
	gap := writeFile(t, dir, "gap.csv", "x,k,y\n1,1,2\n2,3,5\n3,4,1\n4,1,4\n5,3,3\n6,4,3\n")
	res := cardreg(t, "cv", "--foldid", "k", "--nlambda", "3", "--stream", gap)
	oneLine(t, res, 1, `fold 2 of 4 has no rows, or only rows of weight 0: the --foldid column "k" numbers the folds 1…4, each needs rows of positive weight`)
	require.NotContains(t, res.stderr, "fewer folds")
	zero := writeFile(t, dir, "zero.csv", "x,w,y\n1,1,2\n2,0,5\n3,1,1\n4,0,4\n5,1,3\n6,0,3\n7,1,2\n8,0,1\n")
	var refused int
	for seed := range 8 {
		res := cardreg(t, "cv", "--weights", "w", "--folds", "3", "--seed", fmt.Sprint(seed+1), "--nlambda", "3", zero)
		if res.code != 0 {
			refused++
			oneLine(t, res, 1, "only rows of weight 0: its rows all weigh 0 (--weights); another --seed deals the rows otherwise")
		}
	}
	require.Positive(t, refused, "no seed left a fold of weight 0: the case is not tested")
}
