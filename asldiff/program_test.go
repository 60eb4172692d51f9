package asldiff

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/flowc-dev/flowc"
	"github.com/flowc-dev/flowc/codegen"
	"github.com/flowc-dev/flowc/codegen/program"
	"github.com/flowc-dev/flowc/compiler"
)

// The corpus program holds every case's workflow, compiled as `flowc run`
// compiles it, in one Go program whose first argument picks the case: one
// build for the whole corpus, where `flowc run` builds a program per run.
const corpusModule = "asldiffrun"

// corpusProgram is the built program, and the cases that did not compile,
// with flowc's diagnostics.
type corpusProgram struct {
	bin      string
	machines map[string]string // case name: the workflow's name in mocks.json
	broken   map[string]string // case name: diagnostics
}

// buildCorpus writes every case into one module in a temporary directory
// and builds it: per case a package with the generated workflow (wf) and
// the main function `flowc run` generates for it, renamed Main; the
// program's main calls the Main its first argument names. The module
// builds against this copy of flowc.
func buildCorpus(t *testing.T, cases []testCase) corpusProgram {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p := corpusProgram{bin: filepath.Join(dir, "corpus"), machines: map[string]string{}, broken: map[string]string{}}
	files := map[string][]byte{
		filepath.Join(dir, "go.mod"): []byte(flowc.BuildGoMod(corpusModule, root)),
		filepath.Join(dir, "go.sum"): flowc.GoSum(),
	}
	entries := map[string]string{} // case name: package
	for i, c := range cases {
		pkg := fmt.Sprintf("c%03d", i)
		machine, err := writeCase(files, filepath.Join(dir, pkg), corpusModule+"/"+pkg, c)
		if err != nil {
			p.broken[c.name] = err.Error()
			continue
		}
		p.machines[c.name], entries[c.name] = machine, pkg
	}
	main, err := corpusMain(entries)
	if err != nil {
		t.Fatal(err)
	}
	files[filepath.Join(dir, "main.go")] = main
	for path, content := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	build := exec.Command("go", "build", "-o", p.bin, ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=readonly"))
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the corpus program: %v\n%s", err, out)
	}
	return p
}

// writeCase adds the case's package to files: the workflow as package wf,
// generated as by `flowc run` (cmd/flowc's buildRunner), and the runner's
// main as Main of package dir's name. It returns the workflow's name.
func writeCase(files map[string][]byte, dir, importPath string, c testCase) (string, error) {
	def := filepath.Join(c.dir, c.definition)
	src, err := os.ReadFile(def)
	if err != nil {
		return "", err
	}
	// ASL names no Go types, so the package need not be loaded (go list).
	w, ds := compiler.Compile(def, src, compiler.Options{NoPackage: true})
	if w == nil {
		return "", fmt.Errorf("flowc rejects the definition:\n%s", ds.Lines())
	}
	gen, err := codegen.Generate(w, codegen.Options{FileName: compiler.OutputName(def), Source: c.definition})
	if err != nil {
		return "", err
	}
	runner, err := program.Runner(w, importPath+"/wf")
	if err != nil {
		return "", err
	}
	for _, g := range gen { // the workflow and its mock handlers
		if files[filepath.Join(dir, "wf", g.Name)], err = renamed(g.Content, "wf", ""); err != nil {
			return "", err
		}
	}
	files[filepath.Join(dir, "main.go")], err = renamed(runner.Content, filepath.Base(dir), "Main")
	return w.ID, err
}

// renamed rewrites a Go file's package clause to pkg and, unless mainTo is
// "", renames its func main to mainTo.
func renamed(src []byte, pkg, mainTo string) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	f.Name.Name = pkg
	if mainTo != "" {
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name == "main" {
				fn.Name.Name = mainTo
			}
		}
	}
	var b bytes.Buffer
	err = format.Node(&b, fset, f)
	return b.Bytes(), err
}

// corpusMain is the program's main package: `corpus CASE FLAGS...` runs
// case CASE as `flowc run`'s program runs with FLAGS.
func corpusMain(entries map[string]string) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n\n")
	for _, pkg := range sortedValues(entries) {
		fmt.Fprintf(&b, "\t%q\n", corpusModule+"/"+pkg)
	}
	b.WriteString(")\n\nvar cases = map[string]func(){\n")
	for name, pkg := range entries {
		fmt.Fprintf(&b, "\t%q: %s.Main,\n", name, pkg)
	}
	b.WriteString(`}

func main() {
	run, ok := cases[os.Args[1]]
	if !ok {
		fmt.Fprintf(os.Stderr, "corpus: no case %q\n", os.Args[1])
		os.Exit(2)
	}
	os.Args = append(os.Args[:1], os.Args[2:]...)
	run()
}
`)
	return format.Source(b.Bytes())
}

func sortedValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}
