// Package asldiff is the differential corpus for flowc's Amazon States
// Language front-end: each directory under cases/ holds a definition, its
// input, task mocks in the AWS MockConfigFile format and the result line that
// aws-local-stepfunctions 3.0.0 produced (or, where that peer disagrees with
// the AWS documentation or cannot run the feature, the line AWS gives,
// explained in deviation.md).
//
// TestDifferential runs every case as `flowc run` runs it and compares the
// line flowc prints with expected.json. See README.md for regeneration.
package asldiff

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
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
	origin                origin
}

// origin says where a case's expected.json comes from: the peer printed
// it, or it was written by hand from the AWS documentation, where the peer
// deviates or where it cannot run the feature at all. A case written by
// hand has a deviation.md whose "Kind: " line says which.
type origin string

const (
	peerRecorded    origin = "recorded from the peer"
	peerDeviates    origin = "deviation"
	peerUnsupported origin = "peer-unsupported"
)

// caseOrigin reads the origin of the case in dir from its deviation.md.
func caseOrigin(dir string) (origin, error) {
	dev, err := os.ReadFile(filepath.Join(dir, "deviation.md"))
	if errors.Is(err, fs.ErrNotExist) {
		return peerRecorded, nil
	}
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(dev), "\n") {
		if kind, ok := strings.CutPrefix(line, "Kind: "); ok {
			if o := origin(kind); o == peerDeviates || o == peerUnsupported {
				return o, nil
			}
			return "", fmt.Errorf("deviation.md: Kind %q is neither %s nor %s", kind, peerDeviates, peerUnsupported)
		}
	}
	return "", fmt.Errorf("deviation.md has no line \"Kind: %s\" or \"Kind: %s\"", peerDeviates, peerUnsupported)
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
		if c.origin, err = caseOrigin(dir); err != nil {
			t.Fatalf("%s: %v", dir, err)
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
		if c.origin != peerRecorded {
			dev, _ := os.ReadFile(filepath.Join(c.dir, "deviation.md"))
			if !strings.Contains(string(dev), "https://docs.aws.amazon.com/") {
				t.Errorf("%s: deviation.md must cite the AWS documentation", c.name)
			}
			if _, err := os.Stat(filepath.Join(c.dir, "peer.json")); err != nil {
				t.Errorf("%s: a case written by hand keeps the peer's line in peer.json: %v", c.name, err)
			}
		}
	}
}

// unsupported are the cases flowc may answer with "not supported yet",
// each with the reason; any other case that does fails, and so does a
// listed case that runs, so that the list only shrinks. None today.
var unsupported = map[string]string{}

// TestCorpusCounts holds README.md to the corpus: how many cases there
// are, and how many lines were recorded from the peer or written by hand.
func TestCorpusCounts(t *testing.T) {
	count := map[origin]int{}
	cases := loadCases(t)
	for _, c := range cases {
		count[c.origin]++
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%d cases: %d expected lines recorded from the peer and %d written by hand "+
		"(%d where the peer deviates from AWS, %d features the peer cannot run)",
		len(cases), count[peerRecorded], count[peerDeviates]+count[peerUnsupported], count[peerDeviates], count[peerUnsupported])
	if !strings.Contains(strings.Join(strings.Fields(string(readme)), " "), want) {
		t.Errorf("README.md does not say %q", want)
	}
}

// TestDifferential builds one program holding every case's workflow,
// compiled and generated as `flowc run` does it (program_test.go), and runs
// each case through it with `flowc run`'s flags: --input input.json
// --mock-config mocks.json --test-case default --skip-waits. Each case is a
// parallel subtest (go test -run 'TestDifferential/case/042-' picks cases;
// -parallel bounds how many run at once). ASLDIFF_FLOWC=/path/to/flowc
// runs every case through that `flowc run` instead, one build per case.
func TestDifferential(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the corpus program with the go tool")
	}
	cases := loadCases(t)
	run := corpusRunner(t, cases)

	var (
		mu       sync.Mutex
		failures []string
	)
	// The group returns once all its parallel subtests have finished.
	t.Run("case", func(t *testing.T) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				msg, skip := check(run, c)
				if skip != "" {
					t.Skip(skip)
				}
				if msg != "" {
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
		t.Logf("all %d cases match, %d skipped as unsupported", len(cases), len(unsupported))
	}
}

// runCase runs one case and returns what it printed and how it exited.
type runCase func(c testCase) (stdout, stderr string, err error)

// corpusRunner builds the corpus program, or takes the flowc of
// ASLDIFF_FLOWC, and returns what runs a case through it.
func corpusRunner(t *testing.T, cases []testCase) runCase {
	if bin := os.Getenv("ASLDIFF_FLOWC"); bin != "" {
		abs, err := filepath.Abs(bin)
		if err != nil {
			t.Fatal(err)
		}
		return func(c testCase) (string, string, error) {
			return runIn(c.dir, abs, "run", c.definition, "--input", "input.json", "--mock-config", "mocks.json", "--test-case", "default", "--skip-waits")
		}
	}
	p := buildCorpus(t, cases)
	return func(c testCase) (string, string, error) {
		if diags, ok := p.broken[c.name]; ok {
			return "", diags, errors.New("flowc rejects the definition")
		}
		return runIn(c.dir, p.bin, c.name, "-input", "input.json", "-mock-config", "mocks.json", "-test-case", "default", "-skip-waits", "-machine", p.machines[c.name])
	}
}

func runIn(dir, bin string, args ...string) (stdout, stderr string, err error) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	return out.String(), errb.String(), err
}

// check runs one case and describes every difference, or returns "";
// skip is the reason when it is listed as unsupported and is.
func check(run runCase, c testCase) (msg, skip string) {
	stdout, stderr, runErr := run(c)
	reason, listed := unsupported[c.name]
	switch says := strings.Contains(stdout+stderr, "not supported yet"); {
	case says && listed:
		return "", reason
	case says:
		return "flowc says it does not support this case, which is not listed in unsupported:\n" + indent(stderr+stdout), ""
	case listed:
		return "the case is listed in unsupported but runs: take it off the list", ""
	}
	return compare(stdout, stderr, runErr, c), ""
}

// compare describes every difference between what a case printed and
// expected.json, or returns "".
func compare(stdout, stderr string, runErr error, c testCase) string {
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

func indent(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 2000 {
		s = s[:2000] + " …"
	}
	return strings.ReplaceAll(s, "\n", "\n    ")
}
