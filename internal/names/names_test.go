package names

import (
	"strings"
	"testing"
)

func TestShort(t *testing.T) {
	if got := Short([]byte("abc")); got != `"abc"` {
		t.Errorf("Short(abc) = %s", got)
	}
	long := strings.Repeat("é", 30) // 60 bytes: cut at a rune start
	got := Short([]byte(long))
	if !strings.HasSuffix(got, "… (60 bytes)") || !strings.HasPrefix(got, `"`+strings.Repeat("é", 16)+`"`) {
		t.Errorf("Short(60 bytes) = %s", got)
	}
}

func TestUnique(t *testing.T) {
	if err := Unique([]string{"a", "b"}, "input"); err != nil {
		t.Error(err)
	}
	for _, list := range [][]string{{"a", "a"}, {"a", " "}} {
		if err := Unique(list, "input"); err == nil || !strings.HasPrefix(err.Error(), "input name ") {
			t.Errorf("%q: %v", list, err)
		}
	}
}
