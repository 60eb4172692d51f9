package asl

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// Object is a JSON object that keeps its members in the order they were
// added, as JavaScript objects, and so Step Functions, do. The order shows
// wherever a value becomes text (States.JsonToString, States.Format). An
// Object is never changed once shared: With returns a changed copy.
//
// Handlers see plain map[string]any values unless they implement
// OrderedHandlers; Run takes and returns plain values too.
type Object struct {
	members []member
	index   map[string]int // built for large objects only
}

type member struct {
	key   string
	value any
}

// indexAbove is the size from which an Object keeps a key index; below it
// a linear scan is faster.
const indexAbove = 16

// newObject returns an empty object with room for n members.
func newObject(n int) *Object { return &Object{members: make([]member, 0, n)} }

// Len returns the number of members.
func (o *Object) Len() int { return len(o.members) }

// Get returns the value of key.
func (o *Object) Get(key string) (any, bool) {
	if i := o.find(key); i >= 0 {
		return o.members[i].value, true
	}
	return nil, false
}

// Keys returns the keys in order.
func (o *Object) Keys() []string {
	keys := make([]string, len(o.members))
	for i, m := range o.members {
		keys[i] = m.key
	}
	return keys
}

func (o *Object) find(key string) int {
	if o.index != nil {
		if i, ok := o.index[key]; ok {
			return i
		}
		return -1
	}
	for i := range o.members {
		if o.members[i].key == key {
			return i
		}
	}
	return -1
}

// set adds or replaces a member in place; only for an Object that is still
// being built and not yet shared.
func (o *Object) set(key string, value any) {
	if i := o.find(key); i >= 0 {
		o.members[i].value = value
		return
	}
	o.members = append(o.members, member{key, value})
	switch {
	case o.index != nil:
		o.index[key] = len(o.members) - 1
	case len(o.members) > indexAbove:
		o.index = make(map[string]int, len(o.members))
		for i, m := range o.members {
			o.index[m.key] = i
		}
	}
}

// With returns a copy of o with key set to value: replaced in place when
// present, added last otherwise.
func (o *Object) With(key string, value any) *Object {
	out := &Object{members: make([]member, len(o.members), len(o.members)+1)}
	copy(out.members, o.members)
	if o.index != nil {
		out.index = make(map[string]int, len(o.index)+1)
		for k, i := range o.index {
			out.index[k] = i
		}
	}
	out.set(key, value)
	return out
}

// MarshalJSON encodes the members in JavaScript's order: keys that are
// array indexes first, ascending, then the others in insertion order.
func (o *Object) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	first := true
	write := func(m member) error {
		if !first {
			buf.WriteByte(',')
		}
		first = false
		k, _ := impl.EncodeJSON(m.key)
		buf.Write(k)
		buf.WriteByte(':')
		v, err := impl.EncodeJSON(m.value)
		buf.Write(v)
		return err
	}
	for _, m := range o.indexKeysFirst() {
		if err := write(m); err != nil {
			return nil, err
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// indexKeysFirst orders the members as JavaScript enumerates them.
func (o *Object) indexKeysFirst() []member {
	var idx, rest []member
	for _, m := range o.members {
		if isArrayIndex(m.key) {
			idx = append(idx, m)
		} else {
			rest = append(rest, m)
		}
	}
	if len(idx) == 0 {
		return o.members
	}
	sortMembersByIndex(idx)
	return append(idx, rest...)
}

func isArrayIndex(k string) bool {
	n, err := strconv.ParseUint(k, 10, 32)
	return err == nil && strconv.FormatUint(n, 10) == k && n < 1<<32-1
}

func sortMembersByIndex(ms []member) {
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0; j-- {
			a, _ := strconv.ParseUint(ms[j-1].key, 10, 32)
			b, _ := strconv.ParseUint(ms[j].key, 10, 32)
			if a <= b {
				break
			}
			ms[j-1], ms[j] = ms[j], ms[j-1]
		}
	}
}

// Plain returns v with every Object turned into a map[string]any, for user
// code.
func Plain(v any) any { return plainAs(v, nil) }

// plainAs is Plain with JSON null given as null.
func plainAs(v, null any) any {
	switch v := v.(type) {
	case nil:
		return null
	case *Object:
		out := make(map[string]any, len(v.members))
		for _, m := range v.members {
			out[m.key] = plainAs(m.value, null)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, item := range v {
			out[i] = plainAs(item, null)
		}
		return out
	}
	return v
}

// decodeOrdered decodes one JSON value with its objects as Objects.
func decodeOrdered(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			arr := []any{}
			for dec.More() {
				v, err := decodeOrdered(dec)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			_, err := dec.Token()
			return arr, err
		}
		obj := newObject(4)
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeOrdered(dec)
			if err != nil {
				return nil, err
			}
			obj.set(k.(string), v)
		}
		_, err := dec.Token()
		return obj, err
	}
	return tok, nil
}

// Obj builds an object from alternating keys and values, for generated
// code: Obj("a", 1.0, "b", "x"). Keys must be strings.
func Obj(kv ...any) *Object {
	o := newObject(len(kv) / 2)
	for i := 0; i+1 < len(kv); i += 2 {
		o.set(kv[i].(string), kv[i+1])
	}
	return o
}
