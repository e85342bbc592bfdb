//go:build cgo

// Command clib is cardreg's C interface (cardreg.h), built as a C library:
//
//	go build -buildmode=c-shared -o libcardreg.so ./clib
//	go build -buildmode=c-archive -o libcardreg.a ./clib
//
// Python's and R's packages call it. Every function converts its buffers
// to package binding's Input (read in place, not kept), calls binding,
// and turns an error, or a panic, into a status and a message
// (cardreg_last_error) for the calling thread. This is the only package of
// cardreg that uses cgo.
package main

/*
#include <stdint.h>
#include <stdlib.h>

static __thread char *cardreg_error;

static void cardreg_set_error(char *msg) {
	free(cardreg_error);
	cardreg_error = msg;
}

static const char *cardreg_get_error(void) {
	return cardreg_error ? cardreg_error : "";
}
*/
import "C"

import (
	"fmt"
	"math"
	"strconv"
	"sync"
	"unsafe"

	"github.com/cardsparse/cardreg/binding"
	"github.com/cardsparse/cardreg/internal/buildinfo"
)

func main() {}

// handles holds the results C holds by number.
var handles = struct {
	sync.Mutex
	next int64
	m    map[int64]*binding.Result
}{m: map[int64]*binding.Result{}}

// keep stores r and returns its handle.
func keep(r *binding.Result) int64 {
	handles.Lock()
	defer handles.Unlock()
	handles.next++
	handles.m[handles.next] = r
	return handles.next
}

// lookup returns the result of handle h.
func lookup(h C.int64_t) (*binding.Result, error) {
	handles.Lock()
	defer handles.Unlock()
	r, ok := handles.m[int64(h)]
	if !ok {
		return nil, fmt.Errorf("handle %d is not a result (freed already, or never returned)", int64(h))
	}
	return r, nil
}

// status returns 0 for nil, else 1 with err's message kept for
// cardreg_last_error.
func status(err error) C.int {
	if err == nil {
		return 0
	}
	C.cardreg_set_error(C.CString(err.Error()))
	return 1
}

// guard turns a panic into an error in *err: the host process must not
// crash.
func guard(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("internal error: %v", r)
	}
}

var version = C.CString("cardreg " + buildinfo.Version())

//export cardreg_version
func cardreg_version() *C.char { return version }

//export cardreg_last_error
func cardreg_last_error() *C.char { return (*C.char)(unsafe.Pointer(C.cardreg_get_error())) }

// floats returns the n float64 values at ptr, nil for a NULL ptr that
// may be one (optional), an error for a NULL one that may not.
func floats(ptr *C.double, n int64, what string, optional bool) ([]float64, error) {
	if ptr == nil {
		if optional || n == 0 {
			return nil, nil
		}
		return nil, fmt.Errorf("data: %s is NULL", what)
	}
	return unsafe.Slice((*float64)(unsafe.Pointer(ptr)), n), nil
}

// input reads the buffers of a call as a binding.Input.
func input(x *C.double, n, p C.int64_t, layout C.int32_t, y, w, off *C.double, codes *C.int32_t, nf C.int64_t, needY bool) (*binding.Input, error) {
	N, P, F := int64(n), int64(p), int64(nf)
	switch {
	case N < 1 || P < 0 || F < 0:
		return nil, fmt.Errorf("data: n = %d, p = %d, %d factors: n must be at least 1, p and the factors at least 0", N, P, F)
	case P > 0 && N > math.MaxInt32*int64(math.MaxInt32)/P || F > 0 && N > math.MaxInt32*int64(math.MaxInt32)/F:
		return nil, fmt.Errorf("data: %d rows of %d columns and %d factors are too many", N, P, F)
	case layout != 0 && layout != 1:
		return nil, fmt.Errorf("data: layout %d: 0 (row-major) or 1 (column-major)", int32(layout))
	}
	in := &binding.Input{N: int(N), P: int(P), ColMajor: layout == 1}
	var err error
	if in.X, err = floats(x, N*P, "x", false); err != nil {
		return nil, err
	}
	if in.Y, err = floats(y, N, "y", !needY); err != nil {
		return nil, err
	}
	if in.Weights, err = floats(w, N, "weights", true); err != nil {
		return nil, err
	}
	if in.Offset, err = floats(off, N, "offset", true); err != nil {
		return nil, err
	}
	if F > 0 {
		if codes == nil {
			return nil, fmt.Errorf("data: codes is NULL for %d factors", F)
		}
		in.Codes = unsafe.Slice((*int32)(unsafe.Pointer(codes)), N*F)
	}
	return in, nil
}

// sparseInput reads the buffers of a call whose numeric columns are CSC
// arrays (cardreg_*_csc) as a binding.Input: colstart's p+1 int64 starts
// (shared on a 64-bit platform, where int is int64; copied otherwise),
// the colstart[p] int32 row indices and values (NULL: all one), shared.
// binding checks them; nothing is kept after the call.
func sparseInput(n, p C.int64_t, colstart *C.int64_t, rowind *C.int32_t, values *C.double,
	y, w, off *C.double, codes *C.int32_t, nf C.int64_t, needY bool) (*binding.Input, error) {
	N, P := int64(n), int64(p)
	switch {
	case N < 1 || P < 0 || N > math.MaxInt32 || P > math.MaxInt32:
		return nil, fmt.Errorf("data: a sparse x of n = %d rows and p = %d columns: n must be 1 to 2³¹−1 (its row indices are int32), p 0 to 2³¹−1", N, P)
	case colstart == nil:
		return nil, fmt.Errorf("data: colstart is NULL")
	}
	in, err := input(nil, n, 0, 0, y, w, off, codes, nf, needY)
	if err != nil {
		return nil, err
	}
	starts := unsafe.Slice((*int64)(unsafe.Pointer(colstart)), P+1)
	nnz := starts[P]
	if nnz < 0 || nnz > math.MaxInt32*int64(math.MaxInt32) {
		return nil, fmt.Errorf("data: colstart[p] = %d non-zeros", nnz)
	}
	in.P = int(P)
	in.Sparse = &binding.CSC{Start: ints(starts)}
	if nnz > 0 {
		if rowind == nil {
			return nil, fmt.Errorf("data: rowind is NULL for %d non-zeros", nnz)
		}
		in.Sparse.Rows = unsafe.Slice((*int32)(unsafe.Pointer(rowind)), nnz)
		in.Sparse.Vals, err = floats(values, nnz, "values", true)
	}
	return in, err
}

// ints returns v as []int: v itself where int is 64 bits, else a copy
// (a start beyond int's range becomes -1, which binding refuses).
func ints(v []int64) []int {
	if strconv.IntSize == 64 {
		return unsafe.Slice((*int)(unsafe.Pointer(unsafe.SliceData(v))), len(v))
	}
	out := make([]int, len(v))
	for k, s := range v {
		out[k] = -1
		if s >= math.MinInt && s <= math.MaxInt {
			out[k] = int(s)
		}
	}
	return out
}

// runSparse is cardreg_fit_csc, cardreg_path_csc and cardreg_cv_csc:
// run for CSC arrays.
func runSparse(do func(*binding.Input, []byte) (*binding.Result, error), n, p C.int64_t, colstart *C.int64_t, rowind *C.int32_t, values *C.double,
	y, w, off *C.double, codes *C.int32_t, nf C.int64_t, options *C.char, out *C.int64_t) C.int {
	var err error
	func() {
		defer guard(&err)
		if out == nil {
			err = fmt.Errorf("out is NULL")
			return
		}
		var in *binding.Input
		if in, err = sparseInput(n, p, colstart, rowind, values, y, w, off, codes, nf, true); err != nil {
			return
		}
		err = call(do, in, options, out)
	}()
	return status(err)
}

// call calls do on in and the options, storing the result's handle.
func call(do func(*binding.Input, []byte) (*binding.Result, error), in *binding.Input, options *C.char, out *C.int64_t) error {
	var opts []byte
	if options != nil {
		opts = []byte(C.GoString(options))
	}
	r, err := do(in, opts)
	if err == nil {
		*out = C.int64_t(keep(r))
	}
	return err
}

//export cardreg_fit_csc
func cardreg_fit_csc(n, p C.int64_t, colstart *C.int64_t, rowind *C.int32_t, values *C.double, y, w, off *C.double, codes *C.int32_t, nf C.int64_t, options *C.char, out *C.int64_t) C.int {
	return runSparse(binding.Fit, n, p, colstart, rowind, values, y, w, off, codes, nf, options, out)
}

//export cardreg_path_csc
func cardreg_path_csc(n, p C.int64_t, colstart *C.int64_t, rowind *C.int32_t, values *C.double, y, w, off *C.double, codes *C.int32_t, nf C.int64_t, options *C.char, out *C.int64_t) C.int {
	return runSparse(binding.Path, n, p, colstart, rowind, values, y, w, off, codes, nf, options, out)
}

//export cardreg_cv_csc
func cardreg_cv_csc(n, p C.int64_t, colstart *C.int64_t, rowind *C.int32_t, values *C.double, y, w, off *C.double, codes *C.int32_t, nf C.int64_t, options *C.char, out *C.int64_t) C.int {
	return runSparse(binding.CV, n, p, colstart, rowind, values, y, w, off, codes, nf, options, out)
}

// run is cardreg_fit, cardreg_path and cardreg_cv: it reads the buffers,
// calls do and stores the result's handle in *out.
func run(do func(*binding.Input, []byte) (*binding.Result, error), x *C.double, n, p C.int64_t, layout C.int32_t,
	y, w, off *C.double, codes *C.int32_t, nf C.int64_t, options *C.char, out *C.int64_t) C.int {
	var err error
	func() {
		defer guard(&err)
		if out == nil {
			err = fmt.Errorf("out is NULL")
			return
		}
		var in *binding.Input
		if in, err = input(x, n, p, layout, y, w, off, codes, nf, true); err != nil {
			return
		}
		err = call(do, in, options, out)
	}()
	return status(err)
}

//export cardreg_fit
func cardreg_fit(x *C.double, n, p C.int64_t, layout C.int32_t, y, w, off *C.double, codes *C.int32_t, nf C.int64_t, options *C.char, out *C.int64_t) C.int {
	return run(binding.Fit, x, n, p, layout, y, w, off, codes, nf, options, out)
}

//export cardreg_path
func cardreg_path(x *C.double, n, p C.int64_t, layout C.int32_t, y, w, off *C.double, codes *C.int32_t, nf C.int64_t, options *C.char, out *C.int64_t) C.int {
	return run(binding.Path, x, n, p, layout, y, w, off, codes, nf, options, out)
}

//export cardreg_cv
func cardreg_cv(x *C.double, n, p C.int64_t, layout C.int32_t, y, w, off *C.double, codes *C.int32_t, nf C.int64_t, options *C.char, out *C.int64_t) C.int {
	return run(binding.CV, x, n, p, layout, y, w, off, codes, nf, options, out)
}

// with calls do with the result of handle h, guarded.
func with(h C.int64_t, do func(r *binding.Result) error) C.int {
	var err error
	func() {
		defer guard(&err)
		var r *binding.Result
		if r, err = lookup(h); err == nil {
			err = do(r)
		}
	}()
	return status(err)
}

// nonNil refuses a NULL output pointer.
func nonNil(what string, ptrs ...unsafe.Pointer) error {
	for _, p := range ptrs {
		if p == nil {
			return fmt.Errorf("%s: an output pointer is NULL", what)
		}
	}
	return nil
}

//export cardreg_dims
func cardreg_dims(h C.int64_t, models, columns *C.int64_t) C.int {
	return with(h, func(r *binding.Result) error {
		if err := nonNil("cardreg_dims", unsafe.Pointer(models), unsafe.Pointer(columns)); err != nil {
			return err
		}
		*models, *columns = C.int64_t(r.Models()), C.int64_t(r.Columns())
		return nil
	})
}

//export cardreg_coef
func cardreg_coef(h C.int64_t, k C.int64_t, coef, intercept *C.double) C.int {
	return with(h, func(r *binding.Result) error {
		if err := nonNil("cardreg_coef", unsafe.Pointer(coef), unsafe.Pointer(intercept)); err != nil {
			return err
		}
		c, b0, err := r.Coef(int(k))
		if err == nil {
			copy(unsafe.Slice((*float64)(unsafe.Pointer(coef)), len(c)), c)
			*intercept = C.double(b0)
		}
		return err
	})
}

//export cardreg_status
func cardreg_status(h C.int64_t, k C.int64_t, lambda, gap *C.double, converged *C.int32_t) C.int {
	return with(h, func(r *binding.Result) error {
		if err := nonNil("cardreg_status", unsafe.Pointer(lambda), unsafe.Pointer(gap), unsafe.Pointer(converged)); err != nil {
			return err
		}
		l, g, ok, err := r.Status(int(k))
		if err == nil {
			*lambda, *gap, *converged = C.double(l), C.double(g), 0
			if ok {
				*converged = 1
			}
		}
		return err
	})
}

//export cardreg_json
func cardreg_json(h C.int64_t, out **C.char) C.int {
	return with(h, func(r *binding.Result) error {
		if err := nonNil("cardreg_json", unsafe.Pointer(out)); err != nil {
			return err
		}
		*out = C.CString(string(r.JSON()))
		return nil
	})
}

//export cardreg_predict
func cardreg_predict(h C.int64_t, k C.int64_t, x *C.double, n, p C.int64_t, layout C.int32_t, codes *C.int32_t, nf C.int64_t,
	off *C.double, typ *C.char, out *C.double) C.int {
	return with(h, func(r *binding.Result) error {
		if err := nonNil("cardreg_predict", unsafe.Pointer(out), unsafe.Pointer(typ)); err != nil {
			return err
		}
		in, err := input(x, n, p, layout, nil, nil, off, codes, nf, false)
		if err != nil {
			return err
		}
		pred, err := r.Predict(int(k), in, C.GoString(typ))
		if err == nil {
			copy(unsafe.Slice((*float64)(unsafe.Pointer(out)), len(pred)), pred)
		}
		return err
	})
}

//export cardreg_predict_csc
func cardreg_predict_csc(h C.int64_t, k C.int64_t, n, p C.int64_t, colstart *C.int64_t, rowind *C.int32_t, values *C.double,
	codes *C.int32_t, nf C.int64_t, off *C.double, typ *C.char, out *C.double) C.int {
	return with(h, func(r *binding.Result) error {
		if err := nonNil("cardreg_predict_csc", unsafe.Pointer(out), unsafe.Pointer(typ)); err != nil {
			return err
		}
		in, err := sparseInput(n, p, colstart, rowind, values, nil, nil, off, codes, nf, false)
		if err != nil {
			return err
		}
		pred, err := r.Predict(int(k), in, C.GoString(typ))
		if err == nil {
			copy(unsafe.Slice((*float64)(unsafe.Pointer(out)), len(pred)), pred)
		}
		return err
	})
}

//export cardreg_describe
func cardreg_describe(out **C.char) C.int {
	var err error
	func() {
		defer guard(&err)
		if err = nonNil("cardreg_describe", unsafe.Pointer(out)); err != nil {
			return
		}
		var doc []byte
		if doc, err = binding.Describe(); err == nil {
			*out = C.CString(string(doc))
		}
	}()
	return status(err)
}

//export cardreg_response
func cardreg_response(family *C.char, eta *C.double, n C.int64_t, typ *C.char, out *C.double) C.int {
	var err error
	func() {
		defer guard(&err)
		if err = nonNil("cardreg_response", unsafe.Pointer(family), unsafe.Pointer(typ), unsafe.Pointer(out)); err != nil {
			return
		}
		if n < 0 || int64(n) > math.MaxInt32*int64(math.MaxInt32) {
			err = fmt.Errorf("data: n = %d values", int64(n))
			return
		}
		var e, pred []float64
		if e, err = floats(eta, int64(n), "eta", false); err != nil {
			return
		}
		if pred, err = binding.Response(C.GoString(family), e, C.GoString(typ)); err == nil {
			copy(unsafe.Slice((*float64)(unsafe.Pointer(out)), len(pred)), pred)
		}
	}()
	return status(err)
}

//export cardreg_free
func cardreg_free(h C.int64_t) C.int {
	var err error
	handles.Lock()
	if _, ok := handles.m[int64(h)]; ok {
		delete(handles.m, int64(h))
	} else {
		err = fmt.Errorf("handle %d is not a result (freed already, or never returned)", int64(h))
	}
	handles.Unlock()
	return status(err)
}

//export cardreg_string_free
func cardreg_string_free(s *C.char) { C.free(unsafe.Pointer(s)) }
