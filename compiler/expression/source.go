package expression

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/parser/lexer"
	"github.com/expr-lang/expr/parser/operator"

	"github.com/flowc-dev/flowc/compiler/diag"
	"github.com/flowc-dev/flowc/ir"
)

// parsed is an expression's syntax tree and what is needed to point into its
// text. expr-lang locates nodes by rune offsets into the text.
type parsed struct {
	text   []rune
	pos    ir.Pos
	tree   *parser.Tree
	groups []group // parenthesized spans, which the tree does not record
	diags  diag.List
}

// group is a pair of parentheses, as rune offsets.
type group struct{ open, close int }

// parse parses src and rejects the syntax conditions do not support.
func parse(src Source) *parsed {
	p := &parsed{text: []rune(src.Text), pos: src.Pos}
	tree, err := parser.Parse(src.Text)
	if err != nil {
		p.syntaxError(err)
		return p
	}
	p.tree = tree
	p.scanTokens()
	validate(p, tree.Node)
	return p
}

func (p *parsed) errorf(offset int, format string, args ...any) {
	p.diags.Errorf(p.position(offset), format, args...)
}

// position maps a rune offset of the text to its place in the file. A line
// after a newline of the text is taken to start at column 1: YAML block
// scalars do not tell how far their lines are indented.
func (p *parsed) position(offset int) ir.Pos {
	pos := p.pos
	for i := 0; i < offset; i++ {
		if i < len(p.text) && p.text[i] == '\n' {
			pos.Line++
			pos.Col = 1
		} else {
			pos.Col++
		}
	}
	return pos
}

// syntaxError reports a parse error without expr's snippet, which would
// repeat the text the diagnostic already points into.
func (p *parsed) syntaxError(err error) {
	var fe *file.Error
	if !errors.As(err, &fe) {
		p.errorf(0, "syntax error: %v", err)
		return
	}
	at := fe.From
	// expr places the end of input on the last character; the missing part
	// belongs after it.
	if strings.HasSuffix(fe.Message, "EOF") {
		at = len(p.text)
	}
	p.errorf(at, "%s", fe.Message)
}

// scanTokens finds the parentheses, and the comments, which expr's lexer
// skips: a Python `a // 2` would otherwise silently lose its right side.
func (p *parsed) scanTokens() {
	tokens, err := lexer.Lex(file.NewSource(string(p.text)))
	if err != nil {
		return // the parser accepted the text, so the lexer does too
	}
	var open []int
	end := 0
	for _, t := range tokens {
		if t.Kind == lexer.EOF {
			break
		}
		p.checkGap(end, t.From)
		end = t.To
		switch {
		case t.Is(lexer.Bracket, "("):
			open = append(open, t.From)
		case t.Is(lexer.Bracket, ")") && len(open) > 0:
			p.groups = append(p.groups, group{open[len(open)-1], t.From})
			open = open[:len(open)-1]
		}
	}
	p.checkGap(end, len(p.text))
}

// checkGap reports a comment between two tokens.
func (p *parsed) checkGap(from, to int) {
	for i := from; i < to && i < len(p.text); i++ {
		if !unicode.IsSpace(p.text[i]) {
			p.errorf(i, "unsupported in conditions: comment (`//` starts a comment in expr, it is not floor division)")
			return
		}
	}
}

// liftNot gives `not` Python's precedence: expr binds it tighter than
// comparisons, so `not a == b` parses as `(not a) == b`; Python means
// `not (a == b)`.
func liftNot(root *ast.Node, groups []group) {
	ast.Walk(root, notLifter(groups))
}

type notLifter []group

func (g notLifter) Visit(n *ast.Node) {
	if b, ok := (*n).(*ast.BinaryNode); ok {
		*n = g.lift(b)
	}
}

// lift turns b = (not x) op y into not (x op y), unless the `not` is
// parenthesized on its own.
func (g notLifter) lift(b *ast.BinaryNode) ast.Node {
	u, ok := b.Left.(*ast.UnaryNode)
	if !ok || u.Operator != "not" || !bindsTighterThanNot(b.Operator) || g.closedBetween(u.Location().From, b.Location().From) {
		return b
	}
	b.Left = u.Node
	u.Node = g.lift(b)
	return u
}

// bindsTighterThanNot reports whether Python's `not` takes op's whole
// operation as its operand: every operator between `and` and `not` in expr's
// table (comparisons, `in`, `+`, `-`); `*` and above already bind tighter.
func bindsTighterThanNot(op string) bool {
	prec := operator.Binary[op].Precedence
	return prec > operator.Binary["and"].Precedence && prec < operator.Unary["not"].Precedence
}

// closedBetween reports whether a parenthesis group encloses offset from but
// closes before offset to.
func (g notLifter) closedBetween(from, to int) bool {
	for _, gr := range g {
		if gr.open < from && from < gr.close && gr.close < to {
			return true
		}
	}
	return false
}

// describe names a node for "unsupported" messages.
func describe(n ast.Node) string {
	switch n := n.(type) {
	case *ast.ConditionalNode:
		return "conditional expression"
	case *ast.ChainNode:
		return "optional chaining `?.`"
	case *ast.SliceNode:
		return "slicing"
	case *ast.MemberNode:
		return "indexing"
	case *ast.ArrayNode:
		return "list literal"
	case *ast.MapNode:
		return "map literal"
	case *ast.BytesNode:
		return "byte string"
	case *ast.VariableDeclaratorNode:
		return "`let`"
	case *ast.SequenceNode:
		return "`;`"
	case *ast.PointerNode:
		return "`#`"
	case *ast.BinaryNode:
		return "operator `" + n.Operator + "`"
	}
	return fmt.Sprintf("%T", n)
}

// first is the offset of a node's first token: expr locates operators and
// members at their operator or name, not where their operands start.
func first(n ast.Node) int {
	v := &firstFinder{at: n.Location().From}
	ast.Walk(&n, v)
	return v.at
}

type firstFinder struct{ at int }

func (f *firstFinder) Visit(n *ast.Node) {
	f.at = min(f.at, (*n).Location().From)
}
