package jsonpath

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
)

// orderedObject is an object that keeps its members in order, such as the
// one flowc's runtime uses.
type orderedObject interface {
	Keys() []string
	Get(string) (any, bool)
}

// keysOf returns the member names of an object in order (sorted for a
// map) and whether v is an object.
func keysOf(v any) ([]string, bool) {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		return keys, true
	case orderedObject:
		return v.Keys(), true
	}
	return nil, false
}

func isObject(v any) bool {
	switch v.(type) {
	case map[string]any, orderedObject:
		return true
	}
	return false
}

// member reads one member of an object.
func member(v any, name string) (any, bool) {
	switch v := v.(type) {
	case map[string]any:
		m, ok := v[name]
		return m, ok
	case orderedObject:
		return v.Get(name)
	}
	return nil, false
}

func objectLen(v any) int {
	switch v := v.(type) {
	case map[string]any:
		return len(v)
	case orderedObject:
		return len(v.Keys())
	}
	return 0
}

// picked is the object a final ['a','b'] makes: the members named that
// the object has, in the order named.
type picked struct {
	keys   []string
	values map[string]any
}

func (o *picked) Keys() []string { return slices.Clone(o.keys) }

func (o *picked) Get(name string) (any, bool) {
	v, ok := o.values[name]
	return v, ok
}

func (o *picked) set(name string, v any) {
	if _, ok := o.values[name]; !ok {
		o.keys = append(o.keys, name)
	}
	o.values[name] = v
}

// number reads a numeric value.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	}
	return 0, false
}

// javaNumber formats a number as Java prints it, which Jayway uses when
// it compares a number with a string: whole numbers without a fraction.
func javaNumber(n float64) string {
	if n == math.Trunc(n) && math.Abs(n) < 1e15 {
		return strconv.FormatFloat(n, 'f', -1, 64)
	}
	return strconv.FormatFloat(n, 'g', -1, 64)
}

// equalJSON compares two arrays or objects member by member, numbers by
// value.
func equalJSON(a, b any) bool {
	if x, ok := number(a); ok {
		y, ok := number(b)
		return ok && x == y
	}
	switch a := a.(type) {
	case nil:
		return b == nil
	case bool, string:
		return a == b
	case []any:
		b, ok := b.([]any)
		return ok && slices.EqualFunc(a, b, equalJSON)
	}
	ka, ok := keysOf(a)
	kb, okb := keysOf(b)
	if !ok || !okb || len(ka) != len(kb) {
		return false
	}
	for _, k := range ka {
		va, _ := member(a, k)
		vb, found := member(b, k)
		if !found || !equalJSON(va, vb) {
			return false
		}
	}
	return true
}

// compareJavaStrings orders strings as Java's String.compareTo does, by
// UTF-16 code units.
func compareJavaStrings(a, b string) int {
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
}

// javaLength is a string's length in UTF-16 code units.
func javaLength(s string) int { return len(utf16.Encode([]rune(s))) }

// parseJSONLiteral reads a JSON array or object at the start of s, as the
// lenient parser Jayway uses does: strings may also be single-quoted. It
// returns the value and the bytes read.
func parseJSONLiteral(s string) (any, int, error) {
	r := &jsonReader{s: s}
	v, err := r.value(0)
	return v, r.i, err
}

type jsonReader struct {
	s string
	i int
}

var errBadJSON = errors.New("malformed JSON")

func (r *jsonReader) skip() {
	for r.i < len(r.s) && strings.IndexByte(" \t\r\n", r.s[r.i]) >= 0 {
		r.i++
	}
}

func (r *jsonReader) value(depth int) (any, error) {
	if depth > maxDepth {
		return nil, errors.New("JSON literal nests too deeply")
	}
	if r.skip(); r.i >= len(r.s) {
		return nil, errBadJSON
	}
	switch c := r.s[r.i]; {
	case c == '[':
		return r.array(depth)
	case c == '{':
		return r.object(depth)
	case c == '"' || c == '\'':
		return r.str()
	}
	for _, kw := range []struct {
		text string
		v    any
	}{{"true", true}, {"false", false}, {"null", nil}} {
		if strings.HasPrefix(r.s[r.i:], kw.text) {
			r.i += len(kw.text)
			return kw.v, nil
		}
	}
	start := r.i
	for r.i < len(r.s) && (isDigit(r.s[r.i]) || strings.IndexByte("+-.eE", r.s[r.i]) >= 0) {
		r.i++
	}
	n, err := strconv.ParseFloat(r.s[start:r.i], 64)
	if err != nil {
		return nil, errBadJSON
	}
	return n, nil
}

func (r *jsonReader) array(depth int) (any, error) {
	r.i++
	out := []any{}
	if r.skip(); r.i < len(r.s) && r.s[r.i] == ']' {
		r.i++
		return out, nil
	}
	for {
		v, err := r.value(depth + 1)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		if r.skip(); r.i >= len(r.s) {
			return nil, errBadJSON
		}
		r.i++
		switch r.s[r.i-1] {
		case ']':
			return out, nil
		case ',':
			continue
		}
		return nil, errBadJSON
	}
}

func (r *jsonReader) object(depth int) (any, error) {
	r.i++
	out := map[string]any{}
	if r.skip(); r.i < len(r.s) && r.s[r.i] == '}' {
		r.i++
		return out, nil
	}
	for {
		if r.skip(); r.i >= len(r.s) || (r.s[r.i] != '"' && r.s[r.i] != '\'') {
			return nil, errBadJSON
		}
		k, _ := r.str()
		if r.skip(); r.i >= len(r.s) || r.s[r.i] != ':' {
			return nil, errBadJSON
		}
		r.i++
		v, err := r.value(depth + 1)
		if err != nil {
			return nil, err
		}
		out[k.(string)] = v
		if r.skip(); r.i >= len(r.s) {
			return nil, errBadJSON
		}
		r.i++
		switch r.s[r.i-1] {
		case '}':
			return out, nil
		case ',':
			continue
		}
		return nil, errBadJSON
	}
}

func (r *jsonReader) str() (any, error) {
	q := r.s[r.i]
	end := nextUnescaped(r.s, r.i, q)
	if end < 0 {
		r.i = len(r.s)
		return "", errBadJSON
	}
	s := unescape(r.s[r.i+1 : end])
	r.i = end + 1
	return s, nil
}
