package temporal_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/flowc-dev/flowc/codegen"
	"github.com/flowc-dev/flowc/codegen/program"
	"github.com/flowc-dev/flowc/compiler"
	"github.com/flowc-dev/flowc/ir/plan"
)

// TestEnginesAgree is the differential test of the Temporal target: every
// definition of the repository that has a mock config (golden/, examples/,
// asldiff/cases/, and this module's golden/) runs every test case of it
// through the program `flowc run` builds and through the one `flowc run
// --engine temporal` builds (Temporal's test environment); the result lines
// and exit codes must be the same. All those programs are linked into one
// binary, so that the whole corpus (about 200 definitions) costs one
// build: about a minute on two cores.
func TestEnginesAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program of every definition")
	}
	defs := corpus(t)
	bin := buildRunners(t, defs)
	for i, d := range defs {
		for _, tc := range d.cases {
			t.Run(d.name+"/"+tc, func(t *testing.T) {
				t.Parallel()
				args := d.args(tc)
				native, nativeCode := runFlowc(t, bin, append([]string{fmt.Sprintf("n%d", i)}, append(args, "-skip-waits")...)...)
				onTemporal, temporalCode := runFlowc(t, bin, append([]string{fmt.Sprintf("t%d", i)}, args...)...)
				if !bytes.Equal(native, onTemporal) || nativeCode != temporalCode || len(native) == 0 {
					t.Errorf("native (exit %d): %s\ntemporal (exit %d): %s", nativeCode, native, temporalCode, onTemporal)
				}
			})
		}
	}
}

// definition is one definition of the corpus with its mock config.
type corpusDef struct {
	name, path, dir string
	input, mocks    string // files; input "" for {}
	cases           []string
	wf              *plan.Plan
	files           []codegen.File
}

func (d corpusDef) args(testCase string) []string {
	args := []string{"-mock-config", d.mocks, "-test-case", testCase, "-machine", d.wf.ID}
	if d.input != "" {
		args = append(args, "-input", d.input)
	}
	return args
}

// corpus finds the definitions whose directory holds mocks.json naming
// them, sorted by path.
func corpus(t *testing.T) []corpusDef {
	var defs []corpusDef
	for _, pattern := range []string{"../golden/*/mocks.json", "../golden/testdata/hostile/*/mocks.json", "../examples/*/mocks.json", "../asldiff/cases/*/mocks.json", "golden/*/mocks.json"} {
		mocks, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mocks {
			defs = append(defs, definitionsBeside(t, m)...)
		}
	}
	if len(defs) == 0 {
		t.Fatal("no definitions with mocks")
	}
	return defs
}

// definitionsBeside compiles the definitions beside mock config m that it
// has test cases for.
func definitionsBeside(t *testing.T, m string) []corpusDef {
	dir := filepath.Dir(m)
	machines := testCases(t, m)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	input := inputBeside(dir, entries)
	var defs []corpusDef
	for _, e := range entries {
		if !compiler.IsDefinition(e.Name()) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, compiler.OutputName(path))
		w, diags := compiler.Compile(path, src, compiler.Options{Generated: out})
		if w == nil {
			t.Fatalf("%s does not compile: %v", path, diags)
		}
		cases := machines[w.ID]
		if len(cases) == 0 {
			continue // a child of another definition, or not mocked here
		}
		opts := codegen.Options{FileName: filepath.Base(out), Source: e.Name()}
		files, err := codegen.Generate(w, opts)
		if err != nil {
			t.Fatal(err)
		}
		tf, err := codegen.GenerateTemporal(w, opts)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		name := strings.TrimPrefix(filepath.ToSlash(path), "../")
		defs = append(defs, corpusDef{name: name, path: path, dir: dir, input: input, mocks: m, cases: cases, wf: w, files: append(files, tf)})
	}
	return defs
}

// testCases are the test cases of each state machine of mock config m.
func testCases(t *testing.T, m string) map[string][]string {
	data, err := os.ReadFile(m)
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		StateMachines map[string]struct{ TestCases map[string]json.RawMessage }
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		t.Fatalf("%s: %v", m, err)
	}
	out := map[string][]string{}
	for name, sm := range cfg.StateMachines {
		out[name] = slices.Sorted(maps.Keys(sm.TestCases))
	}
	return out
}

// inputBeside is the input of a directory's runs: input.json, or the one
// JSON file that is neither the mocks nor a definition (an example's
// input, as README.md and docs/ run it), or none.
func inputBeside(dir string, entries []os.DirEntry) string {
	var inputs []string
	for _, e := range entries {
		n := e.Name()
		if strings.HasSuffix(n, ".json") && n != "mocks.json" && !compiler.IsDefinition(n) && n != "expected.json" && n != "peer.json" {
			inputs = append(inputs, filepath.Join(dir, n))
		}
	}
	if slices.Contains(inputs, filepath.Join(dir, "input.json")) {
		return filepath.Join(dir, "input.json")
	}
	if len(inputs) == 1 {
		return inputs[0]
	}
	return ""
}

// buildRunners writes one module holding, for definition i, its package
// w<i>, the native runner n<i> and the Temporal runner t<i> (the main
// packages `flowc run` builds, as libraries), and a main that picks one by
// its first argument; it builds it and returns the binary.
func buildRunners(t *testing.T, defs []corpusDef) string {
	dir := t.TempDir()
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	sum, err := os.ReadFile("go.sum")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"go.mod": fmt.Appendf(nil, "module flowcdiff\n\ngo 1.26\n\nrequire (\n\tgithub.com/flowc-dev/flowc v0.0.0\n\tgithub.com/flowc-dev/flowc/temporal v0.0.0\n)\n\nreplace github.com/flowc-dev/flowc => %s\n\nreplace github.com/flowc-dev/flowc/temporal => %s\n", abs(".."), abs(".")),
		"go.sum": sum,
	}
	var imports, table strings.Builder
	for i, d := range defs {
		wf := fmt.Sprintf("w%d", i)
		for _, f := range d.files {
			files[wf+"/"+f.Name] = asPackage(f.Content, "wf")
		}
		if err := addPackageFiles(files, d, wf); err != nil {
			t.Fatal(err)
		}
		native, err := program.Runner(d.wf, "flowcdiff/"+wf)
		if err != nil {
			t.Fatal(err)
		}
		onTemporal, err := program.TemporalRunner(d.wf, "flowcdiff/"+wf)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range []struct {
			pkg  string
			main []byte
		}{{fmt.Sprintf("n%d", i), native.Content}, {fmt.Sprintf("t%d", i), onTemporal.Content}} {
			files[r.pkg+"/main.go"] = asLibrary(r.main, r.pkg)
			fmt.Fprintf(&imports, "\t%s \"flowcdiff/%s\"\n", r.pkg, r.pkg)
			fmt.Fprintf(&table, "\t%q: %s.Main,\n", r.pkg, r.pkg)
		}
	}
	files["main.go"] = fmt.Appendf(nil, "package main\n\nimport (\n\t\"os\"\n\n%s)\n\nvar runners = map[string]func(){\n%s}\n\nfunc main() {\n\trun := runners[os.Args[1]]\n\tos.Args = os.Args[1:]\n\trun()\n}\n", imports.String(), table.String())
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "runners")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the runners: %v\n%s", err, out)
	}
	return bin
}

// addPackageFiles adds the Go files of a definition's own package that it
// names types or functions of, as `flowc run` does.
func addPackageFiles(files map[string][]byte, d corpusDef, wf string) error {
	entries, err := os.ReadDir(d.dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		n := e.Name()
		if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") || strings.HasSuffix(n, "_flow.go") || strings.HasSuffix(n, "_temporal.go") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(d.dir, n))
		if err != nil {
			return err
		}
		files[wf+"/"+n] = asPackage(data, "wf")
	}
	return nil
}

// asPackage rewrites a file's package clause.
func asPackage(src []byte, pkg string) []byte {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.PackageClauseOnly)
	if err != nil {
		return src // the build reports it
	}
	start, end := int(f.Name.Pos())-1, int(f.Name.End())-1
	return bytes.Join([][]byte{src[:start], []byte(pkg), src[end:]}, nil)
}

var mainFunc = regexp.MustCompile(`(?m)^func main\(\)`)

// asLibrary turns a runner's main package into package pkg with func Main.
func asLibrary(src []byte, pkg string) []byte {
	return mainFunc.ReplaceAll(asPackage(src, pkg), []byte("func Main()"))
}
