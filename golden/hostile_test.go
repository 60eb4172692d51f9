package golden

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc"
	"github.com/flowc-dev/flowc/codegen"
	"github.com/flowc-dev/flowc/codegen/program"
	"github.com/flowc-dev/flowc/compiler"
	"github.com/flowc-dev/flowc/internal/gocheck"
)

// TestHostile compiles the definitions under testdata/hostile, whose names
// and strings try to break out of the Go that flowc writes: quotes,
// backticks, line breaks, `*/`, //go: and //line directives, NUL and bidi
// characters, Go keywords, leading digits, letters without case and names
// that collide after CamelCase. A case with a stderr.txt must be rejected
// with exactly those diagnostics. Every other case is generated, built and
// run in one temporary module, under go vet and go generate, and must print
// the result line in its result.txt: each string comes out as it went in,
// and nothing written in a definition runs (an injected init would panic,
// an injected //go:generate would create a file named PWNED).
//
// A case directory holds one definition, and optionally input.json and
// mocks.json (test case "hostile"). go test ./golden -update rewrites the
// expected files.
func TestHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs programs")
	}
	dirs, err := filepath.Glob("testdata/hostile/*")
	require.NoError(t, err)
	require.NotEmpty(t, dirs)
	mod := t.TempDir()
	writeHostileModule(t, mod)
	var built []hostileCase
	for _, dir := range dirs {
		c, ok := compileHostile(t, dir, mod)
		if ok {
			built = append(built, c)
		}
	}
	require.NotEmpty(t, built, "no case compiled")
	goTool(t, mod, "build", "-o", filepath.Join(mod, "bin")+string(filepath.Separator), "./...")
	goTool(t, mod, "vet", "./...")
	goTool(t, mod, "generate", "./...")
	assertNoFile(t, mod, "PWNED")
	for _, c := range built {
		t.Run(c.name, func(t *testing.T) { runHostile(t, mod, c) })
	}
}

// hostileCase is a case that compiled, with the arguments of its run.
type hostileCase struct {
	name, dir string
	args      []string
}

// compileHostile checks a rejected case's diagnostics, or writes an accepted
// case's program into the module. ok reports the latter.
func compileHostile(t *testing.T, dir, mod string) (c hostileCase, ok bool) {
	c = hostileCase{name: filepath.Base(dir), dir: dir}
	def := definitionIn(t, dir)
	src, err := os.ReadFile(def)
	require.NoError(t, err)
	w, ds := compiler.Compile(def, src, compiler.Options{})
	wantDiags := filepath.Join(dir, "stderr.txt")
	if _, err := os.Stat(wantDiags); err == nil {
		assert.Nil(t, w, "%s: a case with stderr.txt must be rejected", c.name)
		expectFile(t, wantDiags, ds.Lines())
		return c, false
	}
	require.NotNil(t, w, "%s: diagnostics:\n%s", c.name, ds.Lines())
	files, err := codegen.Generate(w, codegen.Options{FileName: compiler.OutputName(def), Source: filepath.Base(def)})
	require.NoError(t, err, c.name)
	gen, mock := files[0], files[1]
	assert.Empty(t, gocheck.Comments(gen.Content), "%s: block comments or directives in the output", c.name)
	assert.Empty(t, gocheck.Comments(mock.Content), "%s: block comments or directives in the mocks", c.name)
	wfImport := "hostile/" + c.name + "/wf"
	runner, err := program.Runner(w, wfImport)
	require.NoError(t, err, c.name)
	writeFiles(t, map[string][]byte{
		filepath.Join(mod, c.name, "wf", gen.Name):  gen.Content,
		filepath.Join(mod, c.name, "wf", mock.Name): mock.Content,
		filepath.Join(mod, c.name, runner.Name):     runner.Content,
	})
	c.args = []string{"-machine", w.ID}
	for _, f := range []struct{ file, flag string }{{"input.json", "-input"}, {"mocks.json", "-mock-config"}} {
		if p, err := filepath.Abs(filepath.Join(dir, f.file)); err == nil && exists(p) {
			c.args = append(c.args, f.flag, p)
		}
	}
	if exists(filepath.Join(dir, "mocks.json")) {
		c.args = append(c.args, "-test-case", "hostile")
	}
	return c, true
}

// runHostile runs a built case and compares its result line.
func runHostile(t *testing.T, mod string, c hostileCase) {
	cmd := exec.Command(filepath.Join(mod, "bin", c.name), c.args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		t.Fatalf("run: %v\nstdout: %s\nstderr: %s", err, stdout.String(), stderr.String())
	}
	assert.NotRegexp(t, `(?m)^(panic: |goroutine \d+ \[)`, stderr.String(), "something panicked")
	expectFile(t, filepath.Join(c.dir, "result.txt"), stdout.String())
}

// flowcModule is the module of the runtime's import path.
const flowcModule = "github.com/flowc-dev/flowc"

// writeHostileModule lays out a module that holds the runtime, copied from
// the source flowc embeds as `flowc run` does, so it builds offline.
func writeHostileModule(t *testing.T, mod string) {
	files := map[string][]byte{
		filepath.Join(mod, "go.mod"): []byte("module hostile\n\ngo 1.22\n\nrequire " + flowcModule +
			" v0.0.0\n\nreplace " + flowcModule + " => ./flowc\n"),
		filepath.Join(mod, "flowc", "go.mod"): []byte(flowc.RuntimeGoMod(flowcModule)),
	}
	src := flowc.RuntimeSource()
	err := fs.WalkDir(src, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(path, "_test.go") {
			return err
		}
		data, err := fs.ReadFile(src, path)
		files[filepath.Join(mod, "flowc", filepath.FromSlash(path))] = data
		return err
	})
	require.NoError(t, err)
	writeFiles(t, files)
}

func writeFiles(t *testing.T, files map[string][]byte) {
	for path, content := range files {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, content, 0o644))
	}
}

// goTool runs the go command offline in the module.
func goTool(t *testing.T, dir string, args ...string) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off", "GOSUMDB=off", "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go %s:\n%s", strings.Join(args, " "), out)
}

func assertNoFile(t *testing.T, root, name string) {
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == name {
			t.Errorf("%s exists: a definition ran a command", path)
		}
		return err
	})
	require.NoError(t, err)
}

// expectFile compares got with a file's contents, or writes it with -update.
func expectFile(t *testing.T, path, got string) {
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./golden -update")
	assert.Equal(t, string(want), got, path)
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
