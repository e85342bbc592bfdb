// Package clock times benchmark calls by wall time and by the CPU time of
// the whole process (user + system, every thread), so that a figure taken
// on a busy machine can be judged by its CPU time: waiting for a core counts
// in the wall time only.
package clock

import (
	"runtime"
	"slices"
	"syscall"
	"time"
)

// Times is one measurement: wall-clock seconds and process CPU seconds.
type Times struct {
	Wall, CPU float64
}

// CPU returns the CPU time the process has used so far (user + system, all
// threads), in seconds.
func CPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return tv(ru.Utime) + tv(ru.Stime)
}

func tv(t syscall.Timeval) float64 {
	return float64(t.Sec) + float64(t.Usec)*1e-6
}

// Once times one call of f.
func Once(f func() error) (Times, error) {
	c0, t0 := CPU(), time.Now()
	err := f()
	return Times{Wall: time.Since(t0).Seconds(), CPU: CPU() - c0}, err
}

// Median calls f once untimed, then reps times, and returns the median wall
// time and the median CPU time of those calls (each median taken on its
// own). A garbage collection before each call keeps one call from paying
// for the previous one's garbage.
func Median(reps int, f func() error) (Times, error) {
	if err := f(); err != nil {
		return Times{}, err
	}
	reps = max(reps, 1)
	wall := make([]float64, reps)
	cpu := make([]float64, reps)
	for i := range reps {
		runtime.GC()
		t, err := Once(f)
		if err != nil {
			return Times{}, err
		}
		wall[i], cpu[i] = t.Wall, t.CPU
	}
	return Times{Wall: median(wall), CPU: median(cpu)}, nil
}

func median(v []float64) float64 {
	slices.Sort(v)
	k := len(v)
	if k%2 == 1 {
		return v[k/2]
	}
	return (v[k/2-1] + v[k/2]) / 2
}
