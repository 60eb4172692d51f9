// Package asldiff is the differential corpus for flowc's Amazon States
// Language front-end: each directory under cases/ holds a definition, its
// input, task mocks in the AWS MockConfigFile format and the result line that
// aws-local-stepfunctions 3.0.0 produced (or, where that peer disagrees with
// the AWS documentation, the line AWS gives, explained in deviation.md).
//
// TestDifferential runs every case through `flowc run` and compares the line
// flowc prints with expected.json. See README.md for regeneration.
package asldiff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
)

const casesDir = "cases"

// resultLine is the one line `flowc run` prints for a run (docs/cli.md).
type resultLine struct {
	Status string `json:"status"`
	// Output stays raw so that absent and null can be told apart.
	Output json.RawMessage `json:"output,omitempty"`
	Error  *string         `json:"error,omitempty"`
	Cause  *string         `json:"cause,omitempty"`
}

// testCase is one directory of the corpus.
type testCase struct {
	name, dir, definition string
	expected              resultLine
}

func loadCases(t *testing.T) []testCase {
	t.Helper()
	entries, err := os.ReadDir(casesDir)
	if err != nil {
		t.Fatalf("reading %s: %v", casesDir, err)
	}
	var cases []testCase
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(casesDir, e.Name())
		c := testCase{name: e.Name(), dir: dir}
		for _, name := range []string{"definition.asl.json", "definition.asl.yaml"} {
			if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
				c.definition = name
			}
		}
		if c.definition == "" {
			t.Fatalf("%s: no definition.asl.json or definition.asl.yaml", dir)
		}
		for _, name := range []string{"input.json", "mocks.json"} {
			if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
				t.Fatalf("%s: %v", dir, err)
			}
		}
		raw, err := os.ReadFile(filepath.Join(dir, "expected.json"))
		if err != nil {
			t.Fatalf("%s: %v (regenerate: cd asldiff/peer && npm ci && node run.mjs ../cases)", dir, err)
		}
		if err := strictUnmarshal(raw, &c.expected); err != nil {
			t.Fatalf("%s/expected.json: %v", dir, err)
		}
		cases = append(cases, c)
	}
	if len(cases) == 0 {
		t.Fatalf("no cases under %s", casesDir)
	}
	return cases
}

func strictUnmarshal(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// TestCorpusWellFormed checks the corpus itself, without flowc: every
// expected line is a SUCCEEDED line with an output or a FAILED line with an
// error, and every deviation case says why.
func TestCorpusWellFormed(t *testing.T) {
	for _, c := range loadCases(t) {
		e := c.expected
		switch e.Status {
		case "SUCCEEDED":
			if e.Output == nil || e.Error != nil || e.Cause != nil {
				t.Errorf("%s: a SUCCEEDED line has an output and no error or cause", c.name)
			}
		case "FAILED":
			// The name may be empty: a Fail state without Error has none.
			if e.Error == nil || e.Output != nil {
				t.Errorf("%s: a FAILED line has an error name and no output", c.name)
			}
		default:
			t.Errorf("%s: unknown status %q", c.name, e.Status)
		}
		if dev, err := os.ReadFile(filepath.Join(c.dir, "deviation.md")); err == nil {
			if !strings.Contains(string(dev), "https://docs.aws.amazon.com/") {
				t.Errorf("%s: deviation.md must cite the AWS documentation", c.name)
			}
		}
	}
}

// TestDifferential builds flowc once and runs every case through
// `flowc run DEF --input input.json --mock-config mocks.json --test-case default --skip-waits`,
// one parallel subtest per case (go test -run 'TestDifferential/case/042-' picks
// cases; -parallel bounds how many run at once). ASLDIFF_FLOWC=/path/to/flowc
// runs an already built binary instead of building one.
func TestDifferential(t *testing.T) {
	if testing.Short() {
		t.Skip("builds flowc and one Go program per case")
	}
	cases := loadCases(t)

	bin := os.Getenv("ASLDIFF_FLOWC")
	if bin == "" {
		bin = filepath.Join(t.TempDir(), "flowc")
		if runtime.GOOS == "windows" {
			bin += ".exe"
		}
		build := exec.Command("go", "build", "-o", bin, "github.com/flowc-dev/flowc/cmd/flowc")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("building flowc: %v\n%s", err, out)
		}
	} else if abs, err := filepath.Abs(bin); err == nil {
		bin = abs
	}

	// Until the ASL front-end lands, flowc rejects every ASL definition
	// with "... not supported yet"; the corpus then waits for it.
	if stdout, stderr, _ := runFlowc(bin, cases[0]); strings.Contains(stdout+stderr, "not supported yet") {
		t.Skipf("flowc does not support ASL yet: %s", strings.TrimSpace(firstLine(stderr+stdout)))
	}

	var (
		mu       sync.Mutex
		failures []string
	)
	// The group returns once all its parallel subtests have finished.
	t.Run("case", func(t *testing.T) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				if msg := check(bin, c); msg != "" {
					mu.Lock()
					failures = append(failures, c.name)
					mu.Unlock()
					t.Error(msg)
				}
			})
		}
	})
	sort.Strings(failures)
	if len(failures) > 0 {
		t.Errorf("%d of %d cases differ from expected.json:\n  %s", len(failures), len(cases), strings.Join(failures, "\n  "))
	} else {
		t.Logf("all %d cases match", len(cases))
	}
}

func runFlowc(bin string, c testCase) (stdout, stderr string, err error) {
	cmd := exec.Command(bin, "run", c.definition,
		"--input", "input.json", "--mock-config", "mocks.json", "--test-case", "default", "--skip-waits")
	cmd.Dir = c.dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	return out.String(), errb.String(), err
}

// check runs one case and describes every difference, or returns "".
func check(bin string, c testCase) string {
	stdout, stderr, runErr := runFlowc(bin, c)
	line := strings.TrimSpace(stdout)
	var got resultLine
	if err := json.Unmarshal([]byte(line), &got); err != nil || strings.Contains(line, "\n") {
		return fmt.Sprintf("no result line (exit: %v)\nstdout: %s\nstderr: %s", runErr, line, indent(stderr))
	}
	want := c.expected
	var diffs []string
	if got.Status != want.Status {
		diffs = append(diffs, fmt.Sprintf("status %q, want %q", got.Status, want.Status))
	}
	if want.Status == "SUCCEEDED" && !jsonEqual(got.Output, want.Output) {
		diffs = append(diffs, fmt.Sprintf("output %s, want %s", compact(got.Output), compact(want.Output)))
	}
	if want.Error != nil && (got.Error == nil || *got.Error != *want.Error) {
		diffs = append(diffs, fmt.Sprintf("error %s, want %q", quoted(got.Error), *want.Error))
	}
	// A cause is compared only where a Fail state or a mock sets it, which
	// is exactly where expected.json carries one.
	if want.Cause != nil && (got.Cause == nil || *got.Cause != *want.Cause) {
		diffs = append(diffs, fmt.Sprintf("cause %s, want %q", quoted(got.Cause), *want.Cause))
	}
	wantExit := map[string]int{"SUCCEEDED": 0, "FAILED": 1}[want.Status]
	if code := exitCode(runErr); len(diffs) == 0 && code != wantExit {
		diffs = append(diffs, fmt.Sprintf("exit status %d, want %d", code, wantExit))
	}
	if len(diffs) == 0 {
		return ""
	}
	if strings.TrimSpace(stderr) != "" {
		diffs = append(diffs, "stderr: "+indent(stderr))
	}
	return strings.Join(diffs, "; ")
}

func jsonEqual(a, b json.RawMessage) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

func compact(raw json.RawMessage) string {
	if raw == nil {
		return "(absent)"
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

func quoted(s *string) string {
	if s == nil {
		return "(absent)"
	}
	return fmt.Sprintf("%q", *s)
}

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return -1
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func indent(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 2000 {
		s = s[:2000] + " …"
	}
	return strings.ReplaceAll(s, "\n", "\n    ")
}
