package data

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/suffstat"
	"github.com/stretchr/testify/require"
)

// ReadStats gives each fold the statistics of its rows, the predictors
// first and the responses last, whichever the columns' order in the file.
func TestReadStats(t *testing.T) {
	var b strings.Builder
	b.WriteString("y,a,fold,w,b\n")
	var rows [][]float64 // a, b, y; fold; weight
	for i := range 40 {
		a, bb, y := float64(i%7)-3, float64(i*i%11), float64(2*(i%5)+i%3)
		fold, w := i%3+1, float64(1+i%4)
		fmt.Fprintf(&b, "%v,%v,%d,%v,%v\n", y, a, fold, w, bb)
		rows = append(rows, []float64{a, bb, y, float64(fold - 1), w})
	}
	path := writeFile(t, t.TempDir(), "s.csv", b.String())
	var checked [][2]int
	st, err := ReadStats(path, Spec{Responses: []string{"y"}, Weights: "w", FoldID: "fold"},
		StatsOptions{Check: func(d, k int) error { checked = append(checked, [2]int{d, k}); return nil }})
	require.NoError(t, err)
	require.Equal(t, []string{"a", "b"}, st.Names)
	require.Equal(t, []string{"y"}, st.Responses)
	require.Len(t, st.Folds.Fold, 3)
	require.Equal(t, [][2]int{{3, 1}, {3, 2}, {3, 3}}, checked, "checked before each fold is added")
	want := suffstat.NewFolds(3, 3)
	for _, r := range rows {
		want.Fold[int(r[3])].Add(r[:3], r[4])
	}
	for k, m := range st.Folds.Fold {
		// Only the weights' ratios matter: compare at the same total.
		m.Scale(want.Fold[k].W / m.W)
		require.Equal(t, want.Fold[k].N, m.N)
		require.InDeltaSlice(t, want.Fold[k].Mean, m.Mean, 1e-12)
		for j := range m.C {
			if j/3 <= j%3 { // the upper triangle
				require.InDelta(t, want.Fold[k].C[j], m.C[j], 1e-9)
			}
		}
	}

	// Unweighted rows dealt by suffstat.RowFold.
	st, err = ReadStats(path, Spec{Select: func(h []string) ([]bool, error) {
		return []bool{true, true, false, false, true}, nil
	}}, StatsOptions{Folds: 4, Seed: 9})
	require.NoError(t, err)
	require.Equal(t, []string{"y", "a"}, st.Names)
	require.Equal(t, []string{"b"}, st.Responses)
	for k, m := range st.Folds.Fold {
		n := 0
		for i := range rows {
			if suffstat.RowFold(uint64(i), 9, 4) == k {
				n++
			}
		}
		require.Equal(t, int64(n), m.N, "fold %d", k+1)
	}
}

func TestReadStatsErrors(t *testing.T) {
	dir := t.TempDir()
	spec := Spec{Weights: "w", FoldID: "f", Flags: Flags{Weights: "--weights", FoldID: "--foldid"}}
	for _, tc := range []struct{ data, want string }{
		{"a,w,f,y\n1,-1,1,2\n", `:2: column "w": `},
		{"a,w,f,y\n1,1,1,2\n2,1,0,3\n", `:3: column "f": fold ids must be integers from 1 to 1000, found 0 (--foldid)`},
		{"a,w,f,y\n1,1,1,2\n2,1,5,3\n", `:3: column "f": too many (--foldid)`},
		{"a,w,f,y\n1e-200,1,1,2\n2e-200,1,1,3\n", `: column "a": largest magnitude 2e-200 is so small`},
	} {
		path := writeFile(t, dir, "e.csv", tc.data)
		_, err := ReadStats(path, spec, StatsOptions{Check: func(d, k int) error {
			if k > 3 {
				return errors.New("too many")
			}
			return nil
		}})
		require.ErrorContains(t, err, path+tc.want, tc.data)
	}
	_, err := ReadStats("x.csv", Spec{Offset: "o"}, StatsOptions{})
	require.Error(t, err)
}

func TestFoldColumn(t *testing.T) {
	place := func(i int) string { return fmt.Sprintf("f.csv:%d", i+2) }
	id, err := FoldColumn([]float64{2, 1, 2}, "f.csv", "k", "--foldid", place)
	require.NoError(t, err)
	require.Equal(t, []int{1, 0, 1}, id)
	_, err = FoldColumn([]float64{1, 3}, "f.csv", "k", "--foldid", place)
	require.EqualError(t, err, `f.csv: column "k": fold 2 of 1…3 has no rows (--foldid)`)
	_, err = FoldColumn([]float64{1, 1.5}, "f.csv", "k", "", place)
	require.EqualError(t, err, `f.csv:3: column "k": fold ids must be integers from 1 to 1000, found 1.5`)
}
