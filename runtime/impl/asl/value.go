package asl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// States Language workflows run over JSON values: nil, bool, float64,
// string, []any and *Object. Numbers are float64, as in JavaScript
// and so in Step Functions, and encoding/json prints them the way
// JavaScript does (3, not 3.0). Values are never changed in place once a
// run holds them: every operation that builds a value copies what it
// changes, so states, branches and items can share the rest.

// DecodeASLInput decodes the input of a `flowc run`: any JSON value.
func DecodeASLInput(data []byte) (any, error) {
	v, err := decodeJSON(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", impl.ErrInput, err)
	}
	return v, nil
}

// decodeJSON decodes exactly one JSON value, objects as Objects.
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	v, err := decodeOrdered(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("unexpected data after the JSON value")
	}
	return v, nil
}

// normalize brings a value from Go code (a handler's result, Run's input)
// into the JSON value form. A map's members are ordered by key, the order
// encoding/json gives them; structs and other types go through
// encoding/json.
func normalize(v any) (any, error) {
	switch v := v.(type) {
	case nil, bool, string:
		return v, nil
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return nil, fmt.Errorf("%v is not a JSON number", v)
		}
		return v, nil
	case int:
		return float64(v), nil
	case []any:
		out := make([]any, len(v))
		for i, item := range v {
			n, err := normalize(item)
			if err != nil {
				return nil, err
			}
			out[i] = n
		}
		return out, nil
	case map[string]any:
		keys := slices.Sorted(maps.Keys(v))
		out := newObject(len(keys))
		for _, k := range keys {
			n, err := normalize(v[k])
			if err != nil {
				return nil, err
			}
			out.set(k, n)
		}
		return out, nil
	case *Object:
		out := newObject(v.Len())
		for _, m := range v.members {
			n, err := normalize(m.value)
			if err != nil {
				return nil, err
			}
			out.set(m.key, n)
		}
		return out, nil
	case orderedObject: // a JSONata result's object, in its order
		out := newObject(v.Len())
		for _, k := range v.Keys() {
			m, _ := v.Get(k)
			n, err := normalize(m)
			if err != nil {
				return nil, err
			}
			out.set(k, n)
		}
		return out, nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return decodeJSON(data)
}

// orderedObject is an object of another package that keeps its members'
// order, as the JSONata evaluator's results do.
type orderedObject interface {
	Len() int
	Keys() []string
	Get(key string) (any, bool)
}

// equalJSON compares two JSON values; member order does not matter.
func equalJSON(a, b any) bool {
	switch a := a.(type) {
	case []any:
		bs, ok := b.([]any)
		if !ok || len(a) != len(bs) {
			return false
		}
		for i := range a {
			if !equalJSON(a[i], bs[i]) {
				return false
			}
		}
		return true
	case *Object:
		bo, ok := b.(*Object)
		if !ok || a.Len() != bo.Len() {
			return false
		}
		for _, m := range a.members {
			w, ok := bo.Get(m.key)
			if !ok || !equalJSON(m.value, w) {
				return false
			}
		}
		return true
	}
	return a == b
}

// typeName names a JSON value's type for error messages.
func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case *Object:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// isInteger reports whether v is a number without a fraction.
func isInteger(v any) bool {
	f, ok := v.(float64)
	return ok && f == math.Trunc(f) && !math.IsInf(f, 0)
}

// formatValue renders a value placed into a string, as JavaScript's
// String() would: strings as they are, numbers without exponent noise.
func formatValue(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(v)
	}
	return impl.JSONText(v)
}

// EmptyASLInput is the input of a new States Language session given none:
// {}, as for a run.
func EmptyASLInput() any { return newObject(0) }

// MergeASLInput folds the input given to Invoke into the saved input of a
// States Language session, which has no reducers: the members of an object
// are set on the saved object, replacing those of the same name (a shallow
// merge, as States.JsonMerge does); any other value replaces the saved one.
func MergeASLInput(saved *any, in any) {
	v, err := normalize(in)
	if err != nil {
		*saved = in // not JSON: the run reports it
		return
	}
	old, ok1 := (*saved).(*Object)
	upd, ok2 := v.(*Object)
	if !ok1 || !ok2 {
		*saved = v
		return
	}
	out := newObject(old.Len() + upd.Len())
	for _, m := range old.members {
		out.set(m.key, m.value)
	}
	for _, m := range upd.members {
		out.set(m.key, m.value)
	}
	*saved = out
}

// mapStrings applies f to every string of a JSON value, keys aside: the
// guardrails' redactions (flowcagent.Guard).
func mapStrings(v any, f func(string) string) any {
	switch v := v.(type) {
	case string:
		return f(v)
	case []any:
		out := make([]any, len(v))
		for i, item := range v {
			out[i] = mapStrings(item, f)
		}
		return out
	case *Object:
		out := newObject(v.Len())
		for _, m := range v.members {
			out.set(m.key, mapStrings(m.value, f))
		}
		return out
	}
	return v
}
