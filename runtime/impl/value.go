package impl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Plain JSON values (nil, bool, string, json.Number, []any and
// map[string]any) are what task chains and JSON mode run over; these read,
// copy and print them.

// ValueText is a string itself and any other value its JSON encoding.
func ValueText(v any) (string, error) {
	if s, ok := v.(string); ok {
		return s, nil
	}
	b, err := EncodeJSON(v)
	return string(b), err
}

// DecodeChainInput reads the input of a task chain or of a JSON-mode
// workflow: any JSON value.
func DecodeChainInput(data []byte) (any, error) {
	v, err := DecodeValue(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInput, err)
	}
	return v, nil
}

// JSONValue returns v as a plain JSON value (nil, bool, string,
// json.Number, []any, map[string]any) that shares nothing with v. Values of
// other types go through their JSON encoding.
func JSONValue(v any) (any, error) {
	switch v := v.(type) {
	case nil, bool, string:
		return v, nil
	case []any:
		out := make([]any, len(v))
		for i, item := range v {
			var err error
			if out[i], err = JSONValue(item); err != nil {
				return nil, err
			}
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, item := range v {
			var err error
			if out[k], err = JSONValue(item); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return DecodeValue(data)
}

// DecodeValue decodes one JSON value, numbers as json.Number.
func DecodeValue(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}

// CloneValue deep-copies a plain JSON value.
func CloneValue(v any) any {
	switch v := v.(type) {
	case []any:
		out := make([]any, len(v))
		for i, item := range v {
			out[i] = CloneValue(item)
		}
		return out
	case map[string]any:
		return CloneVars(v)
	}
	return v
}

func CloneVars(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = CloneValue(v)
	}
	return out
}

// Float returns a pointer to v, for the optional numbers of generated
// settings, such as a task chain's temperature or a model's parameters.
func Float(v float64) *float64 { return &v }
