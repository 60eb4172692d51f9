package asl

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/runtime/impl"
	"github.com/flowc-dev/flowc/runtime/jsonpath"
)

// echo is a Map's child that returns its item, failing on "bad".
func echo(_ context.Context, _ *ASLExec, in any) (any, error) {
	if in == "bad" {
		return nil, &impl.Error{Name: "Bad", Cause: "bad item"}
	}
	return in, nil
}

// runWriter runs a distributed Map over items with writer w, tolerating
// one failed child.
func runWriter(t *testing.T, x *ASLExec, items any, w *ResultWriterSpec) any {
	t.Helper()
	d := &DistributedSpec{Writer: w, HasCount: true, TolerantCount: 1}
	ctx := context.Background()
	out, err := x.DistributedMap("Map", &MapSpec{MaxConcurrency: 2}, d, echo)(ctx, x.Enter(ctx, "Map"), items)
	require.NoError(t, err)
	return out
}

func newExec(t *testing.T, in any) (*ASLExec, any) {
	cfg := impl.NewConfig()
	x, items, err := NewASLExec(&cfg, "m", nil, in)
	require.NoError(t, err)
	return x, items
}

// With only a WriterConfig nothing is written and the results are the
// Map's result, shaped by the Transformation ("ResultWriter (Map)" in the
// Step Functions developer guide): COMPACT the outputs, FLATTEN the
// outputs with arrays spread out, NONE each run with its metadata. A
// failed child stays a whole run record whatever the Transformation.
func TestWriterConfigAloneShapesTheResult(t *testing.T) {
	x, items := newExec(t, []any{[]any{1, 2}, []any{3}, "x", "bad"})
	compact := impl.JSONText(runWriter(t, x, items, &ResultWriterSpec{Transformation: "COMPACT"}))
	flat := runWriter(t, x, items, &ResultWriterSpec{Transformation: "FLATTEN", OutputType: "JSON"}).([]any)
	assert.True(t, strings.HasPrefix(compact, `[[1,2],[3],"x",{"ExecutionArn":`), compact)
	assert.Equal(t, `[1,2,3,"x"]`, impl.JSONText(flat[:4]))
	require.Len(t, flat, 5)
	failed := flat[4].(*Object)
	assert.Equal(t, `"FAILED" "Bad" "bad item" "\"bad\""`, strings.Join([]string{
		impl.JSONText(get(failed, "Status")), impl.JSONText(get(failed, "Error")), impl.JSONText(get(failed, "Cause")), impl.JSONText(get(failed, "Input"))}, " "))

	none := runWriter(t, x, items, &ResultWriterSpec{}).([]any)
	require.Len(t, none, 4)
	first := none[0].(*Object)
	assert.Equal(t, []string{"ExecutionArn", "Input", "InputDetails", "Name", "Output", "OutputDetails", "RedriveCount",
		"RedriveStatus", "RedriveStatusReason", "StartDate", "StateMachineArn", "Status", "StopDate"}, first.Keys())
	assert.Equal(t, "[1,2]", get(first, "Output"), "the output as JSON text, as DescribeExecution gives it")
}

func get(o *Object, k string) any {
	v, _ := o.Get(k)
	return v
}

// sfn-eks-inventory (../shared/corpora/asl-real) selects `$[*][*]` of its
// Map's result, which in Step Functions is the bucket and the manifest's
// key and nothing else; its Prefix ends with a slash, which the key does
// not double.
func TestResultWriterDetailsAreBucketAndKey(t *testing.T) {
	bucket := t.TempDir()
	x, items := newExec(t, []any{1, 2})
	out := runWriter(t, x, items, &ResultWriterSpec{Resource: "arn:aws:states:::s3:putObject",
		Parameters: TValue(Obj("Bucket", bucket, "Prefix", "data/"))})
	arn := get(out.(*Object), "MapRunArn").(string)
	id := runID(arn)
	assert.Regexp(t, `^arn:aws:states:local:000000000000:mapRun:m/Map:[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$`, arn)
	p, err := jsonpath.Parse("$[*][*]")
	require.NoError(t, err)
	selected, err := p.Eval(out)
	require.NoError(t, err)
	assert.Equal(t, []any{bucket, "data/" + id + "/manifest.json"}, selected)
	assert.FileExists(t, filepath.Join(bucket, "data", id, "manifest.json"))
}

// With OutputType JSONL each result file holds JSON lines; COMPACT writes
// the outputs alone, and a failed child's whole run record.
func TestResultFilesJSONLines(t *testing.T) {
	bucket := t.TempDir()
	x, items := newExec(t, []any{"a", "bad"})
	out := runWriter(t, x, items, &ResultWriterSpec{Resource: "arn:aws:states:::s3:putObject",
		Parameters: TValue(Obj("Bucket", bucket, "Prefix", "p")), OutputType: "JSONL", Transformation: "COMPACT"})
	dir := filepath.Join(bucket, "p", runID(get(out.(*Object), "MapRunArn").(string)))
	succeeded, err := os.ReadFile(filepath.Join(dir, "SUCCEEDED_0.json"))
	require.NoError(t, err)
	assert.Equal(t, "\"a\"\n", string(succeeded))
	failed, err := os.ReadFile(filepath.Join(dir, "FAILED_0.json"))
	require.NoError(t, err)
	var record map[string]any
	require.NoError(t, json.Unmarshal(failed, &record), "one line: %s", failed)
	assert.Equal(t, "Bad", record["Error"])
}

// A Map run written again (the state run again in the same execution)
// replaces the files of the earlier run: a status with no results now has
// no file and an empty list in the manifest.
func TestResultFilesOfARunWrittenAgain(t *testing.T) {
	bucket := t.TempDir()
	w := &ResultWriterSpec{Resource: "arn:aws:states:::s3:putObject", Parameters: TValue(Obj("Bucket", bucket))}
	x, items := newExec(t, []any{"a", "bad"})
	first := runWriter(t, x, items, w)
	again := runWriter(t, x, []any{"b"}, w)
	require.Equal(t, impl.JSONText(first), impl.JSONText(again), "the same Map run of the same execution")
	id := runID(get(again.(*Object), "MapRunArn").(string))
	assert.NoFileExists(t, filepath.Join(bucket, id, "FAILED_0.json"))
	manifest, err := os.ReadFile(filepath.Join(bucket, id, "manifest.json"))
	require.NoError(t, err)
	assert.Contains(t, string(manifest), `"ResultFiles":{"FAILED":[],"PENDING":[],"SUCCEEDED":[{"Key":"`+id+`/SUCCEEDED_0.json","Size":`)
}
