package jsonata

import (
	"context"
	"github.com/flowc-dev/flowc/runtime/jsonata/internal/jsregex"
	"math"
	"regexp"
	"time"
)

// frame is one scope of variable bindings; small, so a slice beats a map.
type frame struct {
	names    []string
	vals     []any
	parent   *frame
	borrowed bool // names and vals belong to a tuple: copy before changing
	// captured: something that outlives the evaluation in this scope holds
	// it (a closure, a thunk, a partial application, $eval), so it is never
	// reused for another call.
	captured bool
	// slots hold a lambda's arguments in the frame's own allocation.
	slots [2]any
}

func newFrame(parent *frame) *frame { return &frame{parent: parent} }

// capture marks f and the scopes around it as held.
func (f *frame) capture() {
	for ; f != nil && !f.captured; f = f.parent {
		f.captured = true
	}
}

// maxSpareFrames bounds the frames an evaluation keeps for reuse.
const maxSpareFrames = 8

// argFrame binds params to args (undefined where args run out), in a frame
// a finished call left behind when there is one: a callback of $map runs
// once per item, and the collector, not the work, would otherwise bound a
// Map of many such states. The names are shared with the lambda, capped so
// that a later bind copies them.
func (e *evaluator) argFrame(parent *frame, params []string, args []any) *frame {
	var f *frame
	if n := len(e.spare); n > 0 {
		f, e.spare = e.spare[n-1], e.spare[:n-1]
		*f = frame{}
	} else {
		f = &frame{}
	}
	f.parent, f.names = parent, params[:len(params):len(params)]
	if len(params) <= len(f.slots) {
		f.vals = f.slots[:len(params)]
	} else {
		f.vals = make([]any, len(params))
	}
	for i := range params {
		f.vals[i] = undefined
		if i < len(args) {
			f.vals[i] = args[i]
		}
	}
	return f
}

// release keeps the frame of a finished call for the next one, unless
// something still holds it.
func (e *evaluator) release(f *frame) {
	if !f.captured && len(e.spare) < maxSpareFrames {
		e.spare = append(e.spare, f)
	}
}

func (f *frame) bind(name string, v any) {
	if f.borrowed {
		f.names = append([]string(nil), f.names...)
		f.vals = append([]any(nil), f.vals...)
		f.borrowed = false
	}
	for i, n := range f.names {
		if n == name {
			f.vals[i] = v
			return
		}
	}
	f.names = append(f.names, name)
	f.vals = append(f.vals, v)
}

func (f *frame) lookup(name string) (any, bool) {
	for ; f != nil; f = f.parent {
		for i := len(f.names) - 1; i >= 0; i-- {
			if f.names[i] == name {
				return f.vals[i], true
			}
		}
	}
	if b, ok := builtins[name]; ok {
		return b, true
	}
	return undefined, false
}

// evaluator holds the state of one evaluation; an *Expr shares nothing else.
type evaluator struct {
	ctx      context.Context
	depth    int
	maxDepth int
	steps    int
	deadline time.Time
	now      time.Time
	nowFn    func() time.Time
	rand     func() float64
	root     *frame
	rootF    frame
	// room for the root scope's few bindings ($ and the state's variables)
	rootNames [6]string
	rootVals  [6]any
	// callFrame is the scope of the call being made, which $eval evaluates in
	callFrame *frame
	spare     []*frame // frames of finished calls, for the next (argFrame)
	argBuf    [3]any   // the arguments of a callback, until its frame holds them
}

// clock is the evaluation's one time: $now() and $millis() agree throughout.
func (e *evaluator) clock() time.Time {
	if e.now.IsZero() {
		if e.nowFn != nil {
			e.now = e.nowFn()
		} else {
			e.now = time.Now()
		}
	}
	return e.now
}

func (e *evaluator) checkBudget() error {
	if e.steps&1023 != 0 {
		return nil
	}
	if err := e.ctx.Err(); err != nil {
		return err
	}
	if !e.deadline.IsZero() && time.Now().After(e.deadline) {
		return &Error{Code: "U1001", Position: -1, message: "Expression evaluation timeout: Check for infinite loop"}
	}
	return nil
}

func (e *evaluator) eval(n *node, input any, f *frame) (any, error) {
	e.depth++
	e.steps++
	if e.depth > e.maxDepth {
		return nil, &Error{Code: "U1001", Position: n.pos}
	}
	if err := e.checkBudget(); err != nil {
		return nil, err
	}
	r, err := e.evalNode(n, input, f)
	if err == nil && n.predicate != nil {
		for _, st := range n.predicate {
			if r, err = e.filter(st.filter, r, f); err != nil {
				break
			}
		}
	}
	if err == nil && n.kind != kPath && n.group != nil {
		r, err = e.groupBy(n.group, r, f)
	}
	e.depth--
	if err != nil {
		return nil, err
	}
	if s, ok := r.(*seq); ok {
		if n.keepArray {
			s.keep = true
		}
		switch {
		case len(s.v) == 0:
			return undefined, nil
		case len(s.v) == 1 && !s.keep:
			return s.v[0], nil
		}
	}
	return r, nil
}

func (e *evaluator) evalNode(n *node, input any, f *frame) (any, error) {
	switch n.kind {
	case kPath:
		return e.path(n, input, f)
	case kName:
		return lookup(input, n.op), nil
	case kString:
		return n.op, nil
	case kNumber:
		return n.value, nil
	case kValue:
		return n.value, nil
	case kWildcard:
		return wildcard(input), nil
	case kDescendant:
		return descendants(input), nil
	case kParent:
		v, _ := f.lookup(n.slot.label)
		return v, nil
	case kVariable:
		return e.variable(n, input, f), nil
	case kRegex:
		return &matcher{re: n.regex}, nil
	case kBinary:
		return e.binary(n, input, f)
	case kNegate:
		v, err := e.eval(n.lhs, input, f)
		if err != nil || isUndef(v) {
			return v, err
		}
		if x, ok := asNumber(v); ok {
			return -x, nil
		}
		return nil, valueError("D1002", n.pos, v)
	case kArray:
		return e.array(n, input, f)
	case kObject:
		return e.groupBy(&groupBy{pairs: n.pairs, pos: n.pos}, input, f)
	case kCondition:
		c, err := e.eval(n.cond, input, f)
		if err != nil {
			return nil, err
		}
		if truthy(c) {
			return e.eval(n.then, input, f)
		}
		if n.els != nil {
			return e.eval(n.els, input, f)
		}
		return undefined, nil
	case kBlock:
		inner := newFrame(f)
		var r any = undefined
		for _, it := range n.items {
			var err error
			if r, err = e.eval(it, input, inner); err != nil {
				return nil, err
			}
		}
		return r, nil
	case kBind:
		v, err := e.eval(n.rhs, input, f)
		if err != nil {
			return nil, err
		}
		f.bind(n.lhs.op, v)
		return v, nil
	case kFunction:
		if n.thunk {
			f.capture()
			return &thunk{call: n, input: input, frame: f}, nil
		}
		return e.call(n, input, f, nil)
	case kPartial:
		return e.partial(n, input, f)
	case kLambda:
		f.capture()
		return &lambda{node: n, input: input, frame: f}, nil
	case kApply:
		return e.applyOp(n, input, f)
	case kTransform:
		f.capture()
		return &transformer{node: n, frame: f}, nil
	}
	return nil, newError("S0201", n.pos, n.op)
}

func (e *evaluator) variable(n *node, input any, f *frame) any {
	if n.op == "" {
		if s, ok := input.(*seq); ok && s.outer {
			return s.v[0]
		}
		return input
	}
	v, _ := f.lookup(n.op)
	return v
}

func lookup(input any, key string) any {
	switch x := input.(type) {
	case *seq:
		return lookupAll(x.v, key)
	case []any:
		return lookupAll(x, key)
	case map[string]any, ordered:
		v, ok := objectGet(x, key)
		if !ok {
			return undefined
		}
		return v
	}
	return undefined
}

func lookupAll(items []any, key string) any {
	res := newSeq(len(items))
	for _, it := range items {
		v := lookup(it, key)
		if isUndef(v) {
			continue
		}
		if arr, ok := arrayOf(v); ok {
			res.v = append(res.v, arr...)
		} else {
			res.v = append(res.v, v)
		}
	}
	return res
}

func wildcard(input any) any {
	res := newSeq(4)
	if s, ok := input.(*seq); ok && s.outer && len(s.v) > 0 {
		input = s.v[0]
	}
	if arr, ok := arrayOf(input); ok {
		// an array is an object whose keys are its indexes
		res.v = flattenInto(res.v, arr)
		return res
	}
	if !isObject(input) {
		return res
	}
	for _, k := range objectKeys(input) {
		v, _ := objectGet(input, k)
		if arr, ok := arrayOf(v); ok {
			res.v = flattenInto(res.v, arr)
		} else {
			res.v = append(res.v, v)
		}
	}
	return res
}

func flattenInto(dst, items []any) []any {
	for _, it := range items {
		if arr, ok := arrayOf(it); ok {
			dst = flattenInto(dst, arr)
		} else {
			dst = append(dst, normalize(it))
		}
	}
	return dst
}

func descendants(input any) any {
	if isUndef(input) {
		return undefined
	}
	res := newSeq(8)
	recurseDescendants(input, res)
	if len(res.v) == 1 {
		return res.v[0]
	}
	return res
}

func recurseDescendants(v any, res *seq) {
	if arr, ok := arrayOf(v); ok {
		for _, it := range arr {
			recurseDescendants(normalize(it), res)
		}
		return
	}
	res.v = append(res.v, v)
	if isObject(v) {
		for _, k := range objectKeys(v) {
			c, _ := objectGet(v, k)
			recurseDescendants(c, res)
		}
	}
}

// array evaluates an array constructor: nested constructors stay arrays,
// everything else is flattened into it.
func (e *evaluator) array(n *node, input any, f *frame) (any, error) {
	out := make([]any, 0, len(n.items))
	for _, it := range n.items {
		v, err := e.eval(it, input, f)
		if err != nil {
			return nil, err
		}
		if isUndef(v) {
			continue
		}
		if it.kind == kArray {
			out = append(out, toOutput(v))
		} else if arr, ok := arrayOf(v); ok {
			out = append(out, arr...)
		} else {
			out = append(out, v)
		}
	}
	return out, nil
}

func truthy(v any) bool {
	switch x := v.(type) {
	case undefinedT, nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case []any:
		return truthyArray(x)
	case *seq:
		return truthyArray(x.v)
	case callable:
		return false
	}
	if f, ok := asNumber(v); ok {
		return f != 0
	}
	if isObject(v) {
		return len(objectKeys(v)) > 0
	}
	return false
}

func truthyArray(a []any) bool {
	if len(a) == 1 {
		return truthy(a[0])
	}
	for _, it := range a {
		if truthy(it) {
			return true
		}
	}
	return false
}

func (e *evaluator) binary(n *node, input any, f *frame) (any, error) {
	l, err := e.eval(n.lhs, input, f)
	if err != nil {
		return nil, err
	}
	switch n.op {
	case "and":
		if !truthy(l) {
			return false, nil
		}
		r, err := e.eval(n.rhs, input, f)
		return err == nil && truthy(r), err
	case "or":
		if truthy(l) {
			return true, nil
		}
		r, err := e.eval(n.rhs, input, f)
		return err == nil && truthy(r), err
	case "?:":
		if truthy(l) {
			return l, nil
		}
		return e.eval(n.rhs, input, f)
	case "??":
		if !isUndef(l) {
			return l, nil
		}
		return e.eval(n.rhs, input, f)
	}
	r, err := e.eval(n.rhs, input, f)
	if err != nil {
		return nil, err
	}
	switch n.op {
	case "+", "-", "*", "/", "%":
		return arithmetic(n, l, r)
	case "=", "!=":
		if isUndef(l) || isUndef(r) {
			return false, nil
		}
		eq := deepEqual(l, r)
		return eq == (n.op == "="), nil
	case "<", "<=", ">", ">=":
		return compare(n, l, r)
	case "&":
		ls, err := concatString(l)
		if err != nil {
			return nil, err
		}
		rs, err := concatString(r)
		if err != nil {
			return nil, err
		}
		return ls + rs, nil
	case "in":
		if isUndef(l) || isUndef(r) {
			return false, nil
		}
		items, ok := arrayOf(r)
		if !ok {
			items = []any{r}
		}
		for _, it := range items {
			if strictEqual(l, it) {
				return true, nil
			}
		}
		return false, nil
	case "..":
		return rangeOp(n, l, r)
	}
	return nil, newError("S0204", n.pos, n.op)
}

func concatString(v any) (string, error) {
	if isUndef(v) {
		return "", nil
	}
	return stringify(v, false)
}

func arithmetic(n *node, l, r any) (any, error) {
	lf, lok := asNumber(l)
	if !isUndef(l) && !lok {
		return nil, &Error{Code: "T2001", Position: n.pos, Token: n.op, value: l}
	}
	rf, rok := asNumber(r)
	if !isUndef(r) && !rok {
		return nil, &Error{Code: "T2002", Position: n.pos, Token: n.op, value: r}
	}
	if lok && math.IsInf(lf, 0) {
		return nil, &Error{Code: "D1001", Position: n.pos, Token: n.op, value: lf}
	}
	if rok && math.IsInf(rf, 0) {
		return nil, &Error{Code: "D1001", Position: n.pos, Token: n.op, value: rf}
	}
	if !lok || !rok {
		return undefined, nil
	}
	var v float64
	switch n.op {
	case "+":
		v = lf + rf
	case "-":
		v = lf - rf
	case "*":
		v = lf * rf
	case "/":
		v = lf / rf
	case "%":
		v = math.Mod(lf, rf)
	}
	return box(v), nil
}

func compare(n *node, l, r any) (any, error) {
	lc := isUndef(l) || isString(l) || isNumber(l)
	rc := isUndef(r) || isString(r) || isNumber(r)
	if !lc || !rc {
		bad := l
		if lc {
			bad = r
		}
		return nil, &Error{Code: "T2010", Position: n.pos, Token: n.op, value: bad}
	}
	if isUndef(l) || isUndef(r) {
		return undefined, nil
	}
	if isString(l) != isString(r) {
		return nil, &Error{Code: "T2009", Position: n.pos, Token: n.op, value: l, value2: r}
	}
	var c int
	if ls, ok := l.(string); ok {
		rs := r.(string)
		c = compareStrings(ls, rs)
	} else {
		lf, _ := asNumber(l)
		rf, _ := asNumber(r)
		switch {
		case lf < rf:
			c = -1
		case lf > rf:
			c = 1
		}
	}
	switch n.op {
	case "<":
		return c < 0, nil
	case "<=":
		return c <= 0, nil
	case ">":
		return c > 0, nil
	}
	return c >= 0, nil
}

// compareStrings orders strings by UTF-16 code units, as JavaScript does.
func compareStrings(a, b string) int {
	ua, ub := utf16Of(a), utf16Of(b)
	for i := 0; i < len(ua) && i < len(ub); i++ {
		if ua[i] != ub[i] {
			if ua[i] < ub[i] {
				return -1
			}
			return 1
		}
	}
	switch {
	case len(ua) < len(ub):
		return -1
	case len(ua) > len(ub):
		return 1
	}
	return 0
}

func isString(v any) bool { _, ok := v.(string); return ok }
func isNumber(v any) bool { _, ok := asNumber(v); return ok }

func rangeOp(n *node, l, r any) (any, error) {
	lf, lok := asNumber(l)
	if !isUndef(l) && (!lok || !isInteger(lf)) {
		return nil, &Error{Code: "T2003", Position: n.pos, Token: "..", value: l}
	}
	rf, rok := asNumber(r)
	if !isUndef(r) && (!rok || !isInteger(rf)) {
		return nil, &Error{Code: "T2004", Position: n.pos, Token: "..", value: r}
	}
	if !lok || !rok || lf > rf {
		return undefined, nil
	}
	size := rf - lf + 1
	if size > 1e7 {
		return nil, &Error{Code: "D2014", Position: n.pos, Token: "..", value: size}
	}
	out := &seq{v: make([]any, int(size))}
	for i := range out.v {
		out.v[i] = box(lf + float64(i))
	}
	return out, nil
}

func strictEqual(a, b any) bool {
	if af, ok := asNumber(a); ok {
		bf, ok := asNumber(b)
		return ok && af == bf
	}
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case nil:
		return b == nil
	}
	return false
}

// deepEqual is JSONata's = : structural for arrays and objects.
func deepEqual(a, b any) bool {
	if aa, ok := arrayOf(a); ok {
		bb, ok := arrayOf(b)
		if !ok || len(aa) != len(bb) {
			return false
		}
		for i := range aa {
			if !deepEqual(normalize(aa[i]), normalize(bb[i])) {
				return false
			}
		}
		return true
	}
	if isObject(a) {
		if !isObject(b) {
			return false
		}
		ak, bk := objectKeys(a), objectKeys(b)
		if len(ak) != len(bk) {
			return false
		}
		for _, k := range ak {
			av, _ := objectGet(a, k)
			bv, ok := objectGet(b, k)
			if !ok || !deepEqual(av, bv) {
				return false
			}
		}
		return true
	}
	if _, ok := a.(callable); ok {
		return a == b
	}
	return strictEqual(a, b)
}

// filter applies one predicate to a value or sequence.
func (e *evaluator) filter(pred *node, input any, f *frame) (any, error) {
	if ts, ok := input.(tuples); ok {
		return e.filterTuples(pred, ts, f)
	}
	items, ok := arrayOf(input)
	if !ok {
		if isUndef(input) {
			return newSeq(0), nil
		}
		items = []any{input}
	}
	res := newSeq(len(items))
	if pred.kind == kNumber && pred.predicate == nil && pred.stages == nil {
		idx := int(math.Floor(pred.num))
		if idx < 0 {
			idx += len(items)
		}
		if idx >= 0 && idx < len(items) {
			item := normalize(items[idx])
			if arr, ok := item.([]any); ok {
				return arr, nil
			}
			res.v = append(res.v, item)
		}
		return res, nil
	}
	for i, item := range items {
		item = normalize(item)
		r, err := e.eval(pred, item, f)
		if err != nil {
			return nil, err
		}
		if predicateSelects(r, i, len(items)) {
			res.v = append(res.v, item)
		}
	}
	return res, nil
}

// predicateSelects: a number or array of numbers selects by index, anything
// else by its truth value.
func predicateSelects(r any, i, n int) bool {
	if x, ok := asNumber(r); ok {
		return indexMatches(x, i, n)
	}
	if arr, ok := arrayOf(r); ok && len(arr) > 0 && allNumbers(arr) {
		for _, v := range arr {
			x, _ := asNumber(v)
			if indexMatches(x, i, n) {
				return true
			}
		}
		return false
	}
	return truthy(r)
}

func allNumbers(arr []any) bool {
	for _, v := range arr {
		if !isNumber(v) {
			return false
		}
	}
	return true
}

func indexMatches(x float64, i, n int) bool {
	ii := int(math.Floor(x))
	if ii < 0 {
		ii += n
	}
	return ii == i
}

type matcher struct{ re *regexp.Regexp }

func compileRegex(pattern, flags string) (*regexp.Regexp, error) {
	return jsregex.Compile(pattern, flags)
}
