// Package jsonx writes JSON as cardreg's commands do: encoding/json's
// encoding, except that a NaN or ±Inf, which encoding/json refuses, is
// written as null (README's JSON contract).
package jsonx

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"reflect"
	"strings"
)

// MarshalFinite encodes v as encoding/json does, except that a NaN or
// ±Inf (which encoding/json refuses) is written as null: README's JSON
// contract. Values without such numbers encode exactly as json.Marshal
// encodes them.
func MarshalFinite(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if errors.As(err, new(*json.UnsupportedValueError)) {
		return json.Marshal(FiniteTree(reflect.ValueOf(v)))
	}
	return b, err
}

// FiniteTree returns v as a tree that encodes as v does, with every
// non-finite float replaced by nil, for the types the commands write:
// plain structs (no embedded fields, no ",string" option), slices and
// maps with string keys. Values with their own MarshalJSON are kept as
// they are.
func FiniteTree(v reflect.Value) any {
	if !v.IsValid() {
		return nil
	}
	if v.Type().Implements(reflect.TypeFor[json.Marshaler]()) {
		return v.Interface()
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return FiniteTree(v.Elem())
	case reflect.Float32, reflect.Float64:
		if f := v.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
			return nil
		}
	case reflect.Struct:
		return finiteStruct(v)
	case reflect.Slice, reflect.Array:
		return finiteSlice(v)
	case reflect.Map:
		return finiteMap(v)
	}
	return v.Interface()
}

// finiteSlice is finiteTree of a slice or an array; a nil slice and bytes
// (base64 in JSON) are kept as they are.
func finiteSlice(v reflect.Value) any {
	if v.Kind() == reflect.Slice && v.IsNil() || v.Type().Elem().Kind() == reflect.Uint8 {
		return v.Interface()
	}
	out := make([]any, v.Len())
	for i := range out {
		out[i] = FiniteTree(v.Index(i))
	}
	return out
}

// finiteMap is finiteTree of a map; a nil map and one whose keys are not
// strings are kept as they are.
func finiteMap(v reflect.Value) any {
	if v.IsNil() || v.Type().Key().Kind() != reflect.String {
		return v.Interface()
	}
	out := make(map[string]any, v.Len())
	for it := v.MapRange(); it.Next(); {
		out[it.Key().String()] = FiniteTree(it.Value())
	}
	return out
}

// finiteStruct is finiteTree of a struct: its exported fields in order,
// named and left out as their json tags say.
func finiteStruct(v reflect.Value) any {
	obj := &orderedObject{}
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if !f.IsExported() || tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		if strings.Contains(opts, "omitempty") && isEmpty(v.Field(i)) {
			continue
		}
		obj.keys = append(obj.keys, name)
		obj.vals = append(obj.vals, FiniteTree(v.Field(i)))
	}
	return obj
}

// isEmpty reports whether omitempty leaves v out (encoding/json's rule).
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// orderedObject is a JSON object whose keys keep their order.
type orderedObject struct {
	keys []string
	vals []any
}

// MarshalJSON writes the object, HTML characters unescaped (as Write writes
// everything).
func (o *orderedObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := enc.Encode(k); err != nil {
			return nil, err
		}
		b.WriteByte(':')
		if err := enc.Encode(o.vals[i]); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Write writes v to w as indented JSON, the one layout of every command's
// --format json: HTML characters are not escaped, and a non-finite number
// is null (see MarshalFinite).
func Write(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	if errors.As(err, new(*json.UnsupportedValueError)) {
		err = enc.Encode(FiniteTree(reflect.ValueOf(v)))
	}
	return err
}
