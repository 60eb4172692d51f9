package impl

import "fmt"

// JSONPath is a States Language path compiled by flowc: generated code
// builds it from literals, so no path text is parsed at run time. Src is
// the text as written, for messages.
type JSONPath struct {
	Src     string
	Context bool // $$: the path reads the context object
	Segs    []PathSeg
	Current bool   // @: the path reads the element a filter tests
	Var     string // $name: the path reads the variable name
}

// SegKind classifies a PathSeg.
type SegKind int

const (
	SegField     SegKind = iota // .name
	SegIndex                    // [n], negative from the end
	SegWildcard                 // .* or [*]
	SegSlice                    // [start:end:step]
	SegUnion                    // [a,b]
	SegRecursive                // ..name, or ..* when Name is ""
	SegFilter                   // [?(...)]
	SegFunction                 // .length() and the like, the last step
)

// PathSeg is one step of a JSONPath.
type PathSeg struct {
	Kind             SegKind
	Name             string
	Index            int
	Names            []string
	Indexes          []int
	Start, End, Step int
	HasStart, HasEnd bool
	Filter           *PathFilter
}

// Field, Index and Wildcard are the common steps, for short generated code.
func Field(name string) PathSeg { return PathSeg{Kind: SegField, Name: name} }
func Index(i int) PathSeg       { return PathSeg{Kind: SegIndex, Index: i} }
func Wildcard() PathSeg         { return PathSeg{Kind: SegWildcard} }

// PathFilter is the condition of a [?(...)] step.
type PathFilter struct {
	Op    string // "&&", "||", "!", "exists", "==", "!=", "<", "<=", ">", ">="
	Rel   []PathSeg
	Value any
	Args  []*PathFilter
	Other *JSONPath // instead of Value: a $ or @ path
}

// definite reports whether the path names at most one value. As in
// Jayway, a final union of names is definite (it picks members of one
// object), and so is a final function.
func (p *JSONPath) definite() bool {
	for i, s := range p.Segs {
		last := i == len(p.Segs)-1
		if s.Kind != SegField && s.Kind != SegIndex && !(last && (s.Kind == SegFunction || s.Kind == SegUnion && s.Names != nil)) {
			return false
		}
	}
	return true
}

// Lookup evaluates p against the input in (or the context object) and
// reports whether it found a value. An indefinite path yields the list of
// what it matched, possibly empty.
func (p *JSONPath) Lookup(in any, cx *aslContext) (any, bool) {
	root := in
	switch {
	case p.Context:
		root = cx.value()
	case p.Var != "":
		var ok bool
		if root, ok = cx.lookupVar(p.Var); !ok {
			return nil, false
		}
	}
	segs := p.Segs
	if n := len(segs); n > 0 && segs[n-1].Kind == SegFunction {
		v, ok := (&JSONPath{Segs: segs[:n-1]}).lookupFrom(root, cx)
		if !ok {
			return nil, false
		}
		return pathFunction(segs[n-1].Name, v)
	}
	return p.lookupFrom(root, cx)
}

// lookupFrom evaluates the path's steps from root.
func (p *JSONPath) lookupFrom(root any, cx *aslContext) (any, bool) {
	if p.definite() {
		return walkDefinite(root, p.Segs)
	}
	var out []any
	(&pathEval{root: root, cx: cx}).collect(root, p.Segs, &out)
	if out == nil {
		out = []any{}
	}
	return out, true
}

// Get is Lookup that fails with States.Runtime when nothing is there.
func (p *JSONPath) Get(in any, cx *aslContext) (any, error) {
	v, ok := p.Lookup(in, cx)
	if !ok {
		return nil, runtimeErrorf("the path %q does not point to a value", p.Src)
	}
	return v, nil
}

func walkDefinite(v any, segs []PathSeg) (any, bool) {
	for _, s := range segs {
		var ok bool
		if v, ok = step(v, s); !ok {
			return nil, false
		}
	}
	return v, true
}

// step follows a field or index step.
func step(v any, s PathSeg) (any, bool) {
	switch s.Kind {
	case SegField:
		switch v := v.(type) {
		case *Object:
			return v.Get(s.Name)
		case []any:
			// JavaScript's length, which aws-local-stepfunctions'
			// JSONPath engine reads as a member.
			if s.Name == "length" {
				return float64(len(v)), true
			}
		}
		return nil, false
	case SegIndex:
		a, ok := v.([]any)
		i := s.Index
		if i < 0 {
			i += len(a)
		}
		if !ok || i < 0 || i >= len(a) {
			return nil, false
		}
		return a[i], true
	case SegUnion:
		if o, ok := v.(*Object); ok {
			return pick(o, s.Names), true
		}
	}
	return nil, false
}

// pick is what a final ['a','b'] makes of an object in Jayway: one object
// of the members named, in that order, leaving out those it lacks.
func pick(o *Object, names []string) *Object {
	out := newObject(len(names))
	for _, name := range names {
		if v, ok := o.Get(name); ok {
			out.set(name, v)
		}
	}
	return out
}

// pathEval evaluates an indefinite path: filters may read the document
// root and the context object.
type pathEval struct {
	root any
	cx   *aslContext
}

// collect appends every match of segs under v to out.
func (e *pathEval) collect(v any, segs []PathSeg, out *[]any) {
	if len(segs) == 0 {
		*out = append(*out, v)
		return
	}
	s, rest := segs[0], segs[1:]
	switch s.Kind {
	case SegField, SegIndex:
		if item, ok := step(v, s); ok {
			e.collect(item, rest, out)
		}
	case SegWildcard:
		forChildren(v, func(item any) { e.collect(item, rest, out) })
	case SegSlice:
		if a, ok := v.([]any); ok {
			for _, i := range sliceIndexes(len(a), s) {
				e.collect(a[i], rest, out)
			}
		}
	case SegUnion:
		if o, ok := v.(*Object); ok && len(rest) == 0 && len(s.Names) > 0 {
			*out = append(*out, pick(o, s.Names))
			return
		}
		for _, name := range s.Names {
			e.collect(v, append([]PathSeg{Field(name)}, rest...), out)
		}
		for _, i := range s.Indexes {
			e.collect(v, append([]PathSeg{Index(i)}, rest...), out)
		}
	case SegRecursive:
		e.descend(v, s.Name, rest, out)
	case SegFilter:
		// As in Jayway, a filter tests an array's items, or an object itself.
		if o, ok := v.(*Object); ok {
			if e.test(s.Filter, o) {
				e.collect(o, rest, out)
			}
			return
		}
		forChildren(v, func(item any) {
			if e.test(s.Filter, item) {
				e.collect(item, rest, out)
			}
		})
	}
}

// descend matches name (or every member when name is "") at every depth.
func (e *pathEval) descend(v any, name string, rest []PathSeg, out *[]any) {
	if name == "" {
		forChildren(v, func(item any) {
			e.collect(item, rest, out)
			e.descend(item, name, rest, out)
		})
		return
	}
	if o, ok := v.(*Object); ok {
		if item, ok := o.Get(name); ok {
			e.collect(item, rest, out)
		}
	}
	forChildren(v, func(item any) { e.descend(item, name, rest, out) })
}

// forChildren visits an array's items or an object's members in order.
func forChildren(v any, f func(any)) {
	switch v := v.(type) {
	case []any:
		for _, item := range v {
			f(item)
		}
	case *Object:
		for _, m := range v.members {
			f(m.value)
		}
	}
}

// sliceIndexes resolves [start:end:step] against a length, as Python does.
func sliceIndexes(n int, s PathSeg) []int {
	clamp := func(i int) int {
		if i < 0 {
			i += n
		}
		return min(max(i, 0), n)
	}
	start, end := 0, n
	if s.HasStart {
		start = clamp(s.Start)
	}
	if s.HasEnd {
		end = clamp(s.End)
	}
	var out []int
	for i := start; i < end; i += max(s.Step, 1) {
		out = append(out, i)
	}
	return out
}

// test reports whether the element v passes the filter f.
func (e *pathEval) test(f *PathFilter, v any) bool {
	switch f.Op {
	case "&&":
		for _, a := range f.Args {
			if !e.test(a, v) {
				return false
			}
		}
		return true
	case "||":
		for _, a := range f.Args {
			if e.test(a, v) {
				return true
			}
		}
		return false
	case "!":
		return !e.test(f.Args[0], v)
	}
	got, ok := walkDefinite(v, f.Rel)
	if f.Op == "exists" {
		return ok
	}
	want, found := f.Value, true
	if f.Other != nil {
		want, found = e.operand(f.Other, v)
	}
	return ok && found && compareFilter(got, f.Op, want)
}

// operand reads the path a filter compares with: relative to the element
// v, or to the document (or context object) the whole path reads.
func (e *pathEval) operand(p *JSONPath, v any) (any, bool) {
	if p.Current {
		return walkDefinite(v, p.Segs)
	}
	if p.Context {
		return p.Lookup(nil, e.cx)
	}
	return p.Lookup(e.root, e.cx)
}

func compareFilter(a any, op string, b any) bool {
	switch op {
	case "==":
		return equalJSON(a, b)
	case "!=":
		return !equalJSON(a, b)
	}
	c, ok := order(a, b)
	if !ok {
		return false
	}
	switch op {
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	}
	return c >= 0
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
		return nil, &Error{Name: StatesResultPathMatchFailure,
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
	if s.Kind == SegIndex {
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
