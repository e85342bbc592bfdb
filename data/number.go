package data

import (
	"bytes"
	"errors"
	"math"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// The reasons a cell is not read as a number.
var (
	errEmptyCell = errors.New("empty cell")
	errNotUTF8   = errors.New("not UTF-8")
	errNotNumber = errors.New("not a number")
	// errNotDecimal is a number in a syntax other than decimal (Go's
	// 1_000 or 0x1p3, which strconv.ParseFloat reads).
	errNotDecimal = errors.New("not a decimal number")
	errNotFinite  = errors.New("not a finite number")
)

// ParseNumber parses a cell, trimmed of white space, as a finite number.
func ParseNumber(b []byte) (float64, error) {
	if len(b) > 0 && (b[0] <= ' ' || b[len(b)-1] <= ' ' || b[0] >= utf8.RuneSelf || b[len(b)-1] >= utf8.RuneSelf) {
		b = bytes.TrimSpace(b)
	}
	if len(b) == 0 {
		return 0, errEmptyCell
	}
	if v, ok := parseSimple(b); ok {
		return v, nil
	}
	if len(b) > longCell && !decimalSyntax(b) {
		// Not a number, said without ParseFloat, whose error would copy
		// the cell (a record of a gigabyte, say).
		if hexPrefix(b) {
			return 0, errNotDecimal
		}
		return 0, errNotNumber
	}
	v, err := strconv.ParseFloat(cellString(b), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		if hexPrefix(b) {
			return 0, errNotDecimal
		}
		return 0, errNotNumber
	}
	// ParseFloat also reads Go's literals (1_000, 0x1p3), which R and
	// pandas read as text: only decimal numbers are data.
	if spelled := err == nil && (math.IsNaN(v) || math.IsInf(v, 0)); !spelled && !decimalSyntax(b) {
		return 0, errNotDecimal
	}
	// ParseFloat accepts "NaN", "Inf" and "Infinity", and returns ±Inf
	// with ErrRange for values beyond float64; the fit needs finite data.
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, errNotFinite
	}
	return v, nil
}

// longCell is the length past which ParseNumber checks a cell's syntax
// before parsing it (no number in another syntax, 0x1p3 or 1_000, is
// longer in practice).
const longCell = 64

// cellString is b as a string for ParseFloat, without copying a long cell:
// string(b) does not allocate for a short cell (ParseFloat copies its
// argument into the errors it returns, so it does not escape), and a long
// one is not changed while ParseFloat reads it.
func cellString(b []byte) string {
	if len(b) <= 32 {
		return string(b)
	}
	return unsafe.String(&b[0], len(b))
}

// cellBytes is the string s as bytes to read, not to change, without
// copying it (a cell held as text may be a record long).
func cellBytes(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// Numbers parses text cells (a column read as labels) as finite numbers,
// as a numeric column's cells are parsed, and reports false when one is
// not.
func Numbers(text []string) ([]float64, bool) {
	nums := make([]float64, len(text))
	for i, s := range text {
		v, err := ParseNumber([]byte(s))
		if err != nil {
			return nil, false
		}
		nums[i] = v
	}
	return nums, true
}

// hexPrefix reports a cell that starts, after a sign, with 0x or 0X.
func hexPrefix(b []byte) bool {
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		b = b[1:]
	}
	return len(b) > 1 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X')
}

// decimalSyntax reports whether b is a decimal number:
// [-+]digits[.digits][(e|E)[-+]digits], digits on at least one side of
// the point.
func decimalSyntax(b []byte) bool {
	i := 0
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		i++
	}
	digits := func() int {
		k := i
		for i < len(b) && b[i]-'0' <= 9 {
			i++
		}
		return i - k
	}
	n := digits()
	if i < len(b) && b[i] == '.' {
		i++
		n += digits()
	}
	if n == 0 {
		return false
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(b)
}

// pow10 holds the powers of ten that are exact in a float64.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseSimple parses a non-empty decimal [-+]digits[.digits][(e|E)[-+]digits]
// with at most 19 significant digits when the result is exact: the mantissa
// below 2⁵³ and the power of ten at most 22 in size are both exact float64s,
// so one multiplication or division rounds correctly (Clinger's fast path).
// Anything else reports !ok and is left to strconv.ParseFloat.
func parseSimple(b []byte) (float64, bool) {
	i, neg := 0, false
	switch b[0] {
	case '-':
		neg, i = true, 1
	case '+':
		i = 1
	}
	m, exp, i, ok := simpleMantissa(b, i)
	if !ok {
		return 0, false
	}
	if i < len(b) {
		e, ok := simpleExponent(b[i:])
		if !ok {
			return 0, false
		}
		exp += e
	}
	return exactValue(m, exp, neg)
}

// simpleMantissa reads digits[.digits] from b[i:]: m, the significant
// digits as an integer, exp, the power of ten of m's last digit, and the
// index after them; !ok when there is no digit or more than 19
// significant ones.
func simpleMantissa(b []byte, i int) (m uint64, exp, end int, ok bool) {
	nd, ndig, sawDot := 0, 0, false // nd: significant digits, ndig: all digits
	for ; i < len(b); i++ {
		c := b[i]
		if c-'0' <= 9 {
			ndig++
			if m != 0 || c != '0' {
				nd++
				m = m*10 + uint64(c-'0')
			}
			if sawDot {
				exp--
			}
			continue
		}
		if c == '.' && !sawDot {
			sawDot = true
			continue
		}
		break
	}
	return m, exp, i, ndig > 0 && nd <= 19
}

// simpleExponent reads an exponent (e|E)[-+]digits that is all of b,
// refusing one beyond about 10⁵ in size.
func simpleExponent(b []byte) (int, bool) {
	if b[0] != 'e' && b[0] != 'E' {
		return 0, false
	}
	i, neg := 1, false
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		neg = b[i] == '-'
		i++
	}
	if i == len(b) {
		return 0, false
	}
	e := 0
	for ; i < len(b); i++ {
		c := b[i]
		if c-'0' > 9 || e > 10000 {
			return 0, false
		}
		e = e*10 + int(c-'0')
	}
	if neg {
		e = -e
	}
	return e, true
}

// exactValue is ±m·10^exp when one operation gives it exactly rounded.
func exactValue(m uint64, exp int, neg bool) (float64, bool) {
	if m == 0 {
		if neg {
			return math.Copysign(0, -1), true
		}
		return 0, true
	}
	if m >= 1<<53 || exp < -22 || exp > 22 {
		return 0, false
	}
	v := float64(m)
	if exp < 0 {
		v /= pow10[-exp]
	} else {
		v *= pow10[exp]
	}
	if neg {
		v = -v
	}
	return v, true
}
