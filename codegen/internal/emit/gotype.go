package emit

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
)

// This file is the one place that renders the plan's identifiers, types,
// signatures and mock calls as Go: through jennifer for the native file,
// and as text for the native target's bulk lines and for the Temporal
// file's template. The two renderings sit side by side so that they
// agree; TestSigTextIsJennifers, TestMockTextIsJennifers,
// TestBulkTextIsGofmtd and the golden cases hold them to it.

// The runtime's packages (plan.RuntimePath...) and the names generated
// files import them as: the runtime under RuntimeAlias (its name shadows
// the standard library's), the machinery under ImplAlias, each dialect's
// part of it (task chains, JSON mode, the States Language) under
// ChainAlias, JSONAlias and ASLAlias, the harness under HarnessAlias.
const (
	RuntimeAlias = "flowcrt"
	ImplAlias    = "flowcimpl"
	ChainAlias   = "flowcchain"
	JSONAlias    = "flowcjson"
	ASLAlias     = "flowcasl"
	HarnessAlias = "flowcrun"
)

// RuntimeAliases are the names generated files import the runtime packages as.
var RuntimeAliases = map[string]string{plan.RuntimePath: RuntimeAlias, plan.ImplPath: ImplAlias, plan.ChainPath: ChainAlias, plan.JSONPath: JSONAlias, plan.ASLPath: ASLAlias, plan.HarnessPath: HarnessAlias}

// Flowcrt is name in the users' runtime package: flowcrt.<name>.
func Flowcrt(name string) *jen.Statement { return jen.Qual(plan.RuntimePath, name) }

// Flowcimpl is name in the runtime's machinery: flowcimpl.<name>.
func Flowcimpl(name string) *jen.Statement { return jen.Qual(plan.ImplPath, name) }

// Flowcrun is name in the harness of mocks and programs: flowcrun.<name>.
func Flowcrun(name string) *jen.Statement { return jen.Qual(plan.HarnessPath, name) }

// Qual is the runtime identifier r.
func Qual(r *plan.Ref) *jen.Statement { return jen.Qual(r.Pkg, r.Name) }

// GoType renders a type.
func GoType(t *ir.Type) *jen.Statement {
	switch t.Kind {
	case ir.TypeSlice:
		return jen.Index().Add(GoType(t.Elem))
	case ir.TypeMap:
		return jen.Map(GoType(t.Key)).Add(GoType(t.Elem))
	case ir.TypePointer:
		return jen.Op("*").Add(GoType(t.Elem))
	case ir.TypeMessages:
		return Flowcrt("Messages")
	}
	if t.Pkg != "" {
		return jen.Qual(t.Pkg, t.Name)
	}
	return jen.Id(t.Name)
}

// SigCode renders the signature s after the method's name.
func SigCode(name *jen.Statement, s plan.Sig) *jen.Statement {
	params := []jen.Code{CtxParam()}
	for _, p := range s.Params {
		params = append(params, jen.Id(p.Name).Add(GoType(p.Typ)))
	}
	var results []jen.Code
	for _, r := range s.Results {
		results = append(results, GoType(r))
	}
	return name.Params(params...).Params(append(results, jen.Error())...)
}

// MockCode is the body of a mock method that returns c.
func MockCode(c *plan.MockCall) []jen.Code {
	recv := jen.Id("m")
	if !c.Own {
		recv = recv.Dot("mocks")
	}
	args := make([]jen.Code, len(c.Args))
	for i, a := range c.Args {
		switch {
		case a.Param != "":
			args[i] = jen.Id(a.Param)
		case a.Lit == nil:
			args[i] = jen.Nil()
		default:
			args[i] = jen.Lit(*a.Lit)
		}
	}
	return []jen.Code{jen.Return(recv.Dot(c.Method).Call(args...))}
}

// WriteMock writes MockCode as text to b.
func WriteMock(b *strings.Builder, c *plan.MockCall) {
	b.WriteString("return m.")
	if !c.Own {
		b.WriteString("mocks.")
	}
	b.WriteString(c.Method)
	b.WriteByte('(')
	for i, a := range c.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		switch {
		case a.Param != "":
			b.WriteString(a.Param)
		case a.Lit == nil:
			b.WriteString("nil")
		default:
			b.WriteString(strconv.Quote(*a.Lit))
		}
	}
	b.WriteByte(')')
}

// Imports are the packages a text rendering names, by path, with the name
// each is imported as; nil names only flowcrt, which the native file
// always imports (BulkSig).
type Imports map[string]string

// Name is the name path is imported as: the runtime's aliases, else the
// last element of the path as an identifier, made unique.
func (im Imports) Name(path string) string {
	if n, ok := im[path]; ok {
		return n
	}
	n := RuntimeAliases[path]
	if n == "" {
		n = packageName(path)
		for i := 2; slices.Contains(slices.Collect(maps.Values(im)), n); i++ {
			n = packageName(path) + strconv.Itoa(i)
		}
	}
	im[path] = n
	return n
}

// Ref is the runtime identifier r as text; "" for none.
func (im Imports) Ref(r *plan.Ref) string {
	if r == nil {
		return ""
	}
	return im.Name(r.Pkg) + "." + r.Name
}

// Type is GoType as text.
func (im Imports) Type(t *ir.Type) string {
	var b strings.Builder
	im.writeType(&b, t)
	return b.String()
}

func (im Imports) writeType(b *strings.Builder, t *ir.Type) {
	switch t.Kind {
	case ir.TypeSlice:
		b.WriteString("[]")
		im.writeType(b, t.Elem)
		return
	case ir.TypeMap:
		b.WriteString("map[")
		im.writeType(b, t.Key)
		b.WriteByte(']')
		im.writeType(b, t.Elem)
		return
	case ir.TypePointer:
		b.WriteByte('*')
		im.writeType(b, t.Elem)
		return
	case ir.TypeMessages:
		t = plan.RtType(plan.RuntimePath, "Messages")
	}
	switch {
	case t.Pkg == "":
	case im == nil:
		b.WriteString(RuntimeAlias + ".")
	default:
		b.WriteString(im.Name(t.Pkg) + ".")
	}
	b.WriteString(t.Name)
}

// WriteSig writes SigCode as text to b, after the method's name, with
// ctx's package spelled context.
func (im Imports) WriteSig(b *strings.Builder, s plan.Sig) {
	b.WriteString("(ctx context.Context")
	for _, p := range s.Params {
		b.WriteString(", ")
		b.WriteString(p.Name)
		b.WriteByte(' ')
		im.writeType(b, p.Typ)
	}
	if len(s.Results) == 0 { // gofmt drops the parentheses of a lone result
		b.WriteString(") error")
		return
	}
	b.WriteString(") (")
	for _, r := range s.Results {
		im.writeType(b, r)
		b.WriteString(", ")
	}
	b.WriteString("error)")
}

// BulkSig reports whether the native target may write s as bulk text: it
// names no package but flowcrt (and context), which the file imports,
// since the text goes past jennifer's imports.
func BulkSig(s plan.Sig) bool {
	for _, p := range s.Params {
		if !bulkType(p.Typ) {
			return false
		}
	}
	for _, r := range s.Results {
		if !bulkType(r) {
			return false
		}
	}
	return true
}

func bulkType(t *ir.Type) bool {
	switch t.Kind {
	case ir.TypeMap:
		return bulkType(t.Key) && bulkType(t.Elem)
	case ir.TypeSlice, ir.TypePointer:
		return bulkType(t.Elem)
	}
	return t.Pkg == "" || t.Pkg == plan.RuntimePath
}

// Import is one line of an import block; Gap starts a new group.
type Import struct {
	Name, Path string
	Gap        bool
}

// Lines are the imports of im as goimports groups them: the standard
// library first, then the rest, each sorted; a name is left out where it
// is the path's last element.
func (im Imports) Lines() []Import {
	var imps []Import
	for p, name := range im {
		if name == p[strings.LastIndexByte(p, '/')+1:] {
			name = ""
		}
		imps = append(imps, Import{Name: name, Path: p})
	}
	slices.SortFunc(imps, func(a, b Import) int {
		if sa, sb := isStdPath(a.Path), isStdPath(b.Path); sa != sb {
			if sa {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Path, b.Path)
	})
	for i := 1; i < len(imps); i++ {
		imps[i].Gap = isStdPath(imps[i-1].Path) && !isStdPath(imps[i].Path)
	}
	return imps
}

// isStdPath reports whether an import path names a standard package: one
// with no dot before its first slash.
func isStdPath(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// packageName guesses a package's name from its import path, as jennifer
// does: the last element, less what an identifier cannot hold.
func packageName(path string) string {
	last := path[strings.LastIndexByte(path, '/')+1:]
	name := strings.Map(func(r rune) rune {
		if r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, last)
	if name == "" || unicode.IsDigit(rune(name[0])) {
		name = "pkg" + name
	}
	return name
}

// NewFile starts a jennifer file with the fixed header and the names the
// runtime's packages are imported as. The package path is a placeholder
// that no real import can equal, so jennifer never imports the file's own
// package.
func NewFile(pkg, source string) *jen.File {
	f := jen.NewFilePathName("flowc.invalid/"+pkg, pkg)
	f.HeaderComment("Code generated by flowc. DO NOT EDIT.")
	if source != "" {
		f.HeaderComment("source: " + OneLine(source))
	}
	f.ImportAlias(plan.RuntimePath, RuntimeAlias)
	f.ImportAlias(plan.ImplPath, ImplAlias)
	f.ImportAlias(plan.ASLPath, ASLAlias)
	f.ImportAlias(plan.HarnessPath, HarnessAlias)
	return f
}
