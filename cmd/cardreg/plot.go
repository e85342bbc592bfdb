package main

import (
	"errors"
	"io"
	"path/filepath"
	"strings"

	"github.com/cardsparse/cardreg/internal/outfile"
	"github.com/cardsparse/cardreg/plotting"
)

// plotFormat returns the image format of a --plot file name.
func plotFormat(path string) (string, error) {
	format, ok := plotting.Format(path)
	if !ok {
		return "", usagef("--plot %s: the file must end in .png or .svg", path)
	}
	return format, nil
}

// plotPath draws a path (plotting.Path) to the --plot file.
func plotPath(path plotting.PathCurves, names []string, file string) error {
	return savePlot(file, func(format string) (io.WriterTo, error) {
		wt, err := plotting.Path(path, names, format)
		if errors.Is(err, plotting.ErrNoPositiveLambda) {
			err = errors.New("--plot: " + err.Error())
		}
		return wt, err
	})
}

// plotFactors draws the factors' level effects along a path
// (plotting.Factors, the groups coloured at the path's middle fit) to
// factorPlotFile(file).
func plotFactors(curves plotting.FactorCurves, file string) error {
	return savePlot(factorPlotFile(file), func(format string) (io.WriterTo, error) {
		wt, err := plotting.Factors(curves, format)
		if errors.Is(err, plotting.ErrNoPositiveLambda) {
			err = errors.New("--plot: " + err.Error())
		}
		return wt, err
	})
}

// factorPlotFile is the name of the factor plot beside the --plot file:
// FILE.png gives FILE-factors.png.
func factorPlotFile(file string) string {
	ext := filepath.Ext(file)
	return strings.TrimSuffix(file, ext) + "-factors" + ext
}

// plotCV draws a cross-validation curve (plotting.CV) to the --plot file.
func plotCV(cv plotting.CVCurve, file string) error {
	return savePlot(file, func(format string) (io.WriterTo, error) { return plotting.CV(cv, format) })
}

// savePlot draws the image in the format of path's extension and writes
// it through writeOutput, so that a failure leaves no partial image.
func savePlot(path string, draw func(format string) (io.WriterTo, error)) error {
	format, err := plotFormat(path)
	if err != nil {
		return err
	}
	wt, err := draw(format)
	if err != nil {
		return err
	}
	return outfile.Write("--plot", path, nil, func(w io.Writer) error {
		_, err := wt.WriteTo(w)
		return err
	})
}
