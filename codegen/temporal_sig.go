package codegen

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"slices"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/ir"
)

// goImport is one import of the Temporal file; Gap starts a new group.
type goImport struct {
	Name, Path string
	Gap        bool
}

// signatures are the handler methods and Run of a shell, as Go text, and
// the imports their types need.
type signatures struct {
	methods map[string]method
	more    []string // the methods moreHandlers adds, in order
	run     method
	imports []goImport
}

// parseSignatures writes the handler methods and Run of sh into an
// interface through jennifer, the way the native file spells them, and
// reads them back: the Temporal file repeats them with other bodies.
func parseSignatures(pkg string, sh *shell) (signatures, error) {
	run := sh.runs[0]
	f := newFile(pkg, "")
	f.Type().Id("signatures").InterfaceFunc(func(g *jen.Group) {
		if sh.moreHandlers != nil {
			sh.moreHandlers(g)
		}
		for _, h := range sh.handlers {
			g.Add(h.signature(jen.Id(h.name)))
		}
		g.Id(runSignature).Params(append([]jen.Code{ctxParam()}, run.params...)...).Params(run.results...)
	})
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return signatures{}, err
	}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "", buf.Bytes(), 0)
	if err != nil {
		return signatures{}, err
	}
	reads, writes := distributedIO(sh.w)
	sigs := signatures{methods: map[string]method{}, imports: temporalImports(file, inputDecoders[sh.w.Mode] != "", sh.w.Mode == ir.ModeTyped && len(sh.w.Regions) == 0, reads || writes)}
	for _, fld := range signaturesOf(file).Methods.List {
		if len(fld.Names) == 0 { // an embedded interface of the runtime
			if fld, err = embeddedMethod(nodeText(fset, fld.Type)); err != nil {
				return signatures{}, err
			}
		}
		m := readMethod(fset, fld)
		switch {
		case m.Name == runSignature:
			sigs.run = m
		case !slices.ContainsFunc(sh.handlers, func(h handler) bool { return h.name == m.Name }):
			sigs.more = append(sigs.more, m.Name)
			fallthrough
		default:
			sigs.methods[m.Name] = m
		}
	}
	return sigs, nil
}

// embeddedMethods are the methods of the runtime's interfaces that a
// handlers interface may embed, by the name it embeds them with.
var embeddedMethods = map[string]string{
	RuntimeAlias + ".Summarizer": "Summarize(ctx context.Context, history " + RuntimeAlias + ".Messages) (" + RuntimeAlias + ".Messages, error)",
}

// embeddedMethod returns the method of an embedded interface, as a field
// of an interface.
func embeddedMethod(name string) (*ast.Field, error) {
	text, ok := embeddedMethods[name]
	if !ok {
		return nil, fmt.Errorf("flowc does not know the methods of handlers interface member %s (a bug in flowc, please report it)", name)
	}
	file, err := parser.ParseFile(token.NewFileSet(), "", "package p\ntype i interface{ "+text+" }", 0)
	if err != nil {
		return nil, err
	}
	return file.Decls[0].(*ast.GenDecl).Specs[0].(*ast.TypeSpec).Type.(*ast.InterfaceType).Methods.List[0], nil
}

// runSignature names the entry point among the handler methods: a name
// no handler can take (a handler may be called Run).
const runSignature = "flowcǂrun"

func readMethod(fset *token.FileSet, fld *ast.Field) method {
	ft := fld.Type.(*ast.FuncType)
	m := method{Name: fld.Names[0].Name}
	for _, p := range ft.Params.List[1:] { // after ctx
		t := nodeText(fset, p.Type)
		for _, n := range p.Names {
			m.Params = append(m.Params, param{Name: n.Name, Type: t})
		}
		if len(p.Names) == 0 {
			m.Params = append(m.Params, param{Name: "p" + strconv.Itoa(len(m.Params)), Type: t})
		}
	}
	if ft.Results != nil {
		for _, r := range ft.Results.List[:len(ft.Results.List)-1] { // before error
			m.Results = append(m.Results, nodeText(fset, r.Type))
		}
	}
	return m
}

func nodeText(fset *token.FileSet, n ast.Node) string {
	var b strings.Builder
	_ = printer.Fprint(&b, fset, n) // a parsed node always prints
	return b.String()
}

// temporalImports are the imports of the signatures and those of the
// Temporal file's own code, grouped as goimports would.
func temporalImports(file *ast.File, decodes, marshals, mapIO bool) []goImport {
	paths := map[string]string{
		"context":                     "",
		RuntimePath:                   RuntimeAlias,
		ImplPath:                      ImplAlias,
		TemporalPath:                  "",
		"go.temporal.io/sdk/worker":   "",
		"go.temporal.io/sdk/workflow": "",
	}
	if hasMethods(file) || mapIO { // a distributed Map's reader and writer are activities
		paths["go.temporal.io/sdk/activity"] = ""
	}
	if decodes || marshals {
		paths["encoding/json"] = ""
	}
	for _, spec := range file.Imports {
		p, _ := strconv.Unquote(spec.Path.Value)
		if spec.Name != nil {
			paths[p] = spec.Name.Name
		} else if _, ok := paths[p]; !ok {
			paths[p] = ""
		}
	}
	var imps []goImport
	for p, name := range paths {
		if name == p[strings.LastIndexByte(p, '/')+1:] {
			name = ""
		}
		imps = append(imps, goImport{Name: name, Path: p})
	}
	imps = importOrder(imps)
	for i := 1; i < len(imps); i++ {
		if !strings.Contains(imps[i-1].Path, ".") && strings.Contains(imps[i].Path, ".") {
			imps[i].Gap = true
		}
	}
	return imps
}

// updateMarshaler is typed mode's MarshalJSON of the update, for an update
// that crosses Temporal as an activity's result; the native file has it
// already when the workflow has fan-outs, whose checkpoints save updates.
func updateMarshaler(w *ir.Workflow) (string, error) {
	if w.Mode != ir.ModeTyped || len(w.Regions) > 0 {
		return "", nil
	}
	f := newFile(w.Package, "")
	(&typedGen{w: w, n: newNames(w)}).marshalUpdate(f)
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return "", err
	}
	src := buf.String()
	return src[strings.Index(src, "\n// MarshalJSON"):], nil
}

// hasMethods: the interface of the signatures has a handler besides Run.
func hasMethods(file *ast.File) bool {
	return len(signaturesOf(file).Methods.List) > 1
}

func signaturesOf(file *ast.File) *ast.InterfaceType {
	return file.Decls[len(file.Decls)-1].(*ast.GenDecl).Specs[0].(*ast.TypeSpec).Type.(*ast.InterfaceType)
}
