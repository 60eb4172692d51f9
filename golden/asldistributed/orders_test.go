package asldistributed

import (
	"context"
	"errors"
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

// The built-in writer puts every line's result in a local file and the
// Map's result says where; one failed line of four is within 50%.
func TestLocalResultWriter(t *testing.T) {
	in := input(t, 5)
	out, err := NewOrders(&shop{}).Run(context.Background(), in)
	require.NoError(t, err)
	checked := out.(map[string]any)["checked"].(map[string]any)
	assert.Equal(t, map[string]any{"Total": 4.0, "Succeeded": 3.0, "Failed": 1.0}, checked["Summary"])
	dir := filepath.Join(in["out"].(string), "checked", "CheckLines")
	data, err := os.ReadFile(filepath.Join(dir, "results.jsonl"))
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	assert.Len(t, lines, 4)
	assert.Contains(t, string(data), `"Status":"FAILED","Input":{"line":3,"ok":false},"Error":"States.TaskFailed","Cause":"line not ok"`)
	manifest, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	require.NoError(t, err)
	assert.JSONEq(t, `{"Total": 4, "Succeeded": 3, "Failed": 1, "Results": "results.jsonl"}`, string(manifest))
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
