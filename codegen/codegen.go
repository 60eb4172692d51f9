// Package codegen turns a checked workflow into Go source. It returns files
// and never touches the disk: only cmd/flowc writes, diffs or checks them.
package codegen

import (
	"github.com/flowc-dev/flowc/codegen/internal/dialect"
	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/codegen/internal/native"
	"github.com/flowc-dev/flowc/codegen/internal/temporal"
	"github.com/flowc-dev/flowc/ir/plan"
)

// Options shape the output: the native file's name, and the definition's
// path relative to it for the header.
type Options = emit.Options

// File is one generated file.
type File = emit.File

// Target writes the files of a workflow from its plan.
type Target = emit.Target

// The targets: the native one writes the workflow and its mocks as plain
// Go, each plan through its dialect; the Temporal one writes, beside
// them, the file that runs the same steps on Temporal.
var (
	nativeTarget   Target = native.Target{Dialect: dialect.Of}
	temporalTarget Target = temporal.Target{}
)

// files checks the conditions a target prints as Go, then asks target t
// for the files of plan p.
func files(t Target, p *plan.Plan, opts Options) ([]File, error) {
	if err := checkExprs(p); err != nil {
		return nil, err
	}
	return t.Files(p, opts)
}

// Generate emits the Go files of a workflow from its plan: the workflow
// itself, and beside it the mock handlers that tests and `flowc run` use,
// in a file a production build can leave out.
func Generate(p *plan.Plan, opts Options) ([]File, error) {
	return files(nativeTarget, p, opts)
}

// GenerateTemporal emits the Temporal file of a workflow from its plan;
// opts are those of its native file.
func GenerateTemporal(p *plan.Plan, opts Options) (File, error) {
	fs, err := files(temporalTarget, p, opts)
	if err != nil {
		return File{}, err
	}
	return fs[0], nil
}

// checkExprs checks the conditions the target prints as Go with the
// printer.
func checkExprs(p *plan.Plan) error {
	if p.RuntimeConditions {
		return nil
	}
	c := p.Checked
	for _, s := range c.States {
		t := s.Next
		if err := emit.CheckExpr(c.Cond(t.Cond)); err != nil {
			return err
		}
		for _, cs := range t.Cases {
			if err := emit.CheckExpr(c.Cond(cs.Cond)); err != nil {
				return err
			}
		}
	}
	return nil
}
