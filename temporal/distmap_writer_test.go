package temporal_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/testsuite"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcasl "github.com/flowc-dev/flowc/runtime/impl/asl"
	"github.com/flowc-dev/flowc/temporal/flowtemporal"
	"github.com/flowc-dev/flowc/temporal/golden/asldistpass"
	"github.com/flowc-dev/flowc/temporal/golden/aslwriter"
)

// store stores documents, failing the one named "bad".
type store struct{}

func (store) Store(_ context.Context, in any) (any, error) {
	if in == "bad" {
		return nil, &flowcrt.Error{Name: "Unreadable", Cause: "doc bad"}
	}
	return map[string]any{"stored": in}, nil
}

// resultsTaker is a store with a ResultWriter of its own.
type resultsTaker struct {
	store
	mu      sync.Mutex
	results []flowcrt.ChildResult
	outside int // calls made outside an activity
}

func (w *resultsTaker) WriteResult(ctx context.Context, req flowcrt.ResultWriteRequest, r flowcrt.ChildResult) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !activity.IsActivity(ctx) {
		w.outside++
	}
	w.results = append(w.results, r)
	return nil
}

func archiveInput(out string) string {
	return `{"docs":["a","bad","c"],"out":` + jsonString(out) + `}`
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func runArchive(t *testing.T, h aslwriter.ArchiveHandlers, in string) map[string]any {
	env := (&testsuite.WorkflowTestSuite{}).NewTestWorkflowEnvironment()
	aslwriter.RegisterArchive(env, h)
	env.ExecuteWorkflow(aslwriter.ArchiveWorkflowName, json.RawMessage(in))
	require.True(t, env.IsWorkflowCompleted())
	require.NoError(t, flowtemporal.StepsError(env.GetWorkflowError()))
	var out map[string]any
	require.NoError(t, env.GetWorkflowResult(&out))
	return out
}

func runArchiveNative(t *testing.T, h aslwriter.ArchiveHandlers, in string) map[string]any {
	var input any
	require.NoError(t, json.Unmarshal([]byte(in), &input))
	out, err := aslwriter.NewArchive(h).Run(context.Background(), input)
	require.NoError(t, err)
	return out.(map[string]any)
}

// summary is the Map's result without its run's name, which holds the
// start time, and with dir made "OUT".
func summary(t *testing.T, out map[string]any, dir string) string {
	s := out["archived"].(map[string]any)
	delete(s, "MapRunArn")
	return strings.ReplaceAll(jsonOf(t, s), dir, "OUT")
}

func byIndex(rs []flowcrt.ChildResult) []flowcrt.ChildResult {
	slices.SortFunc(rs, func(a, b flowcrt.ChildResult) int { return a.Index - b.Index })
	return rs
}

// The handlers' ResultWriter takes every child's result on Temporal as
// natively, inside activities; the Map's result is the same summary.
func TestResultWriterHandlerOnTemporal(t *testing.T) {
	native := &resultsTaker{}
	want := runArchiveNative(t, native, archiveInput("bucket"))
	w := &resultsTaker{}
	got := runArchive(t, w, archiveInput("bucket"))
	assert.Equal(t, summary(t, want, ""), summary(t, got, ""))
	require.Len(t, w.results, 3)
	assert.Equal(t, byIndex(native.results), byIndex(w.results))
	assert.Equal(t, "Unreadable", w.results[1].Error)
	assert.Zero(t, w.outside, "the writer ran in workflow code")
}

// Without a ResultWriter of the handlers, the built-in one writes the same
// files on Temporal as natively, from activities.
func TestBuiltinResultWriterOnTemporal(t *testing.T) {
	nativeDir, temporalDir := t.TempDir(), t.TempDir()
	want := runArchiveNative(t, store{}, archiveInput(nativeDir))
	got := runArchive(t, store{}, archiveInput(temporalDir))
	assert.Equal(t, summary(t, want, nativeDir), summary(t, got, temporalDir))
	for _, name := range []string{"results.jsonl", "manifest.json"} {
		w, err := os.ReadFile(filepath.Join(nativeDir, "archived", "Archive", name))
		require.NoError(t, err)
		g, err := os.ReadFile(filepath.Join(temporalDir, "archived", "Archive", name))
		require.NoError(t, err)
		wl, gl := strings.Split(string(w), "\n"), strings.Split(string(g), "\n")
		slices.Sort(wl) // the native children end in any order
		slices.Sort(gl)
		assert.Equal(t, wl, gl, name)
	}
	assert.Contains(t, summary(t, got, temporalDir), `"Failed":1`)
}

// relay reads three items and takes the results.
type relay struct{ resultsTaker }

func (*relay) ReadItems(_ context.Context, _ flowcasl.ItemReadRequest, yield func(any) error) error {
	for _, item := range []any{"x", 2.0, map[string]any{"k": "v"}} {
		if err := yield(item); err != nil {
			return err
		}
	}
	return nil
}

// A workflow whose only activities are a distributed Map's reader and
// writer registers and calls them.
func TestDistributedMapWithoutTasksOnTemporal(t *testing.T) {
	h := &relay{}
	env := (&testsuite.WorkflowTestSuite{}).NewTestWorkflowEnvironment()
	asldistpass.RegisterRelay(env, h)
	env.ExecuteWorkflow(asldistpass.RelayWorkflowName, json.RawMessage(`{}`))
	require.True(t, env.IsWorkflowCompleted())
	require.NoError(t, flowtemporal.StepsError(env.GetWorkflowError()))
	var out map[string]any
	require.NoError(t, env.GetWorkflowResult(&out))
	assert.Equal(t, map[string]any{"Total": 3.0, "Succeeded": 3.0, "Failed": 0.0}, out["Summary"])
	require.Len(t, h.results, 3)
	assert.Equal(t, map[string]any{"item": map[string]any{"k": "v"}, "relayed": true}, h.results[2].Output)
	assert.Zero(t, h.outside)
}

// refusingWriter fails to write.
type refusingWriter struct{ store }

func (refusingWriter) WriteResult(context.Context, flowcrt.ResultWriteRequest, flowcrt.ChildResult) error {
	return errors.New("bucket full")
}

// A ResultWriter's failure fails the Map on Temporal as natively.
func TestResultWriterFailureOnTemporal(t *testing.T) {
	var input any
	require.NoError(t, json.Unmarshal([]byte(archiveInput("bucket")), &input))
	_, want := aslwriter.NewArchive(refusingWriter{}).Run(context.Background(), input)
	require.Error(t, want)
	env := (&testsuite.WorkflowTestSuite{}).NewTestWorkflowEnvironment()
	aslwriter.RegisterArchive(env, refusingWriter{})
	env.ExecuteWorkflow(aslwriter.ArchiveWorkflowName, json.RawMessage(archiveInput("bucket")))
	got := flowtemporal.StepsError(env.GetWorkflowError())
	require.Error(t, got)
	assert.Equal(t, want.Error(), got.Error())
	assert.Contains(t, got.Error(), flowcasl.StatesResultWriterFailed)
}
