package flowyaml

import (
	"go/ast"
	"go/parser"

	"github.com/flowc-dev/flowc/ir"
)

// basicTypes are the predeclared Go types a field may use.
var basicTypes = map[string]bool{
	"bool": true, "string": true, "byte": true, "rune": true, "any": true,
	"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true,
	"float32": true, "float64": true,
}

// parseType reads a field type written as Go ("[]string", "map[string]int",
// "*Ticket") into structure. `messages` names the runtime's chat history.
// It returns a reason when the text is not a type flowc accepts.
func parseType(s string) (*ir.Type, string) {
	if s == "messages" {
		return &ir.Type{Kind: ir.TypeMessages}, ""
	}
	e, err := parser.ParseExpr(s)
	if err != nil {
		return nil, "not a Go type"
	}
	return typeOf(e)
}

func typeOf(e ast.Expr) (*ir.Type, string) {
	switch e := e.(type) {
	case *ast.Ident:
		if basicTypes[e.Name] {
			return &ir.Type{Kind: ir.TypeBasic, Name: e.Name}, ""
		}
		return &ir.Type{Kind: ir.TypeNamed, Name: e.Name}, ""
	case *ast.ArrayType:
		if e.Len != nil {
			return nil, "arrays are not supported; use a slice"
		}
		return wrap(ir.TypeSlice, nil, e.Elt)
	case *ast.MapType:
		key, why := typeOf(e.Key)
		if key == nil {
			return nil, why
		}
		return wrap(ir.TypeMap, key, e.Value)
	case *ast.StarExpr:
		return wrap(ir.TypePointer, nil, e.X)
	case *ast.ParenExpr:
		return typeOf(e.X)
	case *ast.SelectorExpr:
		return nil, "only types of the workflow's own package can be named"
	}
	return nil, "not a supported type (basic types, slices, maps, pointers and named types of the package)"
}

func wrap(kind ir.TypeKind, key *ir.Type, elem ast.Expr) (*ir.Type, string) {
	el, why := typeOf(elem)
	if el == nil {
		return nil, why
	}
	return &ir.Type{Kind: kind, Key: key, Elem: el}, ""
}
