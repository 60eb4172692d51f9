package mapchain

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrun "github.com/flowc-dev/flowc/flowrun"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

func mocks(t *testing.T) *flowcrun.Mocks {
	t.Helper()
	data, err := os.ReadFile("mocks.json")
	require.NoError(t, err)
	cfg, err := flowcrun.ParseMockConfig(data)
	require.NoError(t, err)
	m, err := cfg.Case("Chunks", "ordered")
	require.NoError(t, err)
	return m
}

// With max_concurrency 1 the items run in list order, so each state's k-th
// mock answers a known item: process answers c0; c1 after one Flaky retry;
// c2 with Bad, which the catch sends to the state after the chain, skipping
// validate; c3. validate answers c0, c1 and c3.
func TestMocksInItemOrder(t *testing.T) {
	clock := flowcrt.NewFakeClock(time.Unix(0, 0))
	out, err := NewChunksMock(mocks(t), flowcrt.WithClock(clock)).Run(context.Background(), ChunksState{})
	require.NoError(t, err)
	assert.Equal(t, []string{"c0", "c1", "c2", "c3"}, out.Chunks)
	assert.Equal(t, []string{"p0", "p1", "p3"}, out.Processed)
	assert.Equal(t, 111, out.Valid)
	assert.Equal(t, []time.Duration{time.Second}, clock.Sleeps())
}

// chain checks what each state of an item's chain sees: its own item, and
// its own item's earlier updates but no other item's.
type chain struct {
	t     *testing.T
	mu    sync.Mutex
	order []string
}

func (h *chain) Split(context.Context, ChunksState) (ChunksUpdate, error) {
	return ChunksUpdate{}.WithChunks([]string{"a", "b", "c"}), nil
}

func (h *chain) Process(_ context.Context, s ChunksState, item string) (ChunksUpdate, error) {
	h.log("process " + item)
	assert.Empty(h.t, s.Processed)
	return ChunksUpdate{}.WithProcessed([]string{item + "!"}).WithValid(1), nil
}

func (h *chain) Validate(_ context.Context, s ChunksState, item string) (ChunksUpdate, error) {
	h.log("validate " + item)
	assert.Equal(h.t, []string{item + "!"}, s.Processed)
	assert.Equal(h.t, 1, s.Valid)
	return ChunksUpdate{}.WithValid(10), nil
}

func (h *chain) Merge(_ context.Context, s ChunksState) (ChunksUpdate, error) {
	assert.Equal(h.t, []string{"a!", "b!", "c!"}, s.Processed)
	return ChunksUpdate{}, nil
}

func (h *chain) log(line string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.order = append(h.order, line)
}

func TestTwoStatesPerItem(t *testing.T) {
	h := &chain{t: t}
	out, err := NewChunks(h).Run(context.Background(), ChunksState{})
	require.NoError(t, err)
	assert.Equal(t, 33, out.Valid)
	assert.Equal(t, []string{"process a", "validate a", "process b", "validate b", "process c", "validate c"}, h.order,
		"max_concurrency 1 runs the items one after another, in list order")
}
