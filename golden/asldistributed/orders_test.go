package asldistributed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// shop prices batches of orders (failing on a quantity that is not a
// number) and checks lines (failing the ones not ok).
type shop struct {
	inFlight, most atomic.Int32
	mu             sync.Mutex
	batches        []map[string]any
}

func (s *shop) Price(_ context.Context, in any) (any, error) {
	n := s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	for m := s.most.Load(); n > m && !s.most.CompareAndSwap(m, n); m = s.most.Load() {
	}
	batch := in.(map[string]any)
	s.mu.Lock()
	s.batches = append(s.batches, batch)
	s.mu.Unlock()
	var items []any
	for _, it := range batch["Items"].([]any) {
		order := it.(map[string]any)["order"].(map[string]any)
		if order["qty"] == "bad" {
			return nil, &flowcrt.Error{Name: "BadQuantity", Cause: "order " + order["id"].(string)}
		}
		items = append(items, order["item"].(string)+" x"+order["qty"].(string))
	}
	return items, nil
}

func (s *shop) Check(_ context.Context, in any) (any, error) {
	if !in.(map[string]any)["ok"].(bool) {
		return nil, errors.New("line not ok")
	}
	return in.(map[string]any)["line"], nil
}

// writer also takes the results of CheckLines.
type writer struct {
	*shop
	results []flowcrt.ChildResult
}

func (w *writer) WriteResult(_ context.Context, req flowcrt.ResultWriteRequest, r flowcrt.ChildResult) error {
	w.results = append(w.results, r)
	return nil
}

func input(t *testing.T, limit int) map[string]any {
	return map[string]any{"orders": "orders.csv", "limit": limit, "currency": "EUR", "out": t.TempDir()}
}

// The CSV rows become batches of two with their BatchInput, at most two
// children at a time; the failing batch is tolerated (count 1) and its
// error stands in the results, which are in batch order.
func TestBatchesAndToleratedFailure(t *testing.T) {
	s := &shop{}
	out, err := NewOrders(s).Run(context.Background(), input(t, 5))
	require.NoError(t, err)
	priced := out.(map[string]any)["priced"].([]any)
	require.Len(t, priced, 3)
	assert.Equal(t, []any{"apple x3", "pear x1"}, priced[0])
	assert.Equal(t, map[string]any{"Error": "BadQuantity", "Cause": "order 3"}, priced[1])
	assert.Equal(t, []any{"kiwi x9"}, priced[2])
	assert.LessOrEqual(t, s.most.Load(), int32(2))
	first := batchWith(s.batches, "1")
	require.NotNil(t, first)
	assert.Equal(t, map[string]any{"currency": "EUR"}, first["BatchInput"])
	assert.Equal(t, map[string]any{"order": map[string]any{"id": "1", "item": "apple", "qty": "3"}, "n": 0.0}, first["Items"].([]any)[0])
}

func batchWith(batches []map[string]any, id string) map[string]any {
	for _, b := range batches {
		if b["Items"].([]any)[0].(map[string]any)["order"].(map[string]any)["id"] == id {
			return b
		}
	}
	return nil
}

// MaxItems (from the input) stops the reader: two rows, one batch.
func TestMaxItems(t *testing.T) {
	out, err := NewOrders(&shop{}).Run(context.Background(), input(t, 2))
	require.NoError(t, err)
	assert.Len(t, out.(map[string]any)["priced"], 1)
}

// The built-in writer writes what Step Functions writes to S3 ("Processing
// Distributed Map output" in the developer guide), Bucket being a
// directory: under <Prefix>/<map run id>/ one JSON array per status and a
// manifest.json naming them; the Map's result is the map run's ARN and
// where the manifest is, nothing else ("ResultWriter (Map)"). One failed
// line of four is within 50%.
func TestLocalResultWriter(t *testing.T) {
	in := input(t, 5)
	bucket := in["out"].(string)
	out, err := NewOrders(&shop{}).Run(context.Background(), in)
	require.NoError(t, err)
	checked := out.(map[string]any)["checked"].(map[string]any)
	arn := checked["MapRunArn"].(string)
	require.Regexp(t, `^arn:aws:states:local:000000000000:mapRun:orders/lines:[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$`, arn,
		"named after the machine and the Map's Label, with a run id")
	id := arn[strings.LastIndex(arn, ":")+1:]
	assert.Equal(t, map[string]any{"Bucket": bucket, "Key": "checked/" + id + "/manifest.json"}, checked["ResultWriterDetails"])
	assert.Len(t, checked, 2)

	succeeded := readRecords(t, filepath.Join(bucket, "checked", id, "SUCCEEDED_0.json"))
	failed := readRecords(t, filepath.Join(bucket, "checked", id, "FAILED_0.json"))
	require.Len(t, succeeded, 3)
	require.Len(t, failed, 1)
	for _, r := range append(succeeded, failed...) {
		assert.Equal(t, true, r["InputDetails"].(map[string]any)["Included"])
		assert.Equal(t, "arn:aws:states:local:000000000000:stateMachine:orders/lines", r["StateMachineArn"])
		assert.Equal(t, "arn:aws:states:local:000000000000:execution:orders/lines:"+r["Name"].(string), r["ExecutionArn"])
		assert.Equal(t, 0.0, r["RedriveCount"])
		assert.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`, r["StartDate"])
		assert.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`, r["StopDate"])
	}
	// The input and output are JSON text, as DescribeExecution gives them.
	s := succeeded[0]
	assert.ElementsMatch(t, []string{"ExecutionArn", "Input", "InputDetails", "Name", "Output", "OutputDetails",
		"RedriveCount", "RedriveStatus", "RedriveStatusReason", "StartDate", "StateMachineArn", "Status", "StopDate"}, keys(s))
	assert.Equal(t, "SUCCEEDED", s["Status"])
	assert.Equal(t, "NOT_REDRIVABLE", s["RedriveStatus"])
	for _, r := range succeeded {
		var line map[string]any
		require.NoError(t, json.Unmarshal([]byte(r["Input"].(string)), &line))
		assert.JSONEq(t, fmt.Sprint(line["line"]), r["Output"].(string), "Check returns the line's number")
	}
	f := failed[0]
	assert.ElementsMatch(t, []string{"Cause", "Error", "ExecutionArn", "Input", "InputDetails", "Name",
		"RedriveCount", "RedriveStatus", "StartDate", "StateMachineArn", "Status", "StopDate"}, keys(f))
	assert.Equal(t, map[string]any{"Status": "FAILED", "Error": "States.TaskFailed", "Cause": "line not ok", "Input": `{"line":3,"ok":false}`},
		map[string]any{"Status": f["Status"], "Error": f["Error"], "Cause": f["Cause"], "Input": f["Input"]})

	manifest := map[string]any{}
	data, err := os.ReadFile(filepath.Join(bucket, "checked", id, "manifest.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &manifest))
	assert.Equal(t, map[string]any{
		"DestinationBucket": bucket,
		"MapRunArn":         arn,
		"ResultFiles": map[string]any{
			"FAILED":    []any{map[string]any{"Key": "checked/" + id + "/FAILED_0.json", "Size": fileSize(t, bucket, "checked", id, "FAILED_0.json")}},
			"PENDING":   []any{},
			"SUCCEEDED": []any{map[string]any{"Key": "checked/" + id + "/SUCCEEDED_0.json", "Size": fileSize(t, bucket, "checked", id, "SUCCEEDED_0.json")}},
		},
	}, manifest)
}

// readRecords reads a result file: a JSON array of objects.
func readRecords(t *testing.T, path string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var records []map[string]any
	require.NoError(t, json.Unmarshal(data, &records), string(data))
	return records
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func fileSize(t *testing.T, elem ...string) float64 {
	info, err := os.Stat(filepath.Join(elem...))
	require.NoError(t, err)
	return float64(info.Size())
}

// Handlers that implement flowcrt.ResultWriter get each child's result.
func TestResultWriterHandler(t *testing.T) {
	w := &writer{shop: &shop{}}
	_, err := NewOrders(w).Run(context.Background(), input(t, 5))
	require.NoError(t, err)
	require.Len(t, w.results, 4)
	failed := 0
	for _, r := range w.results {
		if r.Error != "" {
			failed++
			assert.Equal(t, map[string]any{"line": 3.0, "ok": false}, r.Input)
		}
	}
	assert.Equal(t, 1, failed)
}

// A second failed batch is more than the one tolerated.
func TestTooManyFailures(t *testing.T) {
	in := input(t, 5)
	in["orders"] = "bad.csv"
	_, err := NewOrders(&shop{}).Run(context.Background(), in)
	require.Error(t, err)
	assert.Equal(t, flowcrt.StatesExceedToleratedFailureThreshold, flowcrt.ErrorName(err))
}

// A file that is not there fails the state with States.ItemReaderFailed.
func TestReaderFailure(t *testing.T) {
	in := input(t, 5)
	in["orders"] = "missing.csv"
	_, err := NewOrders(&shop{}).Run(context.Background(), in)
	require.Error(t, err)
	assert.Equal(t, flowcrt.StatesItemReaderFailed, flowcrt.ErrorName(err))
}
