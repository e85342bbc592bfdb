package data

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"
)

// Progress draws a progress bar on a terminal once a load (or another long
// run) has taken longer than its delay, and erases it when done.
type Progress struct {
	w     io.Writer
	label string
	delay time.Duration
	start time.Time
	size  int64 // 0 when unknown

	rows     int   // data rows read so far (0: not shown)
	next     int64 // the byte count at which to look at the clock again
	drawn    int   // width of the bar on the screen, 0 if none
	lastDraw time.Time
}

// update draws the bar for n bytes (or steps) done.
func (p *Progress) update(n int64) {
	now := time.Now()
	if now.Sub(p.start) < p.delay || now.Sub(p.lastDraw) < 100*time.Millisecond && n > 0 {
		return
	}
	p.lastDraw = now
	var s string
	if p.size > 0 {
		const width = 30
		frac := min(float64(n)/float64(p.size), 1)
		k := int(frac * width)
		s = fmt.Sprintf("%s [%s%s] %3.0f%%", p.label, strings.Repeat("#", k), strings.Repeat(" ", width-k), 100*frac)
	} else {
		s = fmt.Sprintf("%s: %d MB", p.label, n>>20)
	}
	if p.rows > 0 {
		// Rows and throughput, for reads long enough to watch.
		s += fmt.Sprintf(", %d rows, %.0f MB/s", p.rows, float64(n)/1e6/now.Sub(p.start).Seconds())
	}
	p.draw(s)
}

// draw writes s over the line drawn last.
func (p *Progress) draw(s string) {
	pad := max(p.drawn-utf8.RuneCountInString(s), 0)
	fmt.Fprintf(p.w, "\r%s%s", s, strings.Repeat(" ", pad))
	p.drawn = utf8.RuneCountInString(s) + pad
}

// Stage draws "label: what" in place of the bar, for a step whose length
// is unknown (preparing a fit), once the run has taken the bar's delay.
func (p *Progress) Stage(what string) {
	now := time.Now()
	if now.Sub(p.start) < p.delay {
		return
	}
	p.lastDraw = now
	p.draw(p.label + ": " + what)
}

// Done erases the bar, if drawn.
func (p *Progress) Done() {
	if p.drawn > 0 {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", p.drawn))
		p.drawn = 0
	}
}

// NewProgress returns a progress bar drawn on w, labelled label, from the
// time a run has taken delay (0: at once), started now.
func NewProgress(w io.Writer, label string, delay time.Duration) *Progress {
	return &Progress{w: w, label: label, delay: delay, start: time.Now()}
}

// Report draws the bar at done steps of total (0: unknown).
func (p *Progress) Report(done, total int64) {
	p.size = total
	p.update(done)
}
