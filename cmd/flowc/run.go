package main

import (
	"bytes"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/flowc-dev/flowc"
	"github.com/flowc-dev/flowc/codegen/program"
	"github.com/flowc-dev/flowc/ir"
)

// The temporary module `flowc run` builds: the workflow package, a main
// package, and the runtime copied from flowc itself, so it builds offline.
const (
	runModule   = "flowcrun"
	runWfImport = runModule + "/wf"
	// codegenModule is the module the runtime import path belongs to.
	codegenModule = "github.com/flowc-dev/flowc"
)

func cmdRun(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("run", stderr)
	input := fs.String("input", "", "JSON input `file`, or - for standard input (default: {})")
	mockConfig := fs.String("mock-config", "", "AWS Step Functions Local mock config `file`")
	testCase := fs.String("test-case", "", "test case `name` in the mock config")
	skipWaits := fs.Bool("skip-waits", false, "make every wait and retry interval take no time")
	noCache := fs.Bool("no-cache", false, "build the program afresh, not from flowc's program cache (docs/cli.md)")
	trace := fs.Bool("x", false, "print the commands that build the program, or the cached program that runs")
	var eng engineFlags
	eng.register(fs)
	var sf sessionFlags
	sf.Register(fs)
	paths, err := parseInterleaved(fs, args)
	if err != nil {
		return exitUsage
	}
	if !oneDefinition("run", paths, stderr) {
		return exitUsage
	}
	if err := sf.Check(*input, eng.temporal()); err != nil {
		fmt.Fprintf(stderr, "flowc run: %v\n", err)
		return exitUsage
	}
	if eng.temporal() {
		return runTemporal(eng, paths[0], *input, *mockConfig, *testCase, *skipWaits, sf, stdin, stdout, stderr)
	}
	g := guardSignals()
	defer g.stop()
	dir, err := os.MkdirTemp("", "flowc-run-")
	if err != nil {
		fmt.Fprintf(stderr, "flowc run: %v\n", err)
		return exitUsage
	}
	defer os.RemoveAll(dir)
	b := newBuilder(*noCache, *trace, stderr)
	var checkpoints []*os.File // the runner's ends of the checkpoint protocol, in a session
	if sf.DB != "" {
		store, code := startSessionStore(b, dir, sf.DB, stderr)
		if store == nil {
			return code
		}
		defer store.stop() // after the runner; it passes on whatever the store said
		checkpoints = store.childFiles
	}
	bin, machine, code := buildRunner(b, paths[0], dir, stderr)
	if bin == "" {
		return code
	}
	runArgs, err := runnerArgs(dir, *input, *mockConfig, *testCase, stdin)
	runArgs = append(runArgs, "-machine", machine)
	if *skipWaits {
		runArgs = append(runArgs, "-skip-waits")
	}
	runArgs = append(runArgs, sf.args()...)
	if err != nil {
		fmt.Fprintf(stderr, "flowc run: %v\n", err)
		return exitUsage
	}
	return execRunner(g, bin, runArgs, stdout, stderr, checkpoints)
}

// buildRunner compiles the definition into a program, or finds it in the
// cache. It returns the program's path and the workflow's name in mock
// configs, or "" and the exit code.
func buildRunner(b builder, def, dir string, stderr io.Writer) (bin, machine string, code int) {
	// Compiled as if generated in place, so the package's types are found;
	// the file itself goes into the temporary module.
	c, ok := compileFile(def, "", stderr)
	if !ok {
		return "", "", exitFailed
	}
	m, err := runnerModule(def, c)
	if err == nil {
		bin, err = b.build(m, filepath.Join(dir, "workflow-src"), filepath.Join(dir, "workflow"))
	}
	if err != nil {
		fmt.Fprintf(stderr, "flowc run: building the workflow failed: %v\n", err)
		return "", "", exitUsage
	}
	return bin, c.wf.ID, exitOK
}

// runGoMod requires the runtime copy and, beside it, what the runtime
// requires (see flowc.RuntimeRequires).
func runGoMod() string {
	return "module " + runModule + "\n\ngo " + flowc.GoVersion() + "\n\nrequire " + codegenModule + " v0.0.0\n\nreplace " + codegenModule + " => ./flowc\n" + flowc.RuntimeRequires()
}

// runnerModule is the runner's module: the workflow and its mocks, the
// runner's main and the runtime. Everything run-time (input, mocks,
// session) reaches the program as flags, so one program serves every run
// of the definition.
func runnerModule(def string, c compiled) (goModule, error) {
	main, err := program.Runner(c.wf, runWfImport)
	var files map[string][]byte
	if err == nil {
		files, err = workflowFiles("", def, c)
	}
	if err == nil {
		// The runner answers from the mocks.
		files[filepath.Join("wf", c.mock.Name)] = renamePackage(c.mock.Content)
		err = addSource(files, "flowc", flowc.RuntimeSource())
	}
	if err != nil {
		return goModule{}, err
	}
	files["go.mod"] = []byte(runGoMod())
	files["go.sum"] = flowc.GoSum()
	files[filepath.Join("flowc", "go.mod")] = []byte(flowc.RuntimeGoMod(codegenModule))
	files[main.Name] = main.Content
	// The runtime's dependencies come from the module cache, unverified
	// by a checksum database that may be out of reach. The cgo setting is
	// left as the go command chose it for flowc, whose compiled packages
	// the build then reuses: a first run builds little beyond the workflow.
	return goModule{files, []string{"GOWORK=off", "GOFLAGS=-mod=readonly", "GOPROXY=off", "GOSUMDB=off"}}, nil
}

// workflowFiles are the files of a program's module that `flowc run` and
// `flowc build` share: the workflow as package wf, with its package's own
// files when it names them.
func workflowFiles(dir, def string, c compiled) (map[string][]byte, error) {
	wfDir := filepath.Join(dir, "wf")
	files := map[string][]byte{filepath.Join(wfDir, c.file.Name): renamePackage(c.file.Content)}
	if usesPackage(c.wf.Workflow) {
		if err := addUserFiles(files, filepath.Dir(def), wfDir, c.file.Name); err != nil {
			return nil, err
		}
	}
	return files, nil
}

func writeFiles(files map[string][]byte) error {
	for path, content := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, content, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// addSource copies source embedded in flowc, its tests left out.
func addSource(files map[string][]byte, root string, src fs.FS) error {
	return fs.WalkDir(src, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(path, "_test.go") {
			return err
		}
		data, err := fs.ReadFile(src, path)
		files[filepath.Join(root, filepath.FromSlash(path))] = data
		return err
	})
}

// usesPackage: the workflow names types or functions of its own package, so
// the package's Go files must be built with it.
func usesPackage(w *ir.Workflow) bool {
	for _, f := range w.Fields {
		if f.Reducer.Kind == ir.ReduceFunc || namesType(f.Type) {
			return true
		}
	}
	return false
}

func namesType(t *ir.Type) bool {
	return t != nil && (t.Kind == ir.TypeNamed || namesType(t.Key) || namesType(t.Elem))
}

// addUserFiles copies the definition's package (not its tests, not generated
// workflows) into the temporary package, renamed to wf.
func addUserFiles(files map[string][]byte, srcDir, wfDir, skip string) error {
	entries, err := os.ReadDir(srcDir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || strings.HasSuffix(name, "_flow.go") || name == skip {
			continue
		}
		data, err := os.ReadFile(filepath.Join(srcDir, name))
		if err != nil {
			return err
		}
		files[filepath.Join(wfDir, name)] = renamePackage(data)
	}
	return nil
}

// renamePackage rewrites a file's package clause to `package wf`, so that a
// workflow of package main can be imported by the runner.
func renamePackage(src []byte) []byte {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.PackageClauseOnly)
	if err != nil {
		return src // the build reports the problem with its own position
	}
	start, end := int(f.Name.Pos())-1, int(f.Name.End())-1
	return bytes.Join([][]byte{src[:start], []byte("wf"), src[end:]}, nil)
}

// runnerArgs passes the run's files on; standard input is read only for
// `--input -`, into a file.
func runnerArgs(dir, input, mockConfig, testCase string, stdin io.Reader) ([]string, error) {
	var args []string
	if input == "-" {
		data, err := io.ReadAll(stdin)
		if err != nil {
			return nil, err
		}
		input = filepath.Join(dir, "input.json")
		if err := os.WriteFile(input, data, 0o644); err != nil {
			return nil, err
		}
	}
	for _, f := range []struct{ flag, value string }{{"-input", input}, {"-mock-config", mockConfig}, {"-test-case", testCase}} {
		if f.value != "" {
			args = append(args, f.flag, f.value)
		}
	}
	return args, nil
}

// execRunner runs the program; in a session, checkpoints are its file
// descriptors 3 and 4, which it shares with the store alone once started.
func execRunner(g *signalGuard, bin string, args []string, stdout, stderr io.Writer, checkpoints []*os.File) int {
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.ExtraFiles = checkpoints
	return exitCode(g.run(cmd), stderr)
}

// exitCode is flowc run's exit code after its program ended with err: the
// program's own, or exitUsage when it could not run.
func exitCode(err error, stderr io.Writer) int {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	if err != nil {
		fmt.Fprintf(stderr, "flowc run: %v\n", err)
		return exitUsage
	}
	return exitOK
}
