// Package compiler turns a workflow definition into checked IR: it detects
// the dialect, runs that dialect's front-end, then the shared checker.
package compiler

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"

	"github.com/flowc-dev/flowc/compiler/check"
	"github.com/flowc-dev/flowc/compiler/diag"
	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/internal/naming"
	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
)

// Options adjust a compilation.
type Options struct {
	// Generated is where the output will be written; its old contents are
	// ignored when the package's types are loaded.
	Generated string
	// NoPackage skips loading the target Go package (`go list`, slow): named
	// types and reducer functions are then unknown and reported as errors.
	// Fuzzing uses it to check thousands of definitions a second.
	NoPackage bool
}

// Compile reads the definition at path (src is its contents) and returns the
// plan of the checked workflow, which every generator reads, with all
// diagnostics, warnings included. The plan is nil when there are errors.
func Compile(path string, src []byte, opts Options) (*plan.Plan, diag.List) {
	d, w, lds := lower(path, src, opts)
	if w == nil || lds.HasErrors() && !d.CheckRejected {
		lds.Sort()
		return nil, lds
	}
	checked, cds := check.Check(w, check.Options{Dir: outputDir(path, opts), Generated: opts.Generated, NoPackage: opts.NoPackage})
	ds := append(lds, cds...)
	ds.Sort()
	if ds.HasErrors() {
		return nil, ds
	}
	// The plan is the checker's last step: the facts every generator reads,
	// derived once from what the checker returned, by the planner of the
	// mode the front-end chose.
	planner := d.Plans[checked.Mode]
	if planner == nil { // a front-end gave a mode its record does not plan
		ds.Errorf(w.Pos, "internal error: the %s dialect has no planner for mode %d", d.Name, checked.Mode)
		return nil, ds
	}
	return planner(checked), ds
}

// Lower reads the definition at path (src is its contents) and runs its
// dialect's front-end, without the checker, which loads the Go package as
// it is now on disk. `flowc breaking` lowers an old version with it: the
// same parsing and defaults as Compile, so the two cannot drift apart. The
// workflow is nil when the file could not be read as any dialect; it may
// come with errors.
func Lower(path string, src []byte, opts Options) (*ir.Workflow, diag.List) {
	_, w, ds := lower(path, src, opts)
	return w, ds
}

// lower is Lower with the dialect that detected the file, nil when none did.
func lower(path string, src []byte, opts Options) (*Dialect, *ir.Workflow, diag.List) {
	r := &yamlx.Reader{File: path}
	root, notJSON := r.ParseSource(src)
	if root == nil {
		return nil, nil, r.Diags
	}
	d := detect(root)
	if d == nil {
		r.Diags.Errorf(r.Pos(root), "%s", notAWorkflow())
		return nil, nil, r.Diags
	}
	if notJSON != nil && d.JSONOnly {
		notJSON.Report(r)
		return nil, nil, r.Diags
	}
	dir := outputDir(path, opts)
	w := d.Lower(r, root, Defaults{Stem: Stem(path), Package: DefaultPackage(dir), DirPackage: packageOfDir(dir), Dir: dir})
	if w != nil {
		w.Source = filepath.ToSlash(path)
	}
	return d, w, r.Diags
}

// outputDir is where the generated file goes: its package is the workflow's.
func outputDir(path string, opts Options) string {
	if opts.Generated != "" {
		return filepath.Dir(opts.Generated)
	}
	return filepath.Dir(path)
}

// Stem is the file name without directory and flowc suffix:
// "triage.flow.yaml" → "triage".
func Stem(path string) string {
	base := filepath.Base(path)
	if suf := suffixOf(base); suf != "" {
		return strings.TrimSuffix(base, suf)
	}
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// OutputName is the generated file's name: "<stem>_flow.go".
func OutputName(path string) string {
	return strings.NewReplacer("-", "_", ".", "_", " ", "_").Replace(Stem(path)) + "_flow.go"
}

// DefaultPackage is the package of the Go files already in dir, else the
// directory name made into a package name, else "main".
func DefaultPackage(dir string) string {
	if name := packageOfDir(dir); name != "" {
		return name
	}
	abs, err := filepath.Abs(dir)
	if err == nil {
		if n := strings.ToLower(naming.Exported(filepath.Base(abs))); n != "" && !token.IsKeyword(n) {
			return n
		}
	}
	return "main"
}

// packageOfDir is the package clause of the Go files in dir (tests and
// generated workflows aside), or "" when there are none.
func packageOfDir(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || strings.HasSuffix(name, "_flow.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, name), nil, parser.PackageClauseOnly)
		if err == nil {
			return f.Name.Name
		}
	}
	return ""
}

// IsDefinition reports whether a file name is one flowc compiles.
func IsDefinition(name string) bool { return suffixOf(name) != "" }

// suffixOf is the suffix of a dialect that name ends in, or "".
func suffixOf(name string) string {
	for _, d := range Dialects {
		for _, suf := range d.Suffixes {
			if strings.HasSuffix(name, suf) {
				return suf
			}
		}
	}
	return ""
}
