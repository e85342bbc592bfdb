package bounds

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestNuNote(t *testing.T) {
	require.Equal(t, "", Nu{Value: 2, Kernel: Kernel{Lower: 0.5, Upper: 0.5, Exact: true, Method: "lp"}}.Note())
	require.Equal(t, "M_G = 1.5: the theory's nu = 1/(1 - M_G) needs M_G < 1 (three or more predictors per group); using nu = 1",
		Nu{Value: 1, Fallback: true, Kernel: Kernel{Lower: 1.5, Upper: 1.5, Exact: true, Method: "closed form"}}.Note())
	require.Equal(t, "M_G is bounded above (pinv bound)", Nu{Value: 3, Kernel: Kernel{Upper: 0.6, Method: "pinv bound"}}.Note())
	require.Contains(t, Nu{Value: 1, Fallback: true, Kernel: Kernel{Upper: 2, Method: "pinv bound"}}.Note(), "using nu = 1 M_G is bounded above (pinv bound)")
}
