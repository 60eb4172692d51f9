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

	"github.com/flowc-dev/flowc/compiler/diag"
	"github.com/flowc-dev/flowc/ir"
)

// parsed is an expression's syntax tree and what is needed to point into its
// text. expr-lang locates nodes by rune offsets into the text.
type parsed struct {
	text   []rune
	pos    ir.Pos
	where  []ir.Pos // the file position of each rune, when known
	tree   *parser.Tree
	groups []group // parenthesized spans, which the tree does not record
	diags  diag.List
}

// group is a pair of parentheses, as rune offsets.
type group struct{ open, close int }

// parse parses src and rejects the syntax conditions do not support.
func parse(src Source) *parsed {
	p := &parsed{text: []rune(src.Text), pos: src.Pos, where: src.Where}
	tree, err := parser.Parse(src.Text)
	if err != nil {
		p.syntaxError(err)
		return p
	}
	p.tree = tree
	p.scanTokens(src.Text)
	validate(p, tree.Node)
	return p
}

func (p *parsed) errorf(offset int, format string, args ...any) {
	p.diags.Errorf(p.position(offset), format, args...)
}

// position maps a rune offset of the text to its place in the file: from the
// front-end's map of the text when there is one (an offset past the end is
// just after the last rune), else by counting from the start, taking a line
// after a newline of the text to start at column 1.
func (p *parsed) position(offset int) ir.Pos {
	if n := len(p.where); n > 0 {
		if offset < n {
			return p.where[max(offset, 0)]
		}
		return p.where[n-1].Shift(offset - n + 1)
	}
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
func (p *parsed) scanTokens(text string) {
	tokens, err := lexer.Lex(file.NewSource(text))
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
