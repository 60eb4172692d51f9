package expression

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strconv"
	"strings"
	"testing"

	"github.com/flowc-dev/flowc/ir"
)

// testEnv is the state of the tests: a field of each kind of type, the
// named struct Ticket as item, and the approval variable `decision`.
func testEnv() *Env {
	pkg := types.NewPackage("example.com/app", "app")
	str, num := types.Typ[types.String], types.Typ[types.Int]
	ticket := named(pkg, "Ticket", types.NewStruct([]*types.Var{
		types.NewField(0, pkg, "Priority", num, false),
		types.NewField(0, pkg, "Title", str, false),
		types.NewField(0, pkg, "secret", str, false),
	}, []string{`json:"priority"`, "", ""}))
	kind := named(pkg, "Kind", str)
	return &Env{
		Fields: []Field{
			{"status", "Status", str},
			{"count", "Count", num},
			{"score", "Score", types.Typ[types.Float64]},
			{"labels", "Labels", types.NewMap(str, str)},
			{"tags", "Tags", types.NewSlice(str)},
			{"messages", "Messages", types.NewSlice(str)},
			{"ticket", "Ticket", ticket},
			{"kind", "Kind", kind},
			{"kinds", "Kinds", types.NewSlice(kind)},
			{"level", "Level", named(pkg, "Level", num)},
			{"error_count", "ErrorCount", num},
			{"type", "Type", str},
			{"message", "Message", str},
			{"keys", "Keys", types.NewSlice(str)},
			{"small", "Small", types.Typ[types.Uint8]},
			{"ratio", "Ratio", types.Typ[types.Float32]},
			{"flag", "Flag", types.Typ[types.Bool]},
			{"owner", "Owner", types.NewPointer(ticket)},
			{"meta", "Meta", types.NewInterfaceType(nil, nil)},
		},
		Item: ticket,
		Vars: []Field{{"decision", "decision", str}},
	}
}

func named(pkg *types.Package, name string, underlying types.Type) *types.Named {
	return types.NewNamed(types.NewTypeName(0, pkg, name, nil), underlying, nil)
}

// goDecls declares testEnv's types in Go, and helpers with the signatures of
// what the code generator calls, so that a lowered tree can be compiled.
const goDecls = `package app

type Ticket struct {
	Priority int ` + "`json:\"priority\"`" + `
	Title    string
	secret   string
}
type Kind string
type Level int

type State struct {
	Status     string
	Count      int
	Score      float64
	Labels     map[string]string
	Tags       []string
	Messages   []string
	Ticket     Ticket
	Kind       Kind
	Kinds      []Kind
	Level      Level
	ErrorCount int
	Type       string
	Message    string
	Keys       []string
	Small      uint8
	Ratio      float32
	Flag       bool
	Owner      *Ticket
	Meta       any
}

func toLower(s string) string                                  { return s }
func runeCount(s string) int                                   { return len(s) }
func toUpper(s string) string                                  { return s }
func hasPrefix(s, prefix string) bool                          { return true }
func hasSuffix(s, suffix string) bool                          { return true }
func contains(s, substr string) bool                           { return true }
func sliceContains[S ~[]E, E comparable](s S, v E) bool         { return true }
func hasKey[M ~map[K]V, K comparable, V any](m M, key K) bool { _, ok := m[key]; return ok }
`

// compileGo type-checks e printed as Go in an if statement, as generated
// code uses a condition.
func compileGo(t testing.TB, e *ir.Expr) {
	t.Helper()
	src := goDecls + "\nfunc cond(s *State, item Ticket, decision string) bool {\n\tif " +
		goExpr(e) + " {\n\t\treturn true\n\t}\n\treturn false\n}\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "cond.go", src, 0)
	if err != nil {
		t.Fatalf("%s: printed Go does not parse: %v\n%s", e.Source, err, src)
	}
	if _, err := new(types.Config).Check("app", fset, []*ast.File{f}, nil); err != nil {
		t.Fatalf("%s: printed Go does not compile: %v\n%s", e.Source, err, goExpr(e))
	}
}

var goCalls = map[string]string{
	ir.CallLower: "toLower", ir.CallUpper: "toUpper", ir.CallStartsWith: "hasPrefix",
	ir.CallEndsWith: "hasSuffix", ir.CallContains: "contains", ir.CallHasKey: "hasKey",
	ir.CallInSlice: "sliceContains", ir.CallLen: "len", ir.CallRuneCount: "runeCount",
}

// goExpr prints e as Go, the way the code generator is expected to.
func goExpr(e *ir.Expr) string {
	switch e.Kind {
	case ir.ExprLit:
		return goLit(e.Lit)
	case ir.ExprField:
		return "s." + strings.Join(e.Path, ".")
	case ir.ExprItem:
		return strings.Join(append([]string{"item"}, e.Path...), ".")
	case ir.ExprVar:
		return e.Name
	case ir.ExprUnary:
		return "(" + e.Op + goExpr(e.Args[0]) + ")"
	case ir.ExprBinary:
		return "(" + goExpr(e.Args[0]) + " " + e.Op + " " + goExpr(e.Args[1]) + ")"
	case ir.ExprConvert:
		return e.Op + "(" + goExpr(e.Args[0]) + ")"
	}
	if e.Op == ir.CallIsNil {
		return "(" + goExpr(e.Args[0]) + " == nil)"
	}
	args := make([]string, len(e.Args))
	for i, a := range e.Args {
		args[i] = goExpr(a)
	}
	return goCalls[e.Op] + "(" + strings.Join(args, ", ") + ")"
}

// goLit keeps a float a float: printed as 2, 2.0 would divide as an int.
func goLit(lit any) string {
	switch v := lit.(type) {
	case nil:
		return "nil"
	case string:
		return strconv.Quote(v)
	case float64:
		s := strconv.FormatFloat(v, 'g', -1, 64)
		if !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
		return s
	}
	return fmt.Sprint(lit)
}

// sexpr renders e compactly for assertions, without positions.
func sexpr(e *ir.Expr) string {
	switch e.Kind {
	case ir.ExprLit:
		return goLit(e.Lit)
	case ir.ExprField:
		return "." + strings.Join(e.Path, ".")
	case ir.ExprItem:
		return strings.Join(append([]string{"item"}, e.Path...), ".")
	case ir.ExprVar:
		return "$" + e.Name
	}
	parts := []string{e.Op}
	for _, a := range e.Args {
		parts = append(parts, sexpr(a))
	}
	return "(" + strings.Join(parts, " ") + ")"
}
