package pyexpr

// The tree of an expression, after Python's ast module: every node Python
// can parse has a form here, and the evaluator decides which it accepts,
// as the engine's safe_eval does (safe_eval.py, _SafeEvaluator).

type node interface{ offset() int }

type at struct{ off int }

func (a at) offset() int { return a.off }

type (
	constNode struct {
		at
		val any
		err string // a literal Python has and these values do not (a complex, a huge int)
	}
	nameNode struct {
		at
		id string
	}
	unaryNode struct {
		at
		op string // not, -, +, ~
		x  node
	}
	binNode struct {
		at
		op   string
		l, r node
	}
	boolNode struct {
		at
		op   string // and, or
		vals []node
	}
	compareNode struct {
		at
		left  node
		ops   []string // ==, !=, <, <=, >, >=, in, not in, is, is not
		comps []node
	}
	ifNode struct {
		at
		test, body, orelse node
	}
	attrNode struct {
		at
		x    node
		name string
	}
	subscriptNode struct {
		at
		x, index node
	}
	sliceNode struct {
		at
		lo, hi, step node // nil when omitted
	}
	listNode struct {
		at
		elts []node
	}
	tupleNode struct {
		at
		elts []node
	}
	// setNode is a set display, which only literal_eval reads.
	setNode struct {
		at
		elts []node
	}
	dictNode struct {
		at
		keys []node // nil key: **unpacking
		vals []node
	}
	callNode struct {
		at
		fn     node
		args   []node
		kwargs []keyword
	}
	keyword struct {
		name string // "" for **unpacking
		val  node
	}
	joinedNode struct {
		at
		parts []node // constNode strings and formattedNodes
	}
	formattedNode struct {
		at
		x    node
		conv byte // 0, 's', 'r' or 'a'
		spec node // a joinedNode, or nil
	}
	// disallowedNode is a construct Python parses and safe_eval never
	// evaluates (lambda, comprehensions, :=, sets, *x, await, yield).
	disallowedNode struct {
		at
		kind string // Python's name of the node type
	}
)
