package jsonx

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/cardsparse/cardreg/internal/names"
)

// ReadFile reads a JSON file without the UTF-8 byte order mark that
// some editors (Notepad, PowerShell's Out-File) put at its start: JSON
// text has none, and encoding/json refuses it, as the CSV reader skips it.
// "-" reads standard input.
func ReadFile(path string) ([]byte, error) {
	var b []byte
	var err error
	if path == "-" {
		b, err = io.ReadAll(os.Stdin)
	} else {
		b, err = os.ReadFile(path)
	}
	return bytes.TrimPrefix(b, []byte("\uFEFF")), err
}

// TextError rephrases err, from decoding the JSON text b, when b is
// not JSON at all: empty, or ending inside a value (a file cut short: a
// copy interrupted, head -c), which encoding/json reports as a bad
// character at the end or "unexpected end of JSON input".
func TextError(b []byte, err error) error {
	var se *json.SyntaxError
	if !errors.As(err, &se) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return err
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return errors.New("is empty, not JSON")
	}
	var v json.RawMessage
	if errors.Is(json.NewDecoder(bytes.NewReader(b)).Decode(&v), io.ErrUnexpectedEOF) {
		return fmt.Errorf("is not complete JSON (truncated?): it ends inside a value at byte %d", len(b))
	}
	if se != nil {
		return fmt.Errorf("is not valid JSON at byte %d: %v", se.Offset, se)
	}
	return err
}

// DecodeStrict decodes one JSON object into v, refusing what
// encoding/json lets through silently: a duplicated key at any depth (the
// last would win), an unknown field, a required key that is missing or
// null, and anything after the object.
func DecodeStrict(raw []byte, v any, required ...string) error {
	if err := checkDuplicateKeys(raw); err != nil {
		return err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return err
	}
	for _, k := range required {
		f, ok := fields[k]
		if !ok {
			return fmt.Errorf("field %q is missing", k)
		}
		if bytes.Equal(bytes.TrimSpace(f), []byte("null")) {
			return fmt.Errorf("field %q is null", k)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// checkDuplicateKeys walks one JSON value and reports the first object key
// that appears twice in its object, with its path, and any data after the
// value.
func checkDuplicateKeys(raw []byte) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := walkJSON(dec, "$"); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("data after the JSON object")
	}
	return nil
}

// walkJSON reads one value from dec, checking the keys of every object.
func walkJSON(dec *json.Decoder, path string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return err
			}
			key, _ := k.(string)
			if seen[key] {
				return fmt.Errorf("key %s appears twice in %s", names.Short(key), path)
			}
			seen[key] = true
			if err := walkJSON(dec, path+"."+key); err != nil {
				return err
			}
		}
		_, err = dec.Token() // '}'
		return err
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if err := walkJSON(dec, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		_, err = dec.Token() // ']'
		return err
	}
	return nil
}
