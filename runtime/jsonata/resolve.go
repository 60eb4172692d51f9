package jsonata

import "strconv"

// resolver rewrites the parse tree into the evaluated form: paths as step
// lists, predicates and bindings attached to steps, parent references tied to
// the step whose context they name, tail calls marked.
type resolver struct {
	ancestry []*node
	label    int
}

func (r *resolver) resolve(n *node) (*node, *Error) {
	res, err := r.resolveNode(n)
	if err == nil && n.keepArray && res != n {
		if res.kind == kPath {
			res.keepSingletonArray = true
			res.steps[len(res.steps)-1].keepArray = true
		} else {
			res.keepArray = true
		}
	}
	return res, err
}

func (r *resolver) resolveNode(n *node) (*node, *Error) {
	var err *Error
	switch n.kind {
	case kDot:
		return r.dot(n)
	case kPredicate:
		return r.predicate(n)
	case kGroupBy:
		res, err := r.resolve(n.lhs)
		if err != nil {
			return nil, err
		}
		if res.group != nil {
			return nil, newError("S0210", n.pos, "{")
		}
		g := &groupBy{pos: n.pos}
		for _, pr := range n.pairs {
			k, err := r.resolve(pr[0])
			if err != nil {
				return nil, err
			}
			v, err := r.resolve(pr[1])
			if err != nil {
				return nil, err
			}
			r.pushAncestry(res, k)
			r.pushAncestry(res, v)
			g.pairs = append(g.pairs, [2]*node{k, v})
		}
		res.group = g
		return res, nil
	case kSort:
		res, err := r.resolve(n.lhs)
		if err != nil {
			return nil, err
		}
		if res.kind != kPath {
			res = &node{kind: kPath, steps: []*node{res}, pos: res.pos}
		}
		st := &node{kind: kSort, pos: n.pos}
		for _, t := range n.terms {
			e, err := r.resolve(t.expr)
			if err != nil {
				return nil, err
			}
			r.pushAncestry(st, e)
			st.terms = append(st.terms, sortTerm{desc: t.desc, expr: e})
		}
		res.steps = append(res.steps, st)
		return res, r.resolveAncestry(res)
	case kFocus:
		res, err := r.resolve(n.lhs)
		if err != nil {
			return nil, err
		}
		step := res
		if res.kind == kPath {
			step = res.steps[len(res.steps)-1]
		}
		if step.stages != nil || step.predicate != nil {
			return nil, newError("S0215", n.pos, "@")
		}
		if step.kind == kSort {
			return nil, newError("S0216", n.pos, "@")
		}
		if n.keepArray {
			step.keepArray = true
		}
		step.focus = n.rhs.op
		step.tuple = true
		return res, nil
	case kIndexBind:
		res, err := r.resolve(n.lhs)
		if err != nil {
			return nil, err
		}
		step := res
		if res.kind == kPath {
			step = res.steps[len(res.steps)-1]
		} else {
			res = &node{kind: kPath, steps: []*node{res}, pos: res.pos}
			if step.predicate != nil {
				step.stages, step.predicate = step.predicate, nil
			}
		}
		if step.stages == nil {
			step.index = n.rhs.op
		} else {
			step.stages = append(step.stages, &stage{index: n.rhs.op, pos: n.pos})
		}
		step.tuple = true
		return res, nil
	case kBind:
		if n.rhs, err = r.resolve(n.rhs); err != nil {
			return nil, err
		}
		r.pushAncestry(n, n.rhs)
		return n, nil
	case kApply:
		if n.lhs, err = r.resolve(n.lhs); err != nil {
			return nil, err
		}
		if n.rhs, err = r.resolve(n.rhs); err != nil {
			return nil, err
		}
		n.keepArray = n.keepArray || n.lhs.keepArray || n.rhs.keepArray
		r.pushAncestry(n, n.lhs)
		r.pushAncestry(n, n.rhs)
		return n, nil
	case kBinary:
		if n.lhs, err = r.resolve(n.lhs); err != nil {
			return nil, err
		}
		if n.rhs, err = r.resolve(n.rhs); err != nil {
			return nil, err
		}
		r.pushAncestry(n, n.lhs)
		r.pushAncestry(n, n.rhs)
		return n, nil
	case kNegate:
		if n.lhs, err = r.resolve(n.lhs); err != nil {
			return nil, err
		}
		if n.lhs.kind == kNumber && n.lhs.predicate == nil {
			n.lhs.num = -n.lhs.num
			n.lhs.value = n.lhs.num
			return n.lhs, nil
		}
		r.pushAncestry(n, n.lhs)
		return n, nil
	case kArray:
		for i, it := range n.items {
			if n.items[i], err = r.resolve(it); err != nil {
				return nil, err
			}
			r.pushAncestry(n, n.items[i])
		}
		return n, nil
	case kObject:
		for i, pr := range n.pairs {
			if n.pairs[i][0], err = r.resolve(pr[0]); err != nil {
				return nil, err
			}
			if n.pairs[i][1], err = r.resolve(pr[1]); err != nil {
				return nil, err
			}
			r.pushAncestry(n, n.pairs[i][0])
			r.pushAncestry(n, n.pairs[i][1])
		}
		return n, nil
	case kBlock:
		for i, it := range n.items {
			if n.items[i], err = r.resolve(it); err != nil {
				return nil, err
			}
			r.pushAncestry(n, n.items[i])
			if n.items[i].consArray || (n.items[i].kind == kPath && n.items[i].steps[0].consArray) {
				n.consArray = true
			}
		}
		return n, nil
	case kCondition:
		if n.cond, err = r.resolve(n.cond); err != nil {
			return nil, err
		}
		r.pushAncestry(n, n.cond)
		if n.then, err = r.resolve(n.then); err != nil {
			return nil, err
		}
		r.pushAncestry(n, n.then)
		if n.els != nil {
			if n.els, err = r.resolve(n.els); err != nil {
				return nil, err
			}
			r.pushAncestry(n, n.els)
		}
		return n, nil
	case kFunction, kPartial:
		if n.lhs, err = r.resolve(n.lhs); err != nil {
			return nil, err
		}
		for i, a := range n.items {
			if n.items[i], err = r.resolve(a); err != nil {
				return nil, err
			}
			r.pushAncestry(n, n.items[i])
		}
		return n, nil
	case kLambda:
		if n.body, err = r.resolve(n.body); err != nil {
			return nil, err
		}
		markTailCalls(n.body)
		return n, nil
	case kTransform:
		if n.pattern, err = r.resolve(n.pattern); err != nil {
			return nil, err
		}
		if n.update, err = r.resolve(n.update); err != nil {
			return nil, err
		}
		if n.remove != nil {
			if n.remove, err = r.resolve(n.remove); err != nil {
				return nil, err
			}
		}
		return n, nil
	case kName:
		return &node{kind: kPath, steps: []*node{n}, keepSingletonArray: n.keepArray, pos: n.pos}, nil
	case kParent:
		n.slot = &slot{label: "!" + strconv.Itoa(r.label), level: 1, index: len(r.ancestry)}
		r.label++
		r.ancestry = append(r.ancestry, n)
		return n, nil
	}
	return n, nil
}

func (r *resolver) dot(n *node) (*node, *Error) {
	lstep, err := r.resolve(n.lhs)
	if err != nil {
		return nil, err
	}
	var res *node
	if lstep.kind == kPath {
		res = lstep
	} else {
		res = &node{kind: kPath, steps: []*node{lstep}, pos: lstep.pos}
	}
	if lstep.kind == kParent {
		res.parentSeek = []*slot{lstep.slot}
	}
	rest, err := r.resolve(n.rhs)
	if err != nil {
		return nil, err
	}
	if rest.kind == kPath {
		res.steps = append(res.steps, rest.steps...)
	} else {
		if rest.predicate != nil {
			rest.stages, rest.predicate = rest.predicate, nil
		}
		res.steps = append(res.steps, rest)
	}
	for _, st := range res.steps {
		switch st.kind {
		case kNumber, kValue:
			return nil, &Error{Code: "S0213", Position: st.pos, value: literalOf(st)}
		case kString:
			st.kind = kName
		}
		if st.keepArray {
			res.keepSingletonArray = true
		}
	}
	if first := res.steps[0]; first.kind == kArray {
		first.consArray = true
	}
	if last := res.steps[len(res.steps)-1]; last.kind == kArray {
		last.consArray = true
	}
	return res, r.resolveAncestry(res)
}

func literalOf(n *node) any {
	if n.kind == kNumber {
		return n.num
	}
	return n.value
}

func (r *resolver) predicate(n *node) (*node, *Error) {
	res, err := r.resolve(n.lhs)
	if err != nil {
		return nil, err
	}
	step := res
	inPath := false
	if res.kind == kPath {
		step = res.steps[len(res.steps)-1]
		inPath = true
	}
	if step.group != nil {
		return nil, newError("S0209", n.pos, "[")
	}
	pred, err := r.resolve(n.rhs)
	if err != nil {
		return nil, err
	}
	if pred.parentSeek != nil {
		for _, s := range pred.parentSeek {
			if s.level == 1 {
				if _, err := r.seekParent(step, s); err != nil {
					return nil, err
				}
			} else {
				s.level--
			}
		}
		r.pushAncestry(step, pred)
	}
	st := &stage{filter: pred, pos: n.pos}
	if inPath {
		step.stages = append(step.stages, st)
	} else {
		step.predicate = append(step.predicate, st)
	}
	return res, nil
}

func (r *resolver) pushAncestry(to, from *node) {
	if from == nil || (from.parentSeek == nil && from.kind != kParent) {
		return
	}
	slots := append([]*slot(nil), from.parentSeek...)
	if from.kind == kParent {
		slots = append(slots, from.slot)
	}
	to.parentSeek = append(to.parentSeek, slots...)
}

func (r *resolver) resolveAncestry(path *node) *Error {
	last := path.steps[len(path.steps)-1]
	slots := append([]*slot(nil), last.parentSeek...)
	if last.kind == kParent {
		slots = append(slots, last.slot)
	}
	for _, s := range slots {
		i := len(path.steps) - 2
		for s.level > 0 {
			if i < 0 {
				path.parentSeek = append(path.parentSeek, s)
				break
			}
			step := path.steps[i]
			i--
			// contiguous steps that bind the focus count as one
			for i >= 0 && step.focus != "" && path.steps[i].focus != "" {
				step = path.steps[i]
				i--
			}
			var err *Error
			if s, err = r.seekParent(step, s); err != nil {
				return err
			}
		}
	}
	return nil
}

func (r *resolver) seekParent(n *node, s *slot) (*slot, *Error) {
	switch n.kind {
	case kName, kWildcard:
		s.level--
		if s.level == 0 {
			if n.ancestor != nil {
				// reuse the label the step already carries
				r.ancestry[s.index].slot.label = n.ancestor.label
			}
			n.ancestor = s
			n.tuple = true
		}
	case kParent:
		s.level++
	case kBlock:
		if len(n.items) > 0 {
			n.tuple = true
			return r.seekParent(n.items[len(n.items)-1], s)
		}
	case kPath:
		n.tuple = true
		i := len(n.steps) - 1
		var err *Error
		if s, err = r.seekParent(n.steps[i], s); err != nil {
			return nil, err
		}
		i--
		for s.level > 0 && i >= 0 {
			if s, err = r.seekParent(n.steps[i], s); err != nil {
				return nil, err
			}
			i--
		}
	default:
		return nil, newError("S0217", n.pos, kindName(n))
	}
	return s, nil
}

func kindName(n *node) string {
	switch n.kind {
	case kBinary:
		return "binary"
	case kFunction:
		return "function"
	case kVariable:
		return "variable"
	case kString:
		return "string"
	case kNumber:
		return "number"
	}
	return n.op
}

// markTailCalls flags the calls whose result is the lambda's result, so that
// they run in the caller's loop instead of deepening the stack.
func markTailCalls(n *node) {
	switch n.kind {
	case kFunction:
		if n.predicate == nil && n.group == nil {
			n.thunk = true
		}
	case kCondition:
		markTailCalls(n.then)
		if n.els != nil {
			markTailCalls(n.els)
		}
	case kBlock:
		if len(n.items) > 0 {
			markTailCalls(n.items[len(n.items)-1])
		}
	}
}
