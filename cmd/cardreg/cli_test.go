package main

import (
	"errors"
	"flag"
	"io"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/data"
	"github.com/stretchr/testify/require"
)

// exitStatus maps no error to 0, a usage error (even wrapped) to 2 and
// any other to 1, on one line naming the command; "-" becomes <stdin>.
func TestExitStatus(t *testing.T) {
	for _, c := range []struct {
		err  error
		code int
		line string
	}{
		{nil, 0, ""},
		{errors.New("boom"), 1, "cardreg fit: boom\n"},
		{usagef("bad %s", "flag"), 2, "cardreg fit: bad flag\n"},
		{asUsage(errors.New("plain")), 2, "cardreg fit: plain\n"},
		{errors.New("-: no rows"), 1, "cardreg fit: " + data.StdinName + ": no rows\n"},
	} {
		var b strings.Builder
		require.Equal(t, c.code, exitStatus(&b, "fit", c.err))
		require.Equal(t, c.line, b.String())
	}
	require.Nil(t, asUsage(nil))
	u := usagef("x")
	require.Equal(t, u, asUsage(u), "a usage error is not wrapped twice")
}

func newTestFlags() (*flag.FlagSet, *float64) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	v := fs.Float64("v", 1, "a float")
	fs.Usage = func() { io.WriteString(fs.Output(), "usage of t\n") }
	return fs, v
}

// parseNoArgs refuses a positional argument, a float that rounds to 0 and
// a non-finite one; helped prints the usage on stdout for -h only.
func TestParseNoArgsAndHelped(t *testing.T) {
	fs, v := newTestFlags()
	require.NoError(t, parseNoArgs(fs, []string{"--v", "2"}))
	require.Equal(t, 2.0, *v)
	for args, want := range map[string]string{
		"--v 2 extra": `unexpected argument "extra"`,
		"--v 1e-400":  "would be 0",
		"--v NaN":     "--v must be a finite number",
		"--bogus":     "flag provided but not defined",
	} {
		fs, _ := newTestFlags()
		err := parseNoArgs(fs, strings.Fields(args))
		require.ErrorContains(t, err, want, args)
		var b strings.Builder
		require.False(t, helped(fs, err, &b))
		require.Empty(t, b.String())
	}
	fs, _ = newTestFlags()
	err := parseNoArgs(fs, []string{"-h"})
	var b strings.Builder
	require.True(t, helped(fs, err, &b))
	require.Equal(t, "usage of t\n", b.String())
}

// parseInterleaved takes flags after positional arguments, and
// everything after -- as positional.
func TestParseInterleaved(t *testing.T) {
	fs, v := newTestFlags()
	pos, err := parseInterleaved(fs, []string{"a", "--v", "3", "b", "--", "--v"})
	require.NoError(t, err)
	require.Equal(t, []string{"a", "b", "--v"}, pos)
	require.Equal(t, 3.0, *v)
}

// usageFailure writes one line with its hint and returns 2.
func TestUsageFailure(t *testing.T) {
	var b strings.Builder
	require.Equal(t, 2, usageFailure(&b, "net", errors.New("bad"), seeHelp("net")))
	require.Equal(t, "cardreg net: bad (see cardreg help net)\n", b.String())
}

// Every command is listed once in commandOrder, which messages use.
func TestCommandOrderListsEveryCommand(t *testing.T) {
	require.Len(t, commandOrder, len(commands))
	for _, name := range commandOrder {
		require.Contains(t, commands, name)
	}
	require.Equal(t, "fit, path, cv, net, predict, lambda, bound, memory, simulate, help, version", commandList())
}

// positiveInts reads lists of integers ≥ 1 and names the first bad item.
func TestPositiveInts(t *testing.T) {
	v, _, ok := positiveInts(" 4, 3 ,1")
	require.True(t, ok)
	require.Equal(t, []int{4, 3, 1}, v)
	for s, bad := range map[string]string{"4,,1": "", "4,-3": "-3", "x": "x", "2,0": "0"} {
		_, got, ok := positiveInts(s)
		require.False(t, ok, s)
		require.Equal(t, bad, got, s)
	}
}
