package aslmaxconc

import (
	"context"
	"fmt"
	"maps"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcasl "github.com/flowc-dev/flowc/runtime/impl/asl"
)

// clerks does the work of Batches: it reads five orders for the
// distributed Map (flowcasl.ItemReader) and counts every call.
type clerks struct {
	mu    sync.Mutex
	calls map[string]int
}

func (c *clerks) count(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls[key]++
}

func (c *clerks) ReadItems(ctx context.Context, _ flowcasl.ItemReadRequest, yield func(any) error) error {
	c.count("read")
	for i := range 5 {
		if err := yield(map[string]any{"order": float64(i)}); err != nil {
			return err
		}
	}
	return nil
}

func (c *clerks) Signed(_ context.Context, in any) (any, error) {
	c.count(fmt.Sprintf("signed %v", in.(map[string]any)["name"]))
	return in, nil
}

func (c *clerks) Check(_ context.Context, in any) (any, error) {
	c.count(fmt.Sprintf("check %d", len(in.(map[string]any)["Items"].([]any))))
	return in, nil
}

func (c *clerks) snapshot() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.calls)
}

// Nested Maps of MaxConcurrency 1 stop at one member of one group at a
// time, and a distributed Map of MaxConcurrency 1, whose ItemReader's five
// orders make batches of 2, 2 and 1, at one child run at a time: each
// decision finishes one and starts the next. A resumed run reads the
// items again but starts no child past the bound. Source: Step Functions'
// MaxConcurrency of Inline and Distributed Map (https://docs.aws.amazon.com/
// step-functions/latest/dg/state-map-distributed.html), the Approval
// state of the Agent State Language spec.
func TestNestedAndDistributedOneAtATime(t *testing.T) {
	ctx := context.Background()
	store := flowcrt.NewMemoryCheckpointer()
	c := &clerks{calls: map[string]int{}}
	process := func() *Batches { return NewBatches(c, flowcrt.WithCheckpointer(store)) }
	in := map[string]any{"groups": []any{
		map[string]any{"members": []any{"ann", "bob"}},
		map[string]any{"members": []any{"cy"}},
	}}

	_, err := process().Invoke(ctx, "b", in)
	steps := []struct {
		stop, decision string
		calls          map[string]int // after the decision
	}{
		{"Groups/0/Members/0/Sign", "signed", map[string]int{"signed ann": 1}},
		{"Groups/0/Members/1/Sign", "signed", map[string]int{"signed ann": 1, "signed bob": 1}},
		{"Groups/1/Members/0/Sign", "signed", map[string]int{"signed ann": 1, "signed bob": 1, "signed cy": 1, "read": 1, "check 2": 1}},
		{"Batches/0/Release", "yes", map[string]int{"signed ann": 1, "signed bob": 1, "signed cy": 1, "read": 2, "check 2": 2}},
		{"Batches/1/Release", "yes", map[string]int{"signed ann": 1, "signed bob": 1, "signed cy": 1, "read": 3, "check 2": 2, "check 1": 1}},
		{"Batches/2/Release", "yes", map[string]int{"signed ann": 1, "signed bob": 1, "signed cy": 1, "read": 4, "check 2": 2, "check 1": 1}},
	}
	for _, step := range steps {
		assert.Equal(t, []string{step.stop}, stopKeys(t, err), "the only stop")
		_, err = process().Decide(ctx, "b", step.decision)
		assert.Equal(t, step.calls, c.snapshot(), "after answering %s", step.stop)
	}
	require.NoError(t, err)
}
