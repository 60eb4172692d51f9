package asl

import (
	"errors"
	"fmt"
	"sync"

	"github.com/flowc-dev/flowc/runtime/impl"
	"github.com/flowc-dev/flowc/runtime/jsonpath"
)

// JSONPath is a States Language path: generated code builds it from
// literals. Src is the text as written; it is parsed on first use by
// runtime/jsonpath, which evaluates it as Jayway JsonPath, the engine of
// Step Functions, does. Segs are the steps of a reference path
// (ResultPath), which names one node to set.
type JSONPath struct {
	Src     string
	Context bool // $$: the path reads the context object
	Segs    []PathSeg
	Var     string // $name: the path reads the variable name

	once  sync.Once
	query *jsonpath.Path
	err   error
}

// segKind classifies a PathSeg.
type segKind int

const (
	segField segKind = iota // .name
	segIndex                // [n], negative from the end
)

// PathSeg is one step of a reference path.
type PathSeg struct {
	Kind  segKind
	Name  string
	Index int
}

// Field and Index are the steps, for short generated code.
func Field(name string) PathSeg { return PathSeg{Kind: segField, Name: name} }
func Index(i int) PathSeg       { return PathSeg{Kind: segIndex, Index: i} }

// compiled parses the path once. The root ($$, $name) is read here, so
// the query itself starts at $. A Src that is not a path (the intrinsic
// call of an agent's `Variable.$`) reads the value itself.
func (p *JSONPath) compiled() (*jsonpath.Path, error) {
	p.once.Do(func() {
		text := "$"
		switch {
		case p.Context:
			text += p.Src[min(2, len(p.Src)):]
		case p.Var != "":
			text += p.Src[min(1+len(p.Var), len(p.Src)):]
		case len(p.Src) > 0 && p.Src[0] == '$':
			text = p.Src
		}
		p.query, p.err = jsonpath.Parse(text)
	})
	return p.query, p.err
}

// eval evaluates p against the input in (or the context object, or a
// variable). A definite path gives its value, an indefinite one the list of
// what it matched, possibly empty.
func (p *JSONPath) eval(in any, cx *aslContext) (any, error) {
	q, err := p.compiled()
	if err != nil {
		return nil, err
	}
	root := in
	switch {
	case p.Context:
		root = cx.value()
	case p.Var != "":
		var ok bool
		if root, ok = cx.lookupVar(p.Var); !ok {
			return nil, fmt.Errorf("%w: the variable $%s is not defined", jsonpath.ErrNotFound, p.Var)
		}
	}
	v, err := q.Eval(root)
	if err != nil {
		return nil, err
	}
	return fromQuery(v), nil
}

// Lookup evaluates p and reports whether it found a value.
func (p *JSONPath) Lookup(in any, cx *aslContext) (any, bool) {
	v, err := p.eval(in, cx)
	return v, err == nil
}

// Get is Lookup that fails with States.Runtime when nothing is there, as
// Step Functions does when Jayway finds nothing for a definite path or
// refuses a step.
func (p *JSONPath) Get(in any, cx *aslContext) (any, error) {
	v, err := p.eval(in, cx)
	switch {
	case errors.Is(err, jsonpath.ErrNotFound):
		return nil, runtimeErrorf("the path %q does not point to a value", p.Src)
	case err != nil:
		return nil, runtimeErrorf("the path %q does not point to a value: %v", p.Src, err)
	}
	return v, nil
}

// keyed is an object runtime/jsonpath made: a final ['a','b'] picks
// members into one.
type keyed interface {
	Keys() []string
	Get(string) (any, bool)
}

// fromQuery turns the objects a path made into Objects; values of the
// input come back as they are.
func fromQuery(v any) any {
	switch v := v.(type) {
	case *Object:
		return v
	case keyed:
		o := newObject(len(v.Keys()))
		for _, k := range v.Keys() {
			m, _ := v.Get(k)
			o.set(k, m)
		}
		return o
	case []any:
		for i, item := range v {
			_, isObject := item.(*Object)
			if _, made := item.(keyed); made && !isObject {
				out := append([]any(nil), v[:i]...)
				for _, item := range v[i:] {
					out = append(out, fromQuery(item))
				}
				return out
			}
		}
	}
	return v
}

// order compares two numbers or two strings.
func order(a, b any) (int, bool) {
	switch a := a.(type) {
	case float64:
		if b, ok := b.(float64); ok {
			return cmpOrdered(a, b), true
		}
	case string:
		if b, ok := b.(string); ok {
			return cmpOrdered(a, b), true
		}
	}
	return 0, false
}

func cmpOrdered[T float64 | string](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// setPath places value at the reference path segs inside raw, copying what
// it changes. The raw input must be an object (else
// States.ResultPathMatchFailure); below it, a missing or non-object member
// on the way becomes an object and a missing array item is created, as
// aws-local-stepfunctions does.
func setPath(raw any, segs []PathSeg, value any, src string) (any, error) {
	if len(segs) == 0 {
		return value, nil
	}
	if _, ok := raw.(*Object); !ok {
		return nil, &impl.Error{Name: statesResultPathMatchFailure,
			Cause: fmt.Sprintf("unable to apply ResultPath %q to the state's input: %s is not an object", src, typeName(raw))}
	}
	return place(raw, segs, value), nil
}

// place sets value at segs inside v, building what is missing.
func place(v any, segs []PathSeg, value any) any {
	if len(segs) == 0 {
		return value
	}
	s := segs[0]
	if s.Kind == segIndex {
		arr, _ := v.([]any)
		i := s.Index
		if i < 0 {
			i += len(arr)
		}
		out := append([]any(nil), arr...)
		for len(out) <= i {
			out = append(out, nil)
		}
		if i >= 0 {
			out[i] = place(out[i], segs[1:], value)
		}
		return out
	}
	o, ok := v.(*Object)
	if !ok {
		o = newObject(1)
	}
	child, _ := o.Get(s.Name)
	return o.With(s.Name, place(child, segs[1:], value))
}
