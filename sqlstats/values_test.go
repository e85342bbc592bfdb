package sqlstats

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// scripted answers each query with the rows of the first key it contains,
// as a server would print them.
type scripted map[string][][]string

func (s scripted) Query(_ context.Context, sql string) ([][]string, error) {
	for key, rows := range s {
		if strings.Contains(sql, key) {
			return rows, nil
		}
	}
	return nil, errors.New("unexpected query: " + sql)
}

// Rows with NULL, NaN or ±Inf are named by column and by what they hold,
// whatever the sums and hashed folds turned into; sums that overflow
// without such rows are said to overflow.
func TestBadValues(t *testing.T) {
	src := Source{Table: "t", Columns: []string{"x1", "x2", "y"}, Folds: 1}
	cv := src
	cv.Folds = 5
	weighted := src
	weighted.Weight = "w"
	diag := "IS NULL THEN 1 ELSE 0 END), sum(CASE WHEN NOT isFinite"
	for _, c := range []struct {
		name string
		src  Source
		q    scripted
		want string
	}{
		{"NaN in x2", src, scripted{
			"count(*)": {{"0", "10", "1", "0", "10", "3.5", "nan", "7"}},
			diag:       {{"0", "0", "0", "1", "0", "0"}},
		}, `column "x2": 1 rows hold NaN or an infinite value`},
		{"Inf in y, CV", cv, scripted{
			"count(*)": {{"1", "4", "0", "0", "4", "1", "2", "3"}, {"2", "6", "2", "0", "6", "1", "2", "inf"}},
			diag:       {{"0", "0", "0", "0", "0", "2"}},
		}, `column "y": 2 rows hold NaN or an infinite value`},
		{"NULL in x1, hashed folds", cv, scripted{
			"count(*)": {{"0", "8", "0", "0", "8", "1", "2", "3"}, {`\N`, "2", "2", "0", "2", "1", "2", "3"}},
			diag:       {{"2", "0", "0", "0", "0", "0"}},
		}, `column "x1": 2 rows hold NULL`},
		{"NULL weight", weighted, scripted{
			"count(*)": {{"0", "10", "3", "0", `\N`, "1", "2", "3"}},
			diag:       {{"0", "0", "0", "0", "0", "0", "3", "0"}},
		}, `column "w": 3 rows hold NULL`},
		{"overflow", src, scripted{
			"count(*)": {{"0", "10", "0", "0", "10", "1", "inf", "3"}},
		}, "the sum over the rows of x2 is +Inf: the values overflow float64"},
		{"overflow of a co-moment", src, scripted{
			"count(*)":                 {{"0", "10", "0", "0", "10", "1", "2", "3"}},
			"sum(1 * (toFloat64(`x1`)": {{"0", "0", "0", "0", "1", "2", "3", "4", "5", "+inf"}},
		}, "the sum over the rows of y × y is +Inf"},
		{"NULL fold column", Source{Table: "t", Columns: []string{"x1", "y"}, Folds: 3, FoldColumn: "f"}, scripted{
			"count(*)": {{`\N`, "10", "0", "0", "10", "1", "2"}},
		}, `the fold column "f": 10 rows hold NULL, not a fold`},
	} {
		_, err := Compute(context.Background(), c.q, ClickHouse, c.src)
		require.ErrorContains(t, err, c.want, c.name)
		require.NotContains(t, err.Error(), "not a number", c.name)
	}
	// A ValueError is typed, for callers to suggest a fix.
	_, err := Compute(context.Background(), scripted{
		"count(*)": {{"0", "10", "1", "0", "10", "3.5", "nan", "7"}},
		diag:       {{"0", "0", "0", "1", "0", "0"}},
	}, ClickHouse, src)
	var ve *ValueError
	require.ErrorAs(t, err, &ve)
	require.Equal(t, ValueError{Column: "x2", NonFinite: 1}, *ve)
	// So is a NULL fold, marked as the fold column.
	_, err = Compute(context.Background(), scripted{
		"count(*)": {{"0", "4", "0", "0", "4", "1", "2"}, {`\N`, "3", "0", "0", "3", "1", "2"}},
	}, ClickHouse, Source{Table: "t", Columns: []string{"x1", "y"}, Folds: 3, FoldColumn: "f"})
	require.ErrorAs(t, err, &ve)
	require.Equal(t, ValueError{Column: "f", Nulls: 3, Fold: true}, *ve)
}
