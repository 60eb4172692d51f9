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
	"time"

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

// summary is the Map's result, as Step Functions gives it with a
// ResultWriter ("ResultWriter (Map)" in the developer guide), with the
// map run's id made "ID" (it comes from the execution's name, which holds
// the start time) and dir made "OUT".
func summary(t *testing.T, out map[string]any, dir string) string {
	s := out["archived"].(map[string]any)
	return normalized(t, jsonOf(t, s), runIDOf(t, s), dir)
}

// runIDOf is the id of the map run whose result is s.
func runIDOf(t *testing.T, s map[string]any) string {
	arn, ok := s["MapRunArn"].(string)
	require.True(t, ok, "no MapRunArn in %v", s)
	return arn[strings.LastIndex(arn, ":")+1:]
}

func normalized(t *testing.T, text, id, dir string) string {
	require.NotEmpty(t, id)
	return strings.ReplaceAll(strings.ReplaceAll(text, id, "ID"), dir, "OUT")
}

// byIndex sorts rs by index, and checks and drops each run's times, which
// come from the native clock or from Temporal's.
func byIndex(t *testing.T, rs []flowcrt.ChildResult) []flowcrt.ChildResult {
	slices.SortFunc(rs, func(a, b flowcrt.ChildResult) int { return a.Index - b.Index })
	for i := range rs {
		assert.False(t, rs[i].Start.IsZero(), "child %d has no start time", rs[i].Index)
		assert.False(t, rs[i].Stop.Before(rs[i].Start), "child %d stops before it starts", rs[i].Index)
		rs[i].Start, rs[i].Stop = time.Time{}, time.Time{}
	}
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
	assert.Equal(t, byIndex(t, native.results), byIndex(t, w.results))
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
	nativeID, temporalID := runIDOf(t, want["archived"].(map[string]any)), runIDOf(t, got["archived"].(map[string]any))
	for _, name := range []string{"SUCCEEDED_0.json", "FAILED_0.json"} {
		w := resultRecords(t, filepath.Join(nativeDir, "archived", nativeID, name))
		g := resultRecords(t, filepath.Join(temporalDir, "archived", temporalID, name))
		assert.Equal(t, normalized(t, jsonOf(t, w), nativeID, nativeDir), normalized(t, jsonOf(t, g), temporalID, temporalDir), name)
	}
	w, err := os.ReadFile(filepath.Join(nativeDir, "archived", nativeID, "manifest.json"))
	require.NoError(t, err)
	g, err := os.ReadFile(filepath.Join(temporalDir, "archived", temporalID, "manifest.json"))
	require.NoError(t, err)
	assert.Equal(t, normalized(t, string(w), nativeID, nativeDir), normalized(t, string(g), temporalID, temporalDir))
	assert.Contains(t, string(g), `"FAILED":[{"Key":"archived/`+temporalID+`/FAILED_0.json"`)
}

// resultRecords reads a result file (a JSON array) in the order of the
// children's names (the native children end in any order), each record's
// times checked and dropped: they come from different clocks.
func resultRecords(t *testing.T, path string) []map[string]any {
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var records []map[string]any
	require.NoError(t, json.Unmarshal(data, &records), string(data))
	slices.SortFunc(records, func(a, b map[string]any) int { return strings.Compare(a["Name"].(string), b["Name"].(string)) })
	for _, r := range records {
		for _, k := range []string{"StartDate", "StopDate"} {
			_, err := time.Parse("2006-01-02T15:04:05.000Z", r[k].(string))
			assert.NoError(t, err, k)
			delete(r, k)
		}
	}
	return records
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
	assert.Equal(t, map[string]any{"Bucket": "out", "Key": runIDOf(t, out) + "/manifest.json"}, out["ResultWriterDetails"],
		"the handlers' writer wrote the results; the Map's result says where Step Functions would have put them")
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
