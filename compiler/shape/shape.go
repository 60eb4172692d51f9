// Package shape reads, from Go source, the shape of the state a checkpoint
// of a typed workflow saves, which `flowc breaking` compares across two
// versions of a definition. A session computes the same shape from the
// compiled types when it saves a checkpoint and compares it when it
// resumes one (runtime/impl/checkpoint_shape.go); this package mirrors
// that from source, for an old version whose package cannot be compiled.
// It is a static analysis of a definition and its package's Go files, as
// the checker is, so it sits in the compiler: not in the runtime or
// session, whose source every generated program links or flowc carries
// into the programs it builds, and which must not carry go/ast and
// go/types; nor in cmd, which only parses flags and prints.
package shape

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/flowc-dev/flowc/ir"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
)

// stateRoot names the generated state struct in the shapes this package
// builds: no Go type can be spelled so.
const stateRoot = "(state)"

// Package holds the types a typed state names, read from the Go files of
// its package, syntactically: an old version's package is not on disk to
// type-check, and the JSON a type decodes from is written in its
// declaration. It spells types as the runtime does from the compiled
// types (flowcimpl.Shape), by encoding/json's rules: exported fields
// under their tag's name, untagged embedded structs promoted. A type of
// another package is known by its import path and name only.
type Package struct {
	fset    *token.FileSet
	display func(string) string
	specs   map[string]*ast.TypeSpec
	fileOf  map[string]*ast.File // the file declaring each type
	custom  map[string]bool      // types with UnmarshalJSON or UnmarshalText

	shape flowcimpl.Shape
	pos   map[string]map[string]token.Position // type → JSON key → where the field is declared
}

// Files reads the files of one version of a package: from disk, or as a
// git revision has them.
type Files interface {
	Read(path string) ([]byte, error)
	GoFiles(dir string) ([]string, error) // the paths of dir's .go files
	Display(path string) string           // how positions name path
}

// Load parses the Go files of dir as src has them, leaving out tests and
// the files flowc generates.
func Load(dir string, src Files) (*Package, error) {
	files, err := src.GoFiles(dir)
	if err != nil {
		return nil, err
	}
	p := &Package{fset: token.NewFileSet(), display: src.Display,
		specs: map[string]*ast.TypeSpec{}, fileOf: map[string]*ast.File{}, custom: map[string]bool{}}
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") || strings.HasSuffix(path, "_flow.go") {
			continue
		}
		data, err := src.Read(path)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(p.fset, path, data, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		p.declare(f)
	}
	return p, nil
}

func (p *Package) declare(f *ast.File) {
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				if ts, ok := spec.(*ast.TypeSpec); ok && ts.TypeParams == nil {
					p.specs[ts.Name.Name], p.fileOf[ts.Name.Name] = ts, f
				}
			}
		case *ast.FuncDecl:
			if d.Recv != nil && len(d.Recv.List) == 1 && (d.Name.Name == "UnmarshalJSON" || d.Name.Name == "UnmarshalText") {
				if id, ok := ast.Unparen(derefExpr(d.Recv.List[0].Type)).(*ast.Ident); ok {
					p.custom[id.Name] = true
				}
			}
		}
	}
}

func derefExpr(e ast.Expr) ast.Expr {
	if star, ok := e.(*ast.StarExpr); ok {
		return star.X
	}
	return e
}

// Of returns the shape of w's state, spelt as a checkpoint spells it from
// the compiled types, so that flowcimpl.DiffShapes compares the two.
func (p *Package) Of(w *ir.Workflow) flowcimpl.Shape {
	p.shape = flowcimpl.Shape{Root: stateRoot, Types: map[string]flowcimpl.ShapeType{}}
	p.pos = map[string]map[string]token.Position{}
	fields := map[string]string{}
	for _, f := range w.Fields {
		if f.Type != nil {
			fields[f.Name] = p.spellIR(f.Type)
		}
	}
	p.shape.Types[stateRoot] = flowcimpl.ShapeType{Fields: fields}
	return p.shape
}

// FieldPos is where field key of type typ is declared: a field of the
// state in the definition, one of a named type in its Go file.
func (p *Package) FieldPos(w *ir.Workflow, typ, key string) ir.Pos {
	if typ == stateRoot {
		for _, f := range w.Fields {
			if f.Name == key {
				return f.Pos
			}
		}
	}
	if at, ok := p.pos[typ][key]; ok {
		return ir.Pos{File: p.display(at.Filename), Line: at.Line, Col: at.Column}
	}
	return w.Pos
}

func (p *Package) spellIR(t *ir.Type) string {
	switch t.Kind {
	case ir.TypeSlice:
		return "[]" + p.spellIR(t.Elem)
	case ir.TypeMap:
		return "map[" + p.spellIR(t.Key) + "]" + p.spellIR(t.Elem)
	case ir.TypePointer:
		return "*" + p.spellIR(t.Elem)
	case ir.TypeMessages:
		return "messages"
	case ir.TypeNamed:
		return p.named(t.Name)
	}
	return basicSpelling(t.Name)
}

// basicSpelling spells a predeclared type as reflect names its kind.
func basicSpelling(name string) string {
	switch name {
	case "byte":
		return "uint8"
	case "rune":
		return "int32"
	}
	return name
}

// named spells a type of the package, recording what it holds.
func (p *Package) named(name string) string {
	spec, ok := p.specs[name]
	if !ok {
		p.shape.Types[name] = flowcimpl.ShapeType{Is: flowcimpl.ShapeCustom} // not declared: known by name
		return name
	}
	if spec.Assign.IsValid() { // an alias is the type it names
		return p.spell(spec.Type, p.fileOf[name])
	}
	if _, seen := p.shape.Types[name]; seen {
		return name
	}
	p.shape.Types[name] = flowcimpl.ShapeType{} // placeholder: recursive types end here
	file := p.fileOf[name]
	switch st, isStruct := spec.Type.(*ast.StructType); {
	case p.custom[name]:
		p.shape.Types[name] = flowcimpl.ShapeType{Is: flowcimpl.ShapeCustom}
	case isStruct:
		p.shape.Types[name] = flowcimpl.ShapeType{Fields: p.fields(name, st, file)}
	default:
		p.shape.Types[name] = flowcimpl.ShapeType{Is: p.spell(spec.Type, file)}
	}
	return name
}

// spell spells a type expression of file.
func (p *Package) spell(e ast.Expr, file *ast.File) string {
	switch e := e.(type) {
	case *ast.Ident:
		if obj := types.Universe.Lookup(e.Name); obj != nil {
			return basicSpelling(e.Name)
		}
		return p.named(e.Name)
	case *ast.ParenExpr:
		return p.spell(e.X, file)
	case *ast.StarExpr:
		return "*" + p.spell(e.X, file)
	case *ast.ArrayType:
		if e.Len == nil {
			return "[]" + p.spell(e.Elt, file)
		}
		return "[" + types.ExprString(e.Len) + "]" + p.spell(e.Elt, file)
	case *ast.MapType:
		return "map[" + p.spell(e.Key, file) + "]" + p.spell(e.Value, file)
	case *ast.InterfaceType:
		if len(e.Methods.List) == 0 {
			return "any"
		}
	case *ast.SelectorExpr:
		return p.foreign(e, file)
	case *ast.StructType:
		return p.anonymous(e, file)
	}
	return types.ExprString(e)
}

// foreign spells a type of another package by its import path, and knows
// it by name only.
func (p *Package) foreign(e *ast.SelectorExpr, file *ast.File) string {
	pkg, ok := e.X.(*ast.Ident)
	if !ok {
		return types.ExprString(e)
	}
	name := pkg.Name + "." + e.Sel.Name
	for _, imp := range file.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		alias := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			alias = imp.Name.Name
		}
		if alias == pkg.Name {
			name = path + "." + e.Sel.Name
		}
	}
	p.shape.Types[name] = flowcimpl.ShapeType{Is: flowcimpl.ShapeCustom}
	return name
}

func (p *Package) anonymous(st *ast.StructType, file *ast.File) string {
	fields := p.fields("", st, file)
	parts := make([]string, 0, len(fields))
	for _, key := range slices.Sorted(maps.Keys(fields)) {
		parts = append(parts, fmt.Sprintf("%q %s", key, fields[key]))
	}
	return "struct{" + strings.Join(parts, "; ") + "}"
}

// fields returns the fields encoding/json decodes into struct st, by key,
// recording where each is declared under owner (none for "").
func (p *Package) fields(owner string, st *ast.StructType, file *ast.File) map[string]string {
	out := map[string]string{}
	var embedded []string
	for _, f := range st.Fields.List {
		name, opts := jsonTag(f.Tag)
		if name == "-" && opts == "" {
			continue
		}
		if len(f.Names) == 0 {
			if id, ok := ast.Unparen(derefExpr(f.Type)).(*ast.Ident); ok && name == "" && p.isStruct(id.Name) {
				embedded = append(embedded, id.Name)
				continue
			}
		}
		for _, key := range fieldKeys(f, name) {
			spelling := p.spell(f.Type, file)
			if slices.Contains(strings.Split(opts, ","), "string") {
				spelling += ",string"
			}
			out[key.name] = spelling
			p.record(owner, key.name, key.at)
		}
	}
	for _, e := range embedded {
		promoted := p.fields(owner, p.specs[e].Type.(*ast.StructType), p.fileOf[e])
		for key, spelling := range promoted {
			if _, ok := out[key]; !ok {
				out[key] = spelling
			}
		}
	}
	return out
}

func (p *Package) isStruct(name string) bool {
	spec, ok := p.specs[name]
	if !ok {
		return false
	}
	_, isStruct := spec.Type.(*ast.StructType)
	return isStruct && !spec.Assign.IsValid()
}

func (p *Package) record(owner, key string, at token.Pos) {
	if owner == "" {
		return
	}
	if p.pos[owner] == nil {
		p.pos[owner] = map[string]token.Position{}
	}
	if _, ok := p.pos[owner][key]; !ok {
		p.pos[owner][key] = p.fset.Position(at)
	}
}

type fieldKey struct {
	name string
	at   token.Pos
}

// fieldKeys returns the JSON keys of a field declaration: its exported
// names (or, embedded, its type's name), or tag when it has one.
func fieldKeys(f *ast.Field, tag string) []fieldKey {
	var out []fieldKey
	if len(f.Names) == 0 {
		id, ok := ast.Unparen(derefExpr(f.Type)).(*ast.Ident)
		if sel, isSel := ast.Unparen(derefExpr(f.Type)).(*ast.SelectorExpr); isSel {
			id, ok = sel.Sel, true
		}
		if ok && (ast.IsExported(id.Name) || tag != "") {
			out = append(out, fieldKey{cmp.Or(tag, id.Name), f.Pos()})
		}
		return out
	}
	for _, n := range f.Names {
		if ast.IsExported(n.Name) {
			out = append(out, fieldKey{cmp.Or(tag, n.Name), n.Pos()})
		}
	}
	return out
}

// jsonTag returns the name and options of a field's json tag.
func jsonTag(lit *ast.BasicLit) (name, opts string) {
	if lit == nil {
		return "", ""
	}
	tag, err := strconv.Unquote(lit.Value)
	if err != nil {
		return "", ""
	}
	name, opts, _ = strings.Cut(reflect.StructTag(tag).Get("json"), ",")
	return name, opts
}
