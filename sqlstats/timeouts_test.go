package sqlstats

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestParseTimeouts(t *testing.T) {
	var to Timeouts
	require.NoError(t, ParseTimeouts("90s", &to))
	require.Equal(t, Timeouts{Query: 90 * time.Second}, to)
	require.NoError(t, ParseTimeouts(" connect = 2s,first-byte=1m", &to))
	require.Equal(t, Timeouts{Connect: 2 * time.Second, FirstByte: time.Minute, Query: 90 * time.Second}, to)
	require.Equal(t, "connect=2s,first-byte=1m0s,query=1m30s", to.String())
	require.Equal(t, "", Timeouts{}.String())
	require.ErrorContains(t, ParseTimeouts("0s", &to), `"0s" is not a duration > 0`)
	require.ErrorContains(t, ParseTimeouts("read=1s", &to), `unknown timeout "read"`)
	require.ErrorContains(t, ParseTimeouts("connect=x", &to), `"x" is not a duration`)
}
