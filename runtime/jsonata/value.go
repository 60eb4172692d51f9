package jsonata

import (
	"bytes"
	"encoding/json"
	"math"
	"sort"
)

// Object is a JSON object that keeps its keys in insertion order; every object
// an expression builds is one. Small objects are searched linearly, larger
// ones through an index built on demand.
type Object struct {
	keys  []string
	vals  []any
	index map[string]int
}

const objectIndexFrom = 12

func newObject(n int) *Object {
	return &Object{keys: make([]string, 0, n), vals: make([]any, 0, n)}
}

// Keys returns the keys in the order JavaScript enumerates them: array-index
// keys ("0", "1", ...) first in numeric order, then the rest as inserted.
func (o *Object) Keys() []string { return jsKeyOrder(o.keys) }

// Get returns the value of key k.
func (o *Object) Get(k string) (any, bool) {
	if i := o.find(k); i >= 0 {
		return o.vals[i], true
	}
	return nil, false
}

// Len is the number of keys.
func (o *Object) Len() int { return len(o.keys) }

func (o *Object) find(k string) int {
	if o.index != nil {
		if i, ok := o.index[k]; ok {
			return i
		}
		return -1
	}
	for i, key := range o.keys {
		if key == k {
			return i
		}
	}
	return -1
}

func (o *Object) set(k string, v any) {
	if i := o.find(k); i >= 0 {
		o.vals[i] = v
		return
	}
	o.keys = append(o.keys, k)
	o.vals = append(o.vals, v)
	switch {
	case o.index != nil:
		o.index[k] = len(o.keys) - 1
	case len(o.keys) >= objectIndexFrom:
		o.index = make(map[string]int, len(o.keys)*2)
		for i, key := range o.keys {
			o.index[key] = i
		}
	}
}

func (o *Object) del(k string) {
	i := o.find(k)
	if i < 0 {
		return
	}
	o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
	o.vals = append(o.vals[:i:i], o.vals[i+1:]...)
	if o.index != nil {
		o.index = nil
		if len(o.keys) >= objectIndexFrom {
			o.index = make(map[string]int, len(o.keys)*2)
			for j, key := range o.keys {
				o.index[key] = j
			}
		}
	}
}

// MarshalJSON writes the object with its keys in order.
func (o *Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.Keys() {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		vb, err := json.Marshal(exportJSON(o.vals[o.find(k)]))
		if err != nil {
			return nil, err
		}
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// exportJSON maps the values encoding/json cannot write (functions, NaN) to
// what JSON.stringify writes for them.
func exportJSON(v any) any {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
	case callable:
		return ""
	case *seq:
		return x.v
	}
	return v
}

// ordered is how the evaluator reads an object it did not build (flowc's
// runtime *Object, or this package's).
type ordered interface {
	Keys() []string
	Get(string) (any, bool)
}

// seq is a JSONata sequence: the result of a path or a function, flattened
// into its parent sequence and unwrapped when it holds one value unless keep
// is set (the [] operator).
type seq struct {
	v     []any
	keep  bool
	outer bool // the whole input array, wrapped so a path sees it as one item
}

func newSeq(n int) *seq { return &seq{v: make([]any, 0, n)} }

// arrayOf returns the items of an array or sequence.
func arrayOf(v any) ([]any, bool) {
	switch x := v.(type) {
	case []any:
		return x, true
	case *seq:
		return x.v, true
	}
	return nil, false
}

// isObject reports whether v is a JSON object.
func isObject(v any) bool {
	switch v.(type) {
	case map[string]any, ordered:
		return true
	}
	return false
}

// objectKeys lists an object's keys; a Go map's in sorted order so that a
// result never depends on map iteration.
func objectKeys(v any) []string {
	switch x := v.(type) {
	case *Object:
		return x.Keys()
	case ordered:
		return jsKeyOrder(x.Keys())
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		return jsKeyOrder(keys)
	}
	return nil
}

// jsKeyOrder moves array-index keys to the front in numeric order, the order
// in which JavaScript, and so JSONata, enumerates an object's keys.
func jsKeyOrder(keys []string) []string {
	n := 0
	for _, k := range keys {
		if isArrayIndex(k) {
			n++
		}
	}
	if n == 0 {
		return keys
	}
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		if isArrayIndex(k) {
			out = append(out, k)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i]) != len(out[j]) {
			return len(out[i]) < len(out[j])
		}
		return out[i] < out[j]
	})
	for _, k := range keys {
		if !isArrayIndex(k) {
			out = append(out, k)
		}
	}
	return out
}

// isArrayIndex reports whether k is a canonical integer below 2^32-1.
func isArrayIndex(k string) bool {
	if k == "" || len(k) > 10 || (k[0] == '0' && len(k) > 1) {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < '0' || k[i] > '9' {
			return false
		}
	}
	return len(k) < 10 || k < "4294967295"
}

func objectGet(v any, k string) (any, bool) {
	switch x := v.(type) {
	case ordered:
		r, ok := x.Get(k)
		return normalize(r), ok
	case map[string]any:
		r, ok := x[k]
		return normalize(r), ok
	}
	return nil, false
}

// normalize turns the number types a Go caller may pass into float64.
func normalize(v any) any {
	switch x := v.(type) {
	case int:
		return float64(x)
	case int64:
		return float64(x)
	case int32:
		return float64(x)
	case uint:
		return float64(x)
	case uint64:
		return float64(x)
	case uint32:
		return float64(x)
	case float32:
		return float64(x)
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return x.String()
		}
		return f
	}
	return v
}

func asNumber(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int, int64, int32, uint, uint64, uint32, float32, json.Number:
		f, ok := normalize(x).(float64)
		return f, ok
	}
	return 0, false
}

func isInteger(f float64) bool { return f == math.Trunc(f) && !math.IsInf(f, 0) }

// undef marks "no value" where a Go nil would mean JSON null.
type undefinedT struct{}

var undefined any = undefinedT{}

func isUndef(v any) bool { _, ok := v.(undefinedT); return ok }

// toOutput turns sequences into arrays for values that leave the evaluator or
// are stored in a structure.
func toOutput(v any) any {
	if s, ok := v.(*seq); ok {
		return s.v
	}
	return v
}
