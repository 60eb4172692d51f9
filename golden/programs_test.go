package golden

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/codegen"
	"github.com/flowc-dev/flowc/codegen/program"
	"github.com/flowc-dev/flowc/compiler"
)

// The programs `flowc run` (programs/run/<case>) and `flowc build`
// (programs/build/<case>) write for the golden case <case>, committed so
// that their generated code is reviewed as the workflows' is. Here they
// import the case's package; `flowc run` and `flowc build` import a copy.

// TestPrograms regenerates every committed program and compares it with
// the committed files, byte for byte.
func TestPrograms(t *testing.T) {
	for _, kind := range []string{"run", "build"} {
		dirs, err := filepath.Glob(filepath.Join("programs", kind, "*"))
		require.NoError(t, err)
		require.NotEmpty(t, dirs)
		for _, dir := range dirs {
			t.Run(kind+"/"+filepath.Base(dir), func(t *testing.T) {
				for _, f := range programFiles(t, kind, filepath.Base(dir)) {
					want := filepath.Join(dir, f.Name)
					if *update {
						require.NoError(t, os.WriteFile(want, f.Content, 0o644))
						continue
					}
					committed, err := os.ReadFile(want)
					require.NoError(t, err, "run go test ./golden -update")
					assert.Equal(t, string(committed), string(f.Content), "generated program changed; review it and run go test ./golden -update")
				}
			})
		}
	}
}

// programFiles are the files of the program of kind run or build for
// the golden case name.
func programFiles(t *testing.T, kind, name string) []codegen.File {
	t.Helper()
	def := definitionIn(t, name)
	src, err := os.ReadFile(def)
	require.NoError(t, err)
	c, ds := compiler.Compile(def, src, compiler.Options{Generated: filepath.Join(name, compiler.OutputName(def))})
	require.NotNil(t, c, "diagnostics:\n%s", ds.Lines())
	wfImport := "github.com/flowc-dev/flowc/golden/" + name
	if kind == "run" {
		f, err := program.Runner(c, wfImport)
		require.NoError(t, err)
		return []codegen.File{f}
	}
	files, missing, err := program.BuildMain(c, wfImport, nil)
	require.NoError(t, err)
	require.Empty(t, missing, "a build program golden binds built-ins only")
	return files
}

// programRun is one run of a committed program: its arguments and
// environment, and what it must print and exit with.
type programRun struct {
	name   string
	args   []string
	env    []string
	stdout string
	stderr string // a part of stderr; "" for none
	code   int
}

// TestProgramsBehave builds the committed programs and runs them as
// `flowc run` and the binary of `flowc build` are run: flags, mocks,
// sessions and the result line (flowrun.RunSessionMain, binmain.Main).
func TestProgramsBehave(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	model, asked := openAIServer(t, "It is 4.")
	judge, _ := openAIServer(t, "True.")
	runs := map[string][]programRun{
		"run/arith": {
			{name: "typed input", args: []string{"-input", "testdata/programs/arith.json"},
				stdout: `{"status":"SUCCEEDED","output":{"count":7,"divisor":2,"score":0,"flag":false,"trail":null}}`},
			{name: "unknown field", args: []string{"-input", "testdata/programs/typo.json"},
				stderr: `flowc run: invalid input: json: unknown field "cuont"`, code: 2},
			{name: "a decision without approvals", args: []string{"-session", "s1", "-decision", "yes"},
				stderr: `session "s1": workflow "Arith" has no approval`, code: 2},
		},
		"run/chainpolicies": {
			{name: "mocked rewrite", args: []string{"-input", "testdata/programs/question.json", "-mock-config", "chainpolicies/mocks.json", "-test-case", "rude"},
				stdout: `{"status":"SUCCEEDED","output":{"output":"It is 4, I believe.","vars":{"answer":"Obviously 4, as anyone knows."}}}`},
			{name: "unknown test case", args: []string{"-mock-config", "chainpolicies/mocks.json", "-test-case", "none"},
				stderr: `"none"`, code: 2},
		},
		"build/chaincondition": {
			{name: "built-in condition", args: []string{"-input", "testdata/programs/question.json", "-quiet"},
				env:    []string{"OPENAI_BASE_URL=" + judge, "OPENAI_API_KEY=k"},
				stdout: `{"status":"SUCCEEDED","output":{"output":"What is 2+2?","vars":{}}}`},
		},
		"build/chainpolicies": {
			{name: "built-in model", args: []string{"-input", "testdata/programs/question.json", "-quiet"},
				env:    []string{"OPENAI_BASE_URL=" + model, "OPENAI_API_KEY=k"},
				stdout: `{"status":"SUCCEEDED","output":{"output":"It is 4.","vars":{}}}`},
		},
	}
	bin := t.TempDir()
	for _, kind := range []string{"run", "build"} {
		// One build per kind: the programs of a kind are named after their case.
		build := exec.Command("go", "build", "-o", filepath.Join(bin, kind)+string(filepath.Separator), "./programs/"+kind+"/...")
		out, err := build.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	for prog, cases := range runs {
		for _, r := range cases {
			t.Run(prog+"/"+r.name, func(t *testing.T) {
				stdout, stderr, code := runProgram(t, filepath.Join(bin, prog), r)
				assert.Equal(t, r.code, code, "stderr: %s", stderr)
				assert.Equal(t, r.stdout, strings.TrimSpace(stdout))
				if r.stderr != "" {
					assert.Contains(t, stderr, r.stderr)
				}
			})
		}
	}
	assert.Equal(t, []string{"small"}, *asked, "the built-in asks the model of the task's execute_config")
}

func runProgram(t *testing.T, bin string, r programRun) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, r.args...)
	cmd.Env = append(os.Environ(), r.env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return out.String(), errOut.String(), exit.ExitCode()
	}
	require.NoError(t, err)
	return out.String(), errOut.String(), 0
}

// openAIServer answers every chat completion with answer, as an
// OpenAI-compatible /chat/completions endpoint does, and records the
// models asked; its URL is the base URL the built-in model client takes.
func openAIServer(t *testing.T, answer string) (string, *[]string) {
	t.Helper()
	var models []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Model string }
		if r.URL.Path != "/chat/completions" || json.NewDecoder(r.Body).Decode(&req) != nil {
			http.Error(w, "not a chat completion", http.StatusBadRequest)
			return
		}
		models = append(models, req.Model)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"choices":[{"message":{"role":"assistant","content":%q}}]}`, answer)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &models
}
