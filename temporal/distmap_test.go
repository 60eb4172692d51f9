package temporal_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/testsuite"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcasl "github.com/flowc-dev/flowc/runtime/impl/asl"
	"github.com/flowc-dev/flowc/temporal/flowtemporal"
	"github.com/flowc-dev/flowc/temporal/golden/aslreader"
)

// sensors reads its own readings (an ItemReader) and converts them; it
// records how it was called.
type sensors struct {
	n  int // readings it has
	mu sync.Mutex
	// reads counts the calls of ReadItems; outside counts the calls made
	// outside an activity, which on Temporal would be workflow code.
	reads, outside int
	req            flowcasl.ItemReadRequest
}

func (s *sensors) ReadItems(ctx context.Context, req flowcasl.ItemReadRequest, yield func(any) error) error {
	s.mu.Lock()
	s.reads++
	s.req = req
	if !activity.IsActivity(ctx) {
		s.outside++
	}
	s.mu.Unlock()
	for i := range s.n {
		if err := yield(map[string]any{"sensor": fmt.Sprint("s", i), "celsius": float64(i % 40)}); err != nil {
			return err
		}
	}
	return nil
}

func (s *sensors) Convert(_ context.Context, in any) (any, error) {
	r := in.(map[string]any)["reading"].(map[string]any)
	if r["sensor"] == "s13" {
		return nil, &flowcrt.Error{Name: "BadReading", Cause: r["sensor"].(string)}
	}
	return map[string]any{"kelvin": r["celsius"].(float64) + 273}, nil
}

func runReadings(t *testing.T, h aslreader.ReadingsHandlers, in string) (any, error) {
	env := (&testsuite.WorkflowTestSuite{}).NewTestWorkflowEnvironment()
	aslreader.RegisterReadings(env, h)
	env.ExecuteWorkflow(aslreader.ReadingsWorkflowName, json.RawMessage(in))
	require.True(t, env.IsWorkflowCompleted())
	if err := env.GetWorkflowError(); err != nil {
		return nil, flowtemporal.StepsError(err)
	}
	var out any
	require.NoError(t, env.GetWorkflowResult(&out))
	return out, nil
}

// The handlers' ItemReader reads a distributed Map's items on Temporal as
// natively, inside activities only, one bounded page per activity; the
// result is the native one.
func TestItemReaderHandlerOnTemporal(t *testing.T) {
	in := `{"bucket":"sensors","limit":2500,"most":3}`
	var native any
	require.NoError(t, json.Unmarshal([]byte(in), &native))
	want, err := aslreader.NewReadings(&sensors{n: 2600}).Run(context.Background(), native)
	require.NoError(t, err)

	s := &sensors{n: 2600}
	got, err := runReadings(t, s, in)
	require.NoError(t, err)
	assert.Equal(t, jsonOf(t, want), jsonOf(t, got))
	assert.Len(t, got.(map[string]any)["converted"], 2500)
	assert.Equal(t, 3, s.reads, "2500 items in pages of %d", flowtemporal.ItemPageItems)
	assert.Zero(t, s.outside, "the reader ran in workflow code")
	assert.Equal(t, map[string]any{"Bucket": "sensors", "Key": "readings.jsonl"}, s.req.Parameters)
	assert.Equal(t, "JSONL", s.req.Format)
}

// A reader's failure, and an item that is not JSON, fail the Map with
// States.ItemReaderFailed on Temporal as natively.
func TestItemReaderFailureOnTemporal(t *testing.T) {
	for name, h := range map[string]aslreader.ReadingsHandlers{"error": &failingReader{}, "not JSON": &badItemReader{}} {
		t.Run(name, func(t *testing.T) {
			in := `{"bucket":"sensors","limit":5,"most":1}`
			var native any
			require.NoError(t, json.Unmarshal([]byte(in), &native))
			_, want := aslreader.NewReadings(h).Run(context.Background(), native)
			require.Error(t, want)
			_, got := runReadings(t, h, in)
			require.Error(t, got)
			assert.Equal(t, want.Error(), got.Error())
			assert.Contains(t, got.Error(), flowcrt.StatesItemReaderFailed)
		})
	}
}

type failingReader struct{ sensors }

func (*failingReader) ReadItems(context.Context, flowcasl.ItemReadRequest, func(any) error) error {
	return fmt.Errorf("bucket sensors: access denied")
}

type badItemReader struct{ sensors }

func (*badItemReader) ReadItems(_ context.Context, _ flowcasl.ItemReadRequest, yield func(any) error) error {
	return yield(func() {})
}

func jsonOf(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// slowSensors converts slowly, recording how many conversions run at once.
type slowSensors struct {
	sensors
	inFlight, most atomic.Int32
}

func (s *slowSensors) Convert(ctx context.Context, in any) (any, error) {
	n := s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	for m := s.most.Load(); n > m && !s.most.CompareAndSwap(m, n); m = s.most.Load() {
	}
	time.Sleep(20 * time.Millisecond)
	return s.sensors.Convert(ctx, in)
}

// On Temporal the children of a distributed Map run as a fan-out of at
// most MaxConcurrency at once, as natively, with the results in item
// order.
func TestDistributedMapConcurrencyOnTemporal(t *testing.T) {
	in := `{"bucket":"sensors","limit":20,"most":3}`
	var native any
	require.NoError(t, json.Unmarshal([]byte(in), &native))
	want, err := aslreader.NewReadings(&slowSensors{sensors: sensors{n: 20}}).Run(context.Background(), native)
	require.NoError(t, err)
	s := &slowSensors{sensors: sensors{n: 20}}
	got, err := runReadings(t, s, in)
	require.NoError(t, err)
	assert.Equal(t, jsonOf(t, want), jsonOf(t, got))
	assert.Equal(t, int32(3), s.most.Load(), "children at once")
}

// failingSensors fails two readings where one is tolerated.
type failingSensors struct{ slowSensors }

func (s *failingSensors) Convert(ctx context.Context, in any) (any, error) {
	if in.(map[string]any)["reading"].(map[string]any)["sensor"] == "s14" {
		return nil, &flowcrt.Error{Name: "BadReading", Cause: "s14"}
	}
	return s.slowSensors.Convert(ctx, in)
}

// Past the tolerated failures the Map fails on Temporal as natively, with
// the children in flight stopped.
func TestDistributedMapFailuresOnTemporal(t *testing.T) {
	in := `{"bucket":"sensors","limit":40,"most":3}`
	var native any
	require.NoError(t, json.Unmarshal([]byte(in), &native))
	_, want := aslreader.NewReadings(&failingSensors{slowSensors{sensors: sensors{n: 40}}}).Run(context.Background(), native)
	require.Error(t, want)
	_, got := runReadings(t, &failingSensors{slowSensors{sensors: sensors{n: 40}}}, in)
	require.Error(t, got)
	var we, ge *flowcrt.Error
	require.ErrorAs(t, want, &we)
	require.ErrorAs(t, got, &ge)
	assert.Equal(t, flowcrt.StatesExceedToleratedFailureThreshold, ge.Name)
	assert.Equal(t, we.Name, ge.Name)
	assert.Contains(t, ge.Cause, "2 of ")
}
