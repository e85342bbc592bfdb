package estimator

import (
	"math"
	"testing"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/stretchr/testify/require"
)

func TestCriterion(t *testing.T) {
	m := &Model{Family: datafit.Poisson{}, N: 100, Deviance: 80}
	aic, err := m.Criterion("aic", 3)
	require.NoError(t, err)
	require.Equal(t, 86.0, aic)
	bic, err := m.Criterion("bic", 3)
	require.NoError(t, err)
	require.InDelta(t, 80+3*math.Log(100), bic, 1e-12)
	g := &Model{Family: datafit.Gaussian{}, N: 50, Deviance: 200}
	aic, err = g.Criterion("aic", 2)
	require.NoError(t, err)
	require.InDelta(t, 50*math.Log(4)+4, aic, 1e-12)
	_, err = g.Criterion("cp", 2)
	require.Error(t, err)
}
