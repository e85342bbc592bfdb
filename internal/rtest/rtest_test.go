package rtest

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// One R process runs jobs with their own arguments, survives a script's
// quit() and error, and serves concurrent callers one job at a time.
func TestOutput(t *testing.T) {
	SkipUnlessAvailable(t)
	out, err := Output("testdata/echo.R", "a", "b c")
	require.NoError(t, err)
	require.Equal(t, "a\nb c\nend\n", string(out))

	out, err = Output("testdata/echo.R", "quit")
	require.NoError(t, err)
	require.Equal(t, "quit\n", string(out), "quit() ends the job, not R")

	out, err = Output("testdata/echo.R", "fail")
	require.ErrorContains(t, err, "asked to fail")
	require.Contains(t, string(out), "fail")

	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := Output("testdata/echo.R", fmt.Sprint(i))
			assert.NoError(t, err)
			assert.Equal(t, fmt.Sprintf("%d\nend\n", i), string(out))
		}()
	}
	wg.Wait()

	_, err = Output("testdata/echo.R", "a\nb")
	require.Error(t, err, "a newline would split the job")
}
