package jsonata

import "sort"

// callable is any function value: a lambda, a built-in, a partial
// application, a regex matcher or a transform.
type callable interface {
	arity() int
}

type lambda struct {
	node   *node
	input  any
	frame  *frame
	params []string // set for partial applications; else node.params
	bound  bool
}

func (l *lambda) paramList() []string {
	if l.bound {
		return l.params
	}
	return l.node.params
}

func (l *lambda) arity() int { return len(l.paramList()) }

// builtin is a library function, or a Go closure standing for one.
type builtin struct {
	name  string
	sig   *signature
	nargs int
	fn    func(e *evaluator, args []any, input any) (any, error)
}

func (b *builtin) arity() int { return b.nargs }

// thunk is a deferred tail call that the caller's apply loop runs.
type thunk struct {
	call  *node
	input any
	frame *frame
}

func (m *matcher) arity() int { return 1 }

type transformer struct {
	node  *node
	frame *frame
}

func (t *transformer) arity() int { return 1 }

func (e *evaluator) call(n *node, input any, f *frame, applyTo []any) (any, error) {
	proc, err := e.eval(n.lhs, input, f)
	if err != nil {
		return nil, err
	}
	if isUndef(proc) && n.lhs.kind == kPath && n.lhs.steps[0].kind == kName {
		if _, ok := f.lookup(n.lhs.steps[0].op); ok {
			return nil, newError("T1005", n.pos, n.lhs.steps[0].op)
		}
	}
	args := make([]any, 0, len(n.items)+len(applyTo))
	args = append(args, applyTo...)
	for _, a := range n.items {
		v, err := e.eval(a, input, f)
		if err != nil {
			return nil, err
		}
		args = append(args, v)
	}
	e.callFrame = f
	return e.apply(proc, args, input, n)
}

func procName(n *node) string {
	if n == nil {
		return ""
	}
	switch n.lhs.kind {
	case kPath:
		return n.lhs.steps[0].op
	case kVariable:
		return n.lhs.op
	}
	return ""
}

// apply calls fn and runs any tail calls it returns, so that tail recursion
// does not deepen the Go stack.
func (e *evaluator) apply(fn any, args []any, input any, at *node) (any, error) {
	r, err := e.applyInner(fn, args, input, at)
	for err == nil {
		th, ok := r.(*thunk)
		if !ok {
			break
		}
		var proc any
		if proc, err = e.eval(th.call.lhs, th.input, th.frame); err != nil {
			break
		}
		targs := make([]any, 0, len(th.call.items))
		for _, a := range th.call.items {
			var v any
			if v, err = e.eval(a, th.input, th.frame); err != nil {
				return nil, err
			}
			targs = append(targs, v)
		}
		e.callFrame = th.frame
		r, err = e.applyInner(proc, targs, th.input, th.call)
	}
	return r, err
}

func (e *evaluator) applyInner(fn any, args []any, input any, at *node) (any, error) {
	pos, name := -1, ""
	if at != nil {
		pos, name = at.pos, procName(at)
	}
	r, err := e.invoke(fn, args, input, pos, name)
	if err != nil {
		if je, ok := err.(*Error); ok {
			if je.Position < 0 {
				je.Position = pos
			}
			if je.Token == "" {
				je.Token = name
			}
		}
	}
	return r, err
}

func (e *evaluator) invoke(fn any, args []any, input any, pos int, name string) (any, error) {
	switch p := fn.(type) {
	case *lambda:
		if p.node.sig != nil && !p.bound {
			v, err := p.node.sig.validate(args, input, name, pos)
			if err != nil {
				return nil, err
			}
			args = v
		}
		env := e.argFrame(p.frame, p.paramList(), args)
		r, err := e.eval(p.node.body, p.input, env)
		e.release(env)
		return r, err
	case *builtin:
		if p.sig != nil {
			v, err := p.sig.validate(args, input, p.name, pos)
			if err != nil {
				return nil, err
			}
			args = v
		}
		return p.fn(e, args, input)
	case *matcher:
		return p.call(e, args)
	case *transformer:
		return e.transform(p, args)
	}
	return nil, newError("T1006", pos, name)
}

func (e *evaluator) partial(n *node, input any, f *frame) (any, error) {
	args := make([]any, len(n.items))
	for i, a := range n.items {
		if a.kind == kPlaceholder {
			args[i] = placeholder{}
			continue
		}
		v, err := e.eval(a, input, f)
		if err != nil {
			return nil, err
		}
		args[i] = v
	}
	proc, err := e.eval(n.lhs, input, f)
	if err != nil {
		return nil, err
	}
	switch p := proc.(type) {
	case *lambda:
		env := newFrame(p.frame)
		var unbound []string
		for i, name := range p.paramList() {
			if i < len(args) {
				if _, ok := args[i].(placeholder); ok {
					unbound = append(unbound, name)
					continue
				}
				env.bind(name, args[i])
			} else {
				env.bind(name, undefined)
			}
		}
		env.capture()
		return &lambda{node: p.node, input: p.input, frame: env, params: unbound, bound: true}, nil
	case callable:
		holes := 0
		for _, a := range args {
			if _, ok := a.(placeholder); ok {
				holes++
			}
		}
		return &builtin{name: procName(n), nargs: holes, fn: func(e *evaluator, given []any, input any) (any, error) {
			full := make([]any, len(args))
			j := 0
			for i, a := range args {
				if _, ok := a.(placeholder); ok {
					if j < len(given) {
						full[i] = given[j]
					} else {
						full[i] = undefined
					}
					j++
				} else {
					full[i] = a
				}
			}
			return e.apply(p, full, input, nil)
		}}, nil
	}
	if isUndef(proc) && n.lhs.kind == kPath && n.lhs.steps[0].kind == kName {
		if _, ok := f.lookup(n.lhs.steps[0].op); ok {
			return nil, newError("T1007", n.pos, n.lhs.steps[0].op)
		}
	}
	return nil, newError("T1008", n.pos, procName(n))
}

type placeholder struct{}

func (e *evaluator) applyOp(n *node, input any, f *frame) (any, error) {
	l, err := e.eval(n.lhs, input, f)
	if err != nil {
		return nil, err
	}
	if n.rhs.kind == kFunction {
		return e.call(n.rhs, input, f, []any{l})
	}
	fn, err := e.eval(n.rhs, input, f)
	if err != nil {
		return nil, err
	}
	if _, ok := fn.(callable); !ok {
		return nil, valueError("T2006", n.pos, fn)
	}
	if first, ok := l.(callable); ok {
		// function composition: the result applies l then fn
		return &builtin{name: "", nargs: 1, fn: func(e *evaluator, args []any, input any) (any, error) {
			r, err := e.apply(first, args, input, nil)
			if err != nil {
				return nil, err
			}
			return e.apply(fn, []any{r}, input, nil)
		}}, nil
	}
	return e.apply(fn, []any{l}, input, nil)
}

// sortItems orders items (or a tuple stream) by the sort step's terms with a
// stable merge sort, since the comparison may fail.
func (e *evaluator) sortItems(st *node, items []any, ts tuples, f *frame) (any, error) {
	isTuple := ts != nil
	n := len(items)
	if isTuple {
		n = len(ts)
	}
	type keyed struct {
		keys []any
		i    int
	}
	ks := make([]keyed, n)
	for i := 0; i < n; i++ {
		ctx, env := any(nil), f
		if isTuple {
			ctx, env = ts[i].at, tupleFrame(f, ts[i])
		} else {
			ctx = normalize(items[i])
		}
		ks[i] = keyed{keys: make([]any, len(st.terms)), i: i}
		for ti, t := range st.terms {
			v, err := e.eval(t.expr, ctx, env)
			if err != nil {
				return nil, err
			}
			ks[i].keys[ti] = v
		}
	}
	var sortErr error
	sort.SliceStable(ks, func(a, b int) bool {
		if sortErr != nil {
			return false
		}
		for ti, t := range st.terms {
			c, err := compareSortKeys(ks[a].keys[ti], ks[b].keys[ti], st.pos)
			if err != nil {
				sortErr = err
				return false
			}
			if c == 0 {
				continue
			}
			if t.desc {
				c = -c
			}
			return c < 0
		}
		return false
	})
	if sortErr != nil {
		return nil, sortErr
	}
	if isTuple {
		out := make(tuples, n)
		for i, k := range ks {
			out[i] = ts[k.i]
		}
		return out, nil
	}
	out := newSeq(n)
	for _, k := range ks {
		out.v = append(out.v, items[k.i])
	}
	return out, nil
}

func compareSortKeys(a, b any, pos int) (int, error) {
	au, bu := isUndef(a), isUndef(b)
	switch {
	case au && bu:
		return 0, nil
	case au:
		return 1, nil
	case bu:
		return -1, nil
	}
	if !(isString(a) || isNumber(a)) || !(isString(b) || isNumber(b)) {
		bad := a
		if isString(a) || isNumber(a) {
			bad = b
		}
		return 0, valueError("T2008", pos, bad)
	}
	if isString(a) != isString(b) {
		return 0, &Error{Code: "T2007", Position: pos, value: a, value2: b}
	}
	if as, ok := a.(string); ok {
		return compareStrings(as, b.(string)), nil
	}
	af, _ := asNumber(a)
	bf, _ := asNumber(b)
	switch {
	case af < bf:
		return -1, nil
	case af > bf:
		return 1, nil
	}
	return 0, nil
}
