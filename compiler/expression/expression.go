// Package expression checks the conditions of workflow definitions and lowers
// them to ir.Expr, which the code generator prints as native Go.
//
// Conditions are written in the Python-like syntax of CodeMie workflows
// (`count > 10 and status == 'active'`, `'k' in labels`, `x.lower()`). They
// are parsed with expr-lang's parser, but checked here against Go types: the
// generated program evaluates them as Go, with no interpreter at run time.
//
// Where expr's grammar and Python's differ, conditions mean what Python
// means or are rejected: `not` binds looser than comparisons (`not a == b`
// is `not (a == b)`), / divides integers without truncating, comparisons
// chain only as < <= > >= do in both (`a == b == c` is an error), and `//`
// (an expr comment) is an error. % is Go's remainder, which differs from
// Python's for negative operands.
package expression

import (
	"go/types"

	"github.com/flowc-dev/flowc/compiler/diag"
	"github.com/flowc-dev/flowc/ir"
)

// Field is a name an expression may use: a state field.
type Field struct {
	Name   string // as written in definitions (e.g. "status", "error_count")
	GoName string // the Go field name of the generated State struct (e.g. "Status", "ErrorCount")
	// Type is the field's Go type: basic, slice, map, pointer, or a named type
	// of the user's package. Nil means it could not be resolved; that was
	// reported elsewhere, so expressions using the field are not checked further.
	Type types.Type
}

// Env is what names mean in typed mode.
type Env struct {
	Fields []Field
	Item   types.Type // non-nil inside an iteration chain: the name `item` is the current item
	Vars   []Field    // variables scoped to one state (e.g. `decision`), lowered as ir.ExprVar named GoName
}

// Source locates an expression in its file: Text, and the position of Text's
// first character. Where, when set, is the position of every rune of Text
// (see ir.Expr.Where); it wins over counting from Pos.
type Source struct {
	Text  string
	Pos   ir.Pos
	Where []ir.Pos
}

// Check parses and type-checks a condition, which must be boolean, and returns
// its lowered tree. Every diagnostic points inside the expression. Names
// resolve innermost first: Vars, then `item`, then Fields, then the literals
// True, False and None. The tree is nil when there are errors, or when the
// expression uses a field whose Type is nil.
func Check(src Source, env *Env) (*ir.Expr, diag.List) {
	p := parse(src)
	if p.diags.HasErrors() {
		return nil, p.diags
	}
	p.liftNot(&p.tree.Node)
	if env == nil {
		env = &Env{}
	}
	c := &checker{src: p, env: env}
	root := c.lower(p.tree.Node)
	if root.typ != nil && !isBool(root.typ) {
		c.errorf(root.start, "condition must be boolean, got %s", typeName(root.typ))
	}
	if root.typ == nil || c.diags.HasErrors() {
		return nil, c.diags
	}
	root.x.Source = src.Text
	return root.x, nil
}
