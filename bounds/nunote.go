package bounds

import (
	"fmt"
	"strings"
)

// Note says why a default ν is not the theory's 1/(1 − M_G): M_G ≥ 1
// (Fallback: ν = 1), or M_G only bounded above ("" otherwise).
func (d Nu) Note() string {
	note := ""
	if d.Fallback {
		note = fmt.Sprintf("M_G = %.4g: the theory's nu = 1/(1 - M_G) needs M_G < 1 (three or more predictors per group); using nu = 1", d.Kernel.Value())
	}
	if d.Kernel.Method != "" && !d.Kernel.Exact {
		note = strings.TrimSpace(note + " M_G is bounded above (" + d.Kernel.Method + ")")
	}
	return note
}
