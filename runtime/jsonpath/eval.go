package jsonpath

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// evaluator walks a document along a path's tokens, as Jayway's PathToken
// classes do, collecting what the last token reaches.
type evaluator struct {
	root any
	// require is Jayway's REQUIRE_PROPERTIES, which an existence test in a
	// filter uses: any missing member makes the path name nothing.
	require bool
	work    *int
	results []any
}

// eval evaluates p starting from start (the document, or the item a
// filter tests) in the document root.
func (p *Path) eval(start, root any, require bool, work *int) (any, error) {
	e := &evaluator{root: root, require: require, work: work}
	if err := e.run(p.tokens, 0, start); err != nil {
		return nil, err
	}
	var v any = e.results
	if p.stepsDefinite {
		if len(e.results) == 0 {
			return nil, ErrNotFound
		}
		v = e.results[len(e.results)-1]
	} else if e.results == nil {
		v = []any{}
	}
	if p.aggregate != "" {
		return callFunction(p.aggregate, v)
	}
	return v, nil
}

func notFoundf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrNotFound, fmt.Sprintf(format, args...))
}

// run applies toks[i:] to m.
func (e *evaluator) run(toks []token, i int, m any) error {
	if i == len(toks) {
		e.results = append(e.results, m)
		return nil
	}
	if *e.work++; *e.work > workLimit {
		return errTooMuchWork
	}
	t := &toks[i]
	switch t.kind {
	case tokProperty:
		return e.property(toks, i, m)
	case tokIndex:
		arr, ok, err := e.array(t, m)
		if !ok {
			return err
		}
		for _, idx := range t.indexes {
			if err := e.item(toks, i, arr, idx); err != nil {
				return err
			}
		}
	case tokSlice:
		arr, ok, err := e.array(t, m)
		if !ok {
			return err
		}
		from, to := t.slice.bounds(len(arr))
		for idx := from; idx < to; idx++ {
			if err := e.item(toks, i, arr, idx); err != nil {
				return err
			}
		}
	case tokWildcard:
		return e.wildcard(toks, i, m)
	case tokScan:
		return e.walk(toks, i+1, m)
	case tokFilter:
		return e.filter(toks, i, m)
	case tokFunction:
		v, err := callFunction(t.function, m)
		if err != nil {
			return err
		}
		return e.run(toks, i+1, v)
	}
	return nil
}

// property follows one name, or each of several; a final list of names
// picks them into one object.
func (e *evaluator) property(toks []token, i int, m any) error {
	t := &toks[i]
	if !isObject(m) {
		if !t.upDefinite {
			return nil
		}
		return notFoundf("expected an object with %q, found %s", t.names[0], kindName(m))
	}
	if len(t.names) > 1 && t.leaf {
		return e.pick(t, m)
	}
	for _, name := range t.names {
		v, ok := member(m, name)
		if ok {
			if err := e.run(toks, i+1, v); err != nil {
				return err
			}
			continue
		}
		// A missing member is an error where the path up to it is
		// definite (or, in an existence test, anywhere), except as the
		// last step, where the path just names nothing.
		if e.require || !t.leaf && t.upDefinite && t.definite() {
			return notFoundf("no member %q", name)
		}
	}
	return nil
}

func (e *evaluator) pick(t *token, m any) error {
	out := &picked{values: map[string]any{}}
	for _, name := range t.names {
		if v, ok := member(m, name); ok {
			out.set(name, v)
		} else if e.require {
			return notFoundf("no member %q", name)
		}
	}
	e.results = append(e.results, out)
	return nil
}

// array returns m as an array; ok false, with an error where the path up
// to t is definite, when it is not one.
func (e *evaluator) array(t *token, m any) ([]any, bool, error) {
	arr, ok := m.([]any)
	if ok {
		return arr, true, nil
	}
	if !t.upDefinite {
		return nil, false, nil
	}
	return nil, false, notFoundf("expected an array, found %s", kindName(m))
}

// item follows index idx of arr, negative from the end; out of range
// names nothing.
func (e *evaluator) item(toks []token, i int, arr []any, idx int) error {
	if idx < 0 {
		idx += len(arr)
	}
	if idx < 0 || idx >= len(arr) {
		return nil
	}
	return e.run(toks, i+1, arr[idx])
}

// bounds resolves a slice against an array's length as Jayway does: a
// negative start counts from the end only without an end, and a negative
// end always does; an index still negative counts from the end when read.
func (s sliceOp) bounds(n int) (int, int) {
	switch {
	case s.hasFrom && !s.hasTo:
		from := s.from
		if from < 0 {
			from += n
		}
		return max(from, 0), n
	case s.hasFrom:
		// Indexes below -n name nothing: start there at the lowest.
		return max(s.from, -n), min(n, s.to)
	}
	to := s.to
	if to < 0 {
		to += n
	}
	return 0, min(n, to)
}

func (e *evaluator) wildcard(toks []token, i int, m any) error {
	if arr, ok := m.([]any); ok {
		for _, v := range arr {
			err := e.run(toks, i+1, v)
			if err != nil && (e.require || !errors.Is(err, ErrNotFound)) {
				return err
			}
		}
		return nil
	}
	keys, _ := keysOf(m)
	for _, k := range keys {
		v, _ := member(m, k)
		if err := e.run(toks, i+1, v); err != nil {
			return err
		}
	}
	return nil
}

// walk is the deep scan: toks[j] applies to m and to everything below it
// that it suits, parents before children.
func (e *evaluator) walk(toks []token, j int, m any) error {
	if *e.work++; *e.work > workLimit {
		return errTooMuchWork
	}
	var children []any
	switch m := m.(type) {
	case []any:
		children = m
	default:
		keys, ok := keysOf(m)
		if !ok {
			return nil
		}
		for _, k := range keys {
			v, _ := member(m, k)
			children = append(children, v)
		}
	}
	if e.suits(&toks[j], m) {
		if err := e.run(toks, j, m); err != nil {
			return err
		}
	}
	for _, c := range children {
		if err := e.walk(toks, j, c); err != nil {
			return err
		}
	}
	return nil
}

// suits is the test Jayway's deep scan applies before the step after it.
func (e *evaluator) suits(t *token, m any) bool {
	switch t.kind {
	case tokProperty:
		if !isObject(m) {
			return false
		}
		// A step that gives one value (one name, or the last step's
		// names picked into one object) takes only the objects that hold
		// all its names: Jayway's PropertyPathTokenPredicate, so
		// $..['c','d'] picks from the objects with both c and d.
		if e.require || t.definite() {
			for _, name := range t.names {
				if _, ok := member(m, name); !ok {
					return false
				}
			}
		}
		return true
	case tokIndex, tokSlice:
		_, ok := m.([]any)
		return ok
	case tokWildcard:
		return true
	case tokFilter:
		return t.filter.test(e, m)
	}
	return false
}

// filter keeps an object that passes, or the items of an array that pass.
func (e *evaluator) filter(toks []token, i int, m any) error {
	t := &toks[i]
	if arr, ok := m.([]any); ok {
		for idx, item := range arr {
			if t.filter.test(e, item) {
				if err := e.item(toks, i, arr, idx); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if isObject(m) {
		if t.filter.test(e, m) {
			return e.run(toks, i+1, m)
		}
		return nil
	}
	if t.upDefinite {
		return fmt.Errorf("a filter cannot be applied to %s", kindName(m))
	}
	return nil
}

func kindName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case []any:
		return "an array"
	}
	if _, ok := number(v); ok {
		return "a number"
	}
	if isObject(v) {
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// callFunction applies a Jayway path function to v.
func callFunction(name string, v any) (any, error) {
	switch name {
	case "length":
		if arr, ok := v.([]any); ok {
			return float64(len(arr)), nil
		}
		if isObject(v) {
			return float64(objectLen(v)), nil
		}
		return nil, nil
	case "keys":
		keys, ok := keysOf(v)
		if !ok {
			return nil, nil
		}
		out := make([]any, len(keys))
		for i, k := range keys {
			out[i] = k
		}
		return out, nil
	case "first", "last":
		arr, _ := v.([]any)
		if len(arr) == 0 {
			return nil, notFoundf("%s() of %s", name, kindName(v))
		}
		if name == "first" {
			return arr[0], nil
		}
		return arr[len(arr)-1], nil
	}
	return aggregate(name, v)
}

// aggregate is min, max, avg, sum or stddev over the numbers of an array,
// other items skipped.
func aggregate(name string, v any) (any, error) {
	arr, _ := v.([]any)
	var nums []float64
	for _, item := range arr {
		if n, ok := number(item); ok {
			nums = append(nums, n)
		}
	}
	if len(nums) == 0 {
		return nil, fmt.Errorf("%s() needs an array with numbers", name)
	}
	sum, squares := 0.0, 0.0
	for _, n := range nums {
		sum += n
		squares += n * n
	}
	count := float64(len(nums))
	switch name {
	case "min":
		return slices.Min(nums), nil
	case "max":
		return slices.Max(nums), nil
	case "sum":
		return sum, nil
	case "avg":
		return sum / count, nil
	}
	mean := sum / count
	return math.Sqrt(max(squares/count-mean*mean, 0)), nil
}
