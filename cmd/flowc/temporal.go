package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"

	"github.com/flowc-dev/flowc/codegen"
	"github.com/flowc-dev/flowc/codegen/program"
)

// Targets of `flowc gen --target`.
const (
	targetNative   = "native"
	targetTemporal = "temporal"
)

// withTarget adds, for the Temporal target, each workflow's Temporal file
// beside its native one, which it runs on.
func withTarget(target string, results []compiled, stderr io.Writer) ([]compiled, bool) {
	switch target {
	case targetNative:
		return results, true
	case targetTemporal:
	default:
		fmt.Fprintf(stderr, "flowc gen: unknown target %q (want %s or %s)\n", target, targetNative, targetTemporal)
		return nil, false
	}
	out := results
	for _, c := range results {
		t, err := temporalFile(c)
		if err != nil {
			fmt.Fprintf(stderr, "flowc gen: %s: %v\n", c.def, err)
			return nil, false
		}
		out = append(out, t)
	}
	return out, true
}

func temporalFile(c compiled) (compiled, error) {
	f, err := codegen.GenerateTemporal(c.wf, codegen.Options{FileName: filepath.Base(c.out), Source: sourceRel(c.def, filepath.Dir(c.out))})
	if err != nil {
		return compiled{}, err
	}
	return compiled{def: c.def, out: filepath.Join(filepath.Dir(c.out), f.Name), wf: c.wf, file: f}, nil
}

// engineFlags choose the engine of `flowc run`.
type engineFlags struct {
	engine, address string
}

func (f *engineFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.engine, "engine", targetNative, "`engine` to run on: native, or temporal (Temporal's test environment, or the server of --temporal-address)")
	fs.StringVar(&f.address, "temporal-address", "", "run on the Temporal server at `host:port` (with --engine temporal)")
}

func (f engineFlags) temporal() bool { return f.engine != targetNative || f.address != "" }

// runTemporal is `flowc run --engine temporal`: the definition's native
// and Temporal files, built with the runtime and the Temporal support
// module, run over the same mocks and print the same result line. With
// skipWaits a run on a server starts no timers (see flowtemporal.RunWorkflow);
// in the test environment timers take no time anyway.
func runTemporal(f engineFlags, def, input, mockConfig, testCase string, skipWaits bool, sf sessionFlags, stdin io.Reader, stdout, stderr io.Writer) int {
	switch {
	case f.engine != targetTemporal:
		fmt.Fprintf(stderr, "flowc run: unknown engine %q (want %s or %s)\n", f.engine, targetNative, targetTemporal)
		return exitUsage
	case sf.ID != "" && f.address == "":
		fmt.Fprintln(stderr, "flowc run: on Temporal a session lives on a server: give --temporal-address")
		return exitUsage
	}
	support, err := temporalModule()
	if err != nil {
		fmt.Fprintf(stderr, "flowc run: %v\n", err)
		return exitUsage
	}
	g := guardSignals()
	defer g.stop()
	dir, err := os.MkdirTemp("", "flowc-run-")
	if err != nil {
		fmt.Fprintf(stderr, "flowc run: %v\n", err)
		return exitUsage
	}
	defer os.RemoveAll(dir)
	bin, machine, code := buildTemporalRunner(def, dir, support, stderr)
	if bin == "" {
		return code
	}
	args, err := runnerArgs(dir, input, mockConfig, testCase, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "flowc run: %v\n", err)
		return exitUsage
	}
	args = append(args, "-machine", machine)
	cmd := exec.Command(bin, append(args, sf.args()...)...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.Env = append(os.Environ(), "FLOWC_TEMPORAL_ADDRESS="+f.address)
	if skipWaits {
		cmd.Env = append(cmd.Env, "FLOWC_SKIP_WAITS=1")
	}
	return exitCode(g.run(cmd), stderr)
}

// temporalModule finds the source of the Temporal support module:
// $FLOWC_TEMPORAL_DIR, or the temporal directory of the flowc source this
// program was built from.
func temporalModule() (string, error) {
	dir := os.Getenv("FLOWC_TEMPORAL_DIR")
	if dir == "" {
		_, file, _, _ := goruntime.Caller(0)
		dir = filepath.Join(filepath.Dir(file), "..", "..", "temporal")
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		return "", fmt.Errorf("--engine temporal needs flowc's Temporal module (the temporal directory of its source); set FLOWC_TEMPORAL_DIR to it")
	}
	return filepath.Abs(dir)
}

func buildTemporalRunner(def, dir, support string, stderr io.Writer) (bin, machine string, code int) {
	c, ok := compileFile(def, "", stderr)
	if !ok {
		return "", "", exitFailed
	}
	// The native runner's module, built without the cache: the support
	// module it requires is source outside it.
	m, err := runnerModule(def, c)
	if err == nil {
		err = writeFiles(filesUnder(dir, m.files))
	}
	var t compiled
	if err == nil {
		t, err = temporalFile(c)
	}
	var main codegen.File
	if err == nil {
		main, err = program.TemporalRunner(c.wf, runWfImport)
	}
	var sum []byte
	if err == nil {
		sum, err = os.ReadFile(filepath.Join(support, "go.sum"))
	}
	files := map[string][]byte{
		filepath.Join(dir, "wf", t.file.Name): renamePackage(t.file.Content),
		filepath.Join(dir, main.Name):         main.Content,
		filepath.Join(dir, "go.mod"):          []byte(temporalGoMod(support)),
		filepath.Join(dir, "go.sum"):          sum,
	}
	for path, content := range files {
		if err == nil {
			err = os.WriteFile(path, content, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "flowc run: %v\n", err)
		return "", "", exitUsage
	}
	bin = filepath.Join(dir, "workflow")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(stderr, "flowc run: building the workflow failed: %v\n%s", err, out)
		return "", "", exitUsage
	}
	return bin, c.wf.ID, exitOK
}

// temporalGoMod is the runner's go.mod: the native runner's, with the
// support module and the SDK version it was tested with.
func temporalGoMod(support string) string { return runGoMod() + temporalRequires(support) }

// temporalRequires are the go.mod lines of a program on Temporal: the
// support module, from its source, and the SDK version it was tested with.
func temporalRequires(support string) string {
	return "\nrequire " + temporalModulePath + " v0.0.0\n\nreplace " + temporalModulePath + " => " + support + "\n\nrequire go.temporal.io/sdk " + temporalSDKVersion + "\n"
}

const (
	temporalModulePath = codegenModule + "/temporal"
	temporalSDKVersion = "v1.50.0"
)
