package buildinfo

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestVersion(t *testing.T) {
	require.Equal(t, "(devel)", version(nil, false))
	require.Equal(t, "v1.2.3", version(&debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, true))
	require.Equal(t, "(devel) go1.x", version(&debug.BuildInfo{GoVersion: "go1.x"}, true))
	bi := &debug.BuildInfo{GoVersion: "go1.x", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.modified", Value: "true"}}}
	require.Equal(t, "(devel) 0123456789ab (modified) go1.x", version(bi, true))
	require.NotEmpty(t, Version())
}
