package emit

import (
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
)

// rendered is the line of a gofmt'd file that jennifer writes for code,
// found by its prefix.
func rendered(t *testing.T, prefix string, code jen.Code) string {
	t.Helper()
	f := NewFile("p", "")
	f.Add(code)
	src, err := Render(f)
	require.NoError(t, err)
	for line := range strings.SplitSeq(string(src), "\n") {
		if strings.HasPrefix(line, prefix) {
			return line
		}
	}
	t.Fatalf("no line starts with %q in\n%s", prefix, src)
	return ""
}

// The text a target writes past jennifer (bulk lines, the Temporal file)
// is what jennifer and gofmt write for the same signature, for every kind
// of type a plan holds.
func TestSigTextIsJennifers(t *testing.T) {
	str, own := plan.BasicType("string"), plan.OwnType("State")
	call := plan.RtType(plan.RuntimePath, "JSONCall")
	for _, sig := range []plan.Sig{
		{},
		{Results: []*ir.Type{str}},
		{Params: []plan.Param{{Name: "s", Typ: own}}, Results: []*ir.Type{own, str}},
		{Params: []plan.Param{{Name: "call", Typ: call}}, Results: []*ir.Type{{Kind: ir.TypeMessages}}},
		{Params: []plan.Param{
			{Name: "xs", Typ: &ir.Type{Kind: ir.TypeSlice, Elem: &ir.Type{Kind: ir.TypePointer, Elem: call}}},
			{Name: "m", Typ: &ir.Type{Kind: ir.TypeMap, Key: str, Elem: plan.BasicType("any")}},
		}},
	} {
		var text strings.Builder
		text.WriteString("func M")
		Imports(nil).WriteSig(&text, sig)
		text.WriteString(" {}")
		want := rendered(t, "func M(", jen.Func().Add(SigCode(jen.Id("M"), sig)).Block())
		assert.Equal(t, want, text.String())
		assert.True(t, BulkSig(sig))
	}
}

// A type from a package the native file may not import yet cannot be bulk
// text; the Temporal file's imports name it.
func TestBulkSigNeedsImportedPackages(t *testing.T) {
	item := &ir.Type{Kind: ir.TypeNamed, Pkg: "example.com/shop/order", Name: "Item"}
	sig := plan.Sig{Params: []plan.Param{{Name: "item", Typ: &ir.Type{Kind: ir.TypeSlice, Elem: item}}}}
	assert.False(t, BulkSig(sig))
	im := Imports{}
	assert.Equal(t, "[]order.Item", im.Type(sig.Params[0].Typ))
	assert.Equal(t, "flowcimpl.DecodeChainInput", im.Ref(&plan.Ref{Pkg: plan.ImplPath, Name: "DecodeChainInput"}))
	im["context"] = ""
	assert.Equal(t, []Import{
		{Path: "context"},
		{Path: "example.com/shop/order", Gap: true},
		{Name: ImplAlias, Path: plan.ImplPath},
	}, im.Lines())
}

// A mock call as text is what jennifer writes for it.
func TestMockTextIsJennifers(t *testing.T) {
	for _, c := range []*plan.MockCall{
		{Method: "RespondASL", Args: []plan.MockArg{{Param: "ctx"}, {Param: "in"}}},
		{Own: true, Method: "respond", Args: []plan.MockArg{{Param: "ctx"}, {}, {Lit: new("")}}},
		{Method: "Respond", Args: []plan.MockArg{{Lit: new("a \"quoted\"\\ label\n")}}},
	} {
		var text strings.Builder
		text.WriteString("\t")
		WriteMock(&text, c)
		want := rendered(t, "\treturn", jen.Func().Id("f").Params().Block(MockCode(c)...))
		assert.Equal(t, want, text.String())
	}
}
