package temporal_test

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestRunSameLine runs a definition of each dialect with `flowc run`, on
// the native engine and with --engine temporal (Temporal's test
// environment), over the same mocks: the result lines and exit codes must
// be the same. TestEnginesAgree compares the whole corpus; this test
// covers the command, which builds two programs per run.
func TestRunSameLine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds flowc and two programs per case")
	}
	flowc := buildFlowc(t)
	asl := "../asldiff/cases/"
	for _, c := range []struct{ name, def, mocks, test, input string }{
		{"typed retry and actions", "golden/mocked/mocked.flow.yaml", "golden/mocked/mocks.json", "happy", ""},
		{"typed fan-out, approval waits", "golden/review/review.flow.yaml", "", "", ""},
		{"typed approval answered by the mock", "../golden/approval/publish.flow.yaml", "testdata/publish_mocks.json", "approve", ""},
		{"json mode fan-out", "golden/jsonparallel/parallel.flow.yaml", "golden/jsonparallel/mocks.json", "reviews", ""},
		{"task chain", "golden/chaintoolloop/toolloop.chain.yaml", "", "", ""},
		{"states language map", asl + "111-map-item-order/definition.asl.json", asl + "111-map-item-order/mocks.json", "default", asl + "111-map-item-order/input.json"},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := []string{"run", c.def}
			if c.mocks != "" {
				args = append(args, "--mock-config", c.mocks, "--test-case", c.test)
			}
			if c.input != "" {
				args = append(args, "--input", c.input)
			}
			native, nativeCode := runFlowc(t, flowc, append(args, "--skip-waits")...)
			onTemporal, temporalCode := runFlowc(t, flowc, append(args, "--engine", "temporal")...)
			if !bytes.Equal(native, onTemporal) || nativeCode != temporalCode {
				t.Errorf("native (exit %d): %s\ntemporal (exit %d): %s", nativeCode, native, temporalCode, onTemporal)
			}
			if len(native) == 0 {
				t.Error("no result line")
			}
		})
	}
}

func buildFlowc(t *testing.T) string {
	flowc := filepath.Join(t.TempDir(), "flowc")
	cmd := exec.Command("go", "build", "-o", flowc, "./cmd/flowc")
	cmd.Dir = ".." // flowc is built in its own module
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building flowc: %v\n%s", err, msg)
	}
	return flowc
}

func runFlowc(t *testing.T, bin string, args ...string) ([]byte, int) {
	cmd := exec.Command(bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if code == 2 {
		t.Fatalf("flowc %v: usage error\n%s", args, stderr.Bytes())
	}
	return out, code
}
