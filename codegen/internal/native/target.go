package native

import (
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
)

// Target writes a workflow as plain Go: the workflow's file and, beside
// it, the mock handlers that tests and `flowc run` use, in a file a
// production build can leave out.
type Target struct {
	// Dialect is the dialect that writes the Go of a plan.
	Dialect func(p *plan.Plan) emit.Dialect
}

// Files writes the workflow's file and its mock file.
func (t Target) Files(p *plan.Plan, opts emit.Options) ([]emit.File, error) {
	files, err := t.files(p, opts, false)
	if err == nil && !(emit.ImportsContext(files[0].Content) && emit.ImportsContext(files[1].Content)) {
		// An import took the name context, which bulk text assumes:
		// write everything through jennifer instead.
		files, err = t.files(p, opts, true)
	}
	return files, err
}

func (t Target) files(p *plan.Plan, opts emit.Options, noBulk bool) ([]emit.File, error) {
	f, mf := emit.NewFile(p.Package, opts.Source), emit.NewFile(p.Package, opts.Source)
	childFlows(f, p.Workflow)
	w := writer{Bulk: &emit.Bulk{Off: noBulk}, MockFile: mf, MockBulk: &emit.Bulk{Off: noBulk}}
	emit.Emit(f, p, t.Dialect(p), w)
	content, err := renderFilled(f, w.Bulk)
	if err != nil {
		return nil, err
	}
	mock, err := renderFilled(mf, w.MockBulk)
	if err != nil {
		return nil, err
	}
	return []emit.File{{Name: opts.FileName, Content: content}, {Name: mockFileName(opts.FileName), Content: mock}}, nil
}

func renderFilled(f *jen.File, b *emit.Bulk) ([]byte, error) {
	content, err := emit.Render(f)
	if err != nil {
		return nil, err
	}
	return b.Fill(content)
}

// mockFileName is the name of the mock file beside the workflow's file
// flowFile ("triage_flow.go" -> "triage_mock_flow.go").
func mockFileName(flowFile string) string {
	base := strings.TrimSuffix(flowFile, ".go")
	if stem, ok := strings.CutSuffix(base, "_flow"); ok {
		return stem + "_mock_flow.go"
	}
	return base + "_mock.go"
}

// childFlows names the files of the child flows compiled into f: the file
// goes stale when they change too.
func childFlows(f *jen.File, w *ir.Workflow) {
	var paths []string
	for _, sf := range w.AllSubflows() {
		paths = append(paths, sf.Path)
	}
	if len(paths) > 0 {
		f.HeaderComment("child flows, relative to the source: " + emit.OneLine(strings.Join(paths, ", ")))
	}
}
