package jsonata

import "math"

// tuple is one item of a tuple stream: the context and the focus, index and
// parent variables the steps so far bound.
type tuple struct {
	at    any
	names []string
	vals  []any
}

type tuples []*tuple

func (t *tuple) get(name string) (any, bool) {
	for i, n := range t.names {
		if n == name {
			return t.vals[i], true
		}
	}
	return undefined, false
}

func (t *tuple) set(name string, v any) {
	for i, n := range t.names {
		if n == name {
			t.vals[i] = v
			return
		}
	}
	t.names = append(t.names, name)
	t.vals = append(t.vals, v)
}

func (t *tuple) clone() *tuple {
	c := &tuple{at: t.at, names: make([]string, len(t.names), len(t.names)+2), vals: make([]any, len(t.vals), len(t.vals)+2)}
	copy(c.names, t.names)
	copy(c.vals, t.vals)
	return c
}

// tupleFrame is a scope holding t's variables; it borrows t's slices and
// copies them only if the scope binds something itself.
func tupleFrame(parent *frame, t *tuple) *frame {
	n := len(t.names)
	return &frame{parent: parent, names: t.names[:n:n], vals: t.vals[:n:n], borrowed: true}
}

func (e *evaluator) path(n *node, input any, f *frame) (any, error) {
	var one [1]any // the input sequence of a single item, without allocating
	var in []any
	if arr, ok := arrayOf(input); ok && n.steps[0].kind != kVariable {
		in = arr
	} else {
		one[0] = input
		in = one[:]
	}
	var (
		res      any = undefined
		ts       tuples
		isTuple  bool
		rawCons  bool
		lastStep = len(n.steps) - 1
	)
	for i, st := range n.steps {
		if st.tuple {
			isTuple = true
		}
		var err error
		switch {
		case i == 0 && st.consArray:
			inVal := input // an array is the input sequence as it is
			if _, ok := arrayOf(input); !ok {
				inVal = &seq{v: []any{input}}
			}
			res, err = e.eval(st, inVal, f)
			rawCons = true
		case isTuple:
			ts, err = e.tupleStep(st, in, ts, f)
		default:
			res, rawCons, err = e.step(st, in, f, i == lastStep)
		}
		if err != nil {
			return nil, err
		}
		if !isTuple {
			items, ok := arrayOf(res)
			if !ok {
				if isUndef(res) {
					break
				}
				one[0] = res
				items = one[:]
			}
			if len(items) == 0 {
				break
			}
			if st.focus == "" {
				in = items
			}
		}
	}
	if isTuple {
		if n.tuple {
			res = ts
		} else {
			out := newSeq(len(ts))
			for _, t := range ts {
				out.v = append(out.v, t.at)
			}
			res = out
		}
	}
	if n.keepSingletonArray {
		switch x := res.(type) {
		case []any:
			if rawCons {
				res = &seq{v: []any{x}, keep: true}
			}
		case *seq:
			x.keep = true
		case undefinedT:
		default:
			if !isTuple {
				res = &seq{v: []any{x}, keep: true}
			}
		}
	}
	if n.group != nil {
		var g any = res
		if isTuple {
			g = ts
		}
		return e.groupBy(n.group, g, f)
	}
	return res, nil
}

// step evaluates one path step against every item of the input sequence;
// rawCons reports that the result is an array constructor's own array.
func (e *evaluator) step(st *node, in []any, f *frame, last bool) (any, bool, error) {
	if st.kind == kSort {
		r, err := e.sortItems(st, in, nil, f)
		if err != nil {
			return nil, false, err
		}
		return e.stages(st, r, f)
	}
	if len(in) == 1 {
		return e.stepOne(st, in[0], f, last)
	}
	results := make([]any, 0, len(in))
	for _, item := range in {
		r, err := e.eval(st, normalize(item), f)
		if err != nil {
			return nil, false, err
		}
		for _, sg := range st.stages {
			if sg.filter == nil {
				continue
			}
			if r, err = e.filter(sg.filter, r, f); err != nil {
				return nil, false, err
			}
		}
		if !isUndef(r) {
			results = append(results, r)
		}
	}
	if last && len(results) == 1 {
		if arr, ok := results[0].([]any); ok {
			return arr, st.consArray, nil
		}
	}
	out := newSeq(len(results))
	for _, r := range results {
		switch x := r.(type) {
		case *seq:
			out.v = append(out.v, x.v...)
		case []any:
			if st.consArray {
				out.v = append(out.v, x)
			} else {
				out.v = append(out.v, x...)
			}
		default:
			out.v = append(out.v, r)
		}
	}
	return out, false, nil
}

func (e *evaluator) stages(st *node, r any, f *frame) (any, bool, error) {
	var err error
	for _, sg := range st.stages {
		if sg.filter != nil {
			if r, err = e.filter(sg.filter, r, f); err != nil {
				return nil, false, err
			}
		}
	}
	return r, false, nil
}

func (e *evaluator) tupleStep(st *node, in []any, ts tuples, f *frame) (tuples, error) {
	if st.kind == kSort {
		var res tuples
		if ts != nil {
			r, err := e.sortItems(st, nil, ts, f)
			if err != nil {
				return nil, err
			}
			res = r.(tuples)
		} else {
			r, err := e.sortItems(st, in, nil, f)
			if err != nil {
				return nil, err
			}
			items, _ := arrayOf(r)
			res = make(tuples, len(items))
			for i, it := range items {
				t := &tuple{at: it}
				if st.index != "" {
					t.set(st.index, box(float64(i)))
				}
				res[i] = t
			}
		}
		return e.tupleStages(st, res, f)
	}
	if ts == nil {
		ts = make(tuples, len(in))
		for i, it := range in {
			ts[i] = &tuple{at: it}
		}
	}
	out := make(tuples, 0, len(ts))
	for _, t := range ts {
		r, err := e.eval(st, t.at, tupleFrame(f, t))
		if err != nil {
			return nil, err
		}
		if isUndef(r) {
			continue
		}
		if sub, ok := r.(tuples); ok {
			for _, s := range sub {
				nt := t.clone()
				nt.at = s.at
				for i, k := range s.names {
					nt.set(k, s.vals[i])
				}
				out = append(out, nt)
			}
			continue
		}
		items, ok := arrayOf(r)
		if !ok {
			items = []any{r}
		}
		for i, it := range items {
			nt := t.clone()
			if st.focus != "" {
				nt.set(st.focus, it)
			} else {
				nt.at = it
			}
			if st.index != "" {
				nt.set(st.index, box(float64(i)))
			}
			if st.ancestor != nil {
				nt.set(st.ancestor.label, t.at)
			}
			out = append(out, nt)
		}
	}
	return e.tupleStages(st, out, f)
}

func (e *evaluator) tupleStages(st *node, ts tuples, f *frame) (tuples, error) {
	for _, sg := range st.stages {
		if sg.filter != nil {
			r, err := e.filterTuples(sg.filter, ts, f)
			if err != nil {
				return nil, err
			}
			ts = r
		} else {
			for i, t := range ts {
				t.set(sg.index, box(float64(i)))
			}
		}
	}
	return ts, nil
}

func (e *evaluator) filterTuples(pred *node, ts tuples, f *frame) (tuples, error) {
	res := make(tuples, 0, len(ts))
	if pred.kind == kNumber && pred.predicate == nil {
		idx := int(math.Floor(pred.num))
		if idx < 0 {
			idx += len(ts)
		}
		if idx >= 0 && idx < len(ts) {
			res = append(res, ts[idx])
		}
		return res, nil
	}
	for i, t := range ts {
		r, err := e.eval(pred, t.at, tupleFrame(f, t))
		if err != nil {
			return nil, err
		}
		if predicateSelects(r, i, len(ts)) {
			res = append(res, t)
		}
	}
	return res, nil
}

// appendValues is JSONata's fn.append used by grouping: values join into one array.
func appendValues(a, b any) any {
	if isUndef(a) {
		return b
	}
	if isUndef(b) {
		return a
	}
	aa, ok := arrayOf(a)
	if !ok {
		aa = []any{a}
	}
	out := make([]any, 0, len(aa)+1)
	out = append(out, aa...)
	if bb, ok := arrayOf(b); ok {
		return append(out, bb...)
	}
	return append(out, b)
}

type groupEntry struct {
	data any
	pair int
}

func (e *evaluator) groupBy(g *groupBy, input any, f *frame) (any, error) {
	ts, reduce := input.(tuples)
	var items []any
	if !reduce {
		if arr, ok := arrayOf(input); ok {
			items = arr
		} else {
			items = []any{input}
		}
		if len(items) == 0 {
			items = []any{undefined}
		}
	}
	n := len(items)
	if reduce {
		n = len(ts)
		if n == 0 {
			reduce = false
			items = []any{undefined}
			n = 1
		}
	}
	var keys []string
	groups := map[string]*groupEntry{}
	for i := 0; i < n; i++ {
		var item any
		env := f
		ctx := any(nil)
		if reduce {
			item = ts[i]
			env = tupleFrame(f, ts[i])
			ctx = ts[i].at
		} else {
			item = normalize(items[i])
			ctx = item
		}
		for pi, pair := range g.pairs {
			k, err := e.eval(pair[0], ctx, env)
			if err != nil {
				return nil, err
			}
			if isUndef(k) {
				continue
			}
			ks, ok := k.(string)
			if !ok {
				return nil, &Error{Code: "T1003", Position: g.pos, value: k}
			}
			if ge, ok := groups[ks]; ok {
				if ge.pair != pi {
					return nil, &Error{Code: "D1009", Position: g.pos, value: ks}
				}
				if reduce {
					ge.data = append(ge.data.(tuples), ts[i])
				} else {
					ge.data = appendValues(ge.data, item)
				}
				continue
			}
			if reduce {
				groups[ks] = &groupEntry{data: tuples{ts[i]}, pair: pi}
			} else {
				groups[ks] = &groupEntry{data: item, pair: pi}
			}
			keys = append(keys, ks)
		}
	}
	out := newObject(len(keys))
	for _, k := range keys {
		ge := groups[k]
		ctx := ge.data
		env := f
		if reduce {
			t := reduceTuples(ge.data.(tuples))
			ctx = t.at
			env = tupleFrame(f, t)
		}
		v, err := e.eval(g.pairs[ge.pair][1], ctx, env)
		if err != nil {
			return nil, err
		}
		if !isUndef(v) {
			out.set(k, toOutput(v))
		}
	}
	return out, nil
}

// reduceTuples merges a group's tuples: each variable collects its values.
func reduceTuples(ts tuples) *tuple {
	r := ts[0].clone()
	for _, t := range ts[1:] {
		r.at = appendValues(r.at, t.at)
		for i, k := range t.names {
			prev, _ := r.get(k)
			r.set(k, appendValues(prev, t.vals[i]))
		}
	}
	return r
}

// stepOne is step for the common single-item input, without the gathering.
func (e *evaluator) stepOne(st *node, item any, f *frame, last bool) (any, bool, error) {
	r, err := e.eval(st, normalize(item), f)
	if err != nil {
		return nil, false, err
	}
	for _, sg := range st.stages {
		if sg.filter == nil {
			continue
		}
		if r, err = e.filter(sg.filter, r, f); err != nil {
			return nil, false, err
		}
	}
	// a value that is not an array stands for the sequence of itself
	if x, ok := r.([]any); ok {
		if last {
			return x, st.consArray, nil
		}
		if st.consArray {
			return &seq{v: []any{x}}, false, nil
		}
		return &seq{v: x}, false, nil
	}
	return r, false, nil
}
