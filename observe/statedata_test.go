package observe_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/golden/aslfanout"
	"github.com/flowc-dev/flowc/golden/observed"
	"github.com/flowc-dev/flowc/observe"
	flowcrt "github.com/flowc-dev/flowc/runtime"
	"github.com/flowc-dev/flowc/session"
)

// data is a user's observer that takes the states' data
// (flowcrt.StateData): it records "STATE in: JSON" and "STATE out: JSON",
// the state found in the context its own State returned.
type data struct {
	mu    sync.Mutex
	lines []string
}

var _ flowcrt.StateData = (*data)(nil)

type dataState struct{}

func (d *data) Run(ctx context.Context, _ string) (context.Context, func(error)) { return ctx, nil }
func (d *data) State(ctx context.Context, state string) (context.Context, func(error)) {
	return context.WithValue(ctx, dataState{}, state), nil
}
func (d *data) Attempt(ctx context.Context, _ string, _ int) (context.Context, func(error)) {
	return ctx, nil
}
func (d *data) Item(ctx context.Context, _ string, _, _ int) (context.Context, func(error)) {
	return ctx, nil
}

func (d *data) Entered(ctx context.Context, input any)    { d.add(ctx, "in", input) }
func (d *data) Succeeded(ctx context.Context, output any) { d.add(ctx, "out", output) }

func (d *data) add(ctx context.Context, what string, v any) {
	text, err := json.Marshal(v)
	if err != nil {
		text = []byte(err.Error())
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.lines = append(d.lines, fmt.Sprintf("%v %s: %s", ctx.Value(dataState{}), what, text))
}

// sorted are the lines, sorted: items run concurrently.
func (d *data) sorted() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Sorted(slices.Values(d.lines))
}

// observers runs run with a user's StateData observer, alone or in
// observe.Multi, with no checkpointer and with one that keeps the
// session's history (whose observer wraps the user's) for a session's
// run, and requires the same data in each.
func observers(t *testing.T, run func(session bool, opts ...flowcrt.Option) error) []string {
	t.Helper()
	var want []string
	for _, tc := range []struct {
		name  string
		multi bool
		store bool
	}{{"alone", false, false}, {"alone, history", false, true}, {"multi", true, false}, {"multi, history", true, true}} {
		d := &data{}
		var o flowcrt.Observer = d
		if tc.multi {
			o = observe.Multi(&tree{}, d)
		}
		opts := []flowcrt.Option{flowcrt.WithObserver(o)}
		if tc.store {
			opts = append(opts, flowcrt.WithCheckpointer(session.NewMemoryCheckpointer()))
		}
		require.NoError(t, run(tc.store, opts...), tc.name)
		if want == nil {
			want = d.sorted()
		}
		assert.Equal(t, want, d.sorted(), tc.name)
	}
	return want
}

// A typed fan-out's states report their input (the item's copy of the
// state) and their update to the user's observer, with or without a
// session's history taking them too.
func TestStateDataTyped(t *testing.T) {
	lines := observers(t, func(session bool, opts ...flowcrt.Option) error {
		if session {
			return observed.MapSession("s", opts, "x", "y")
		}
		return observed.Map(opts[0], "x", "y")
	})
	assert.Equal(t, []string{
		`score in: {"tickets":[{"id":"x","priority":1},{"id":"y","priority":2}],"scores":null,"notes":null,"total":0,"last":""}`,
		`score in: {"tickets":[{"id":"x","priority":1},{"id":"y","priority":2}],"scores":null,"notes":null,"total":0,"last":""}`,
		`score out: {"total":1}`,
		`score out: {"total":2}`,
	}, lines)
}

// A States Language machine's states, inside its Map and Parallel and
// outside them, report their raw input once and their output.
func TestStateDataStatesLanguage(t *testing.T) {
	lines := observers(t, func(session bool, opts ...flowcrt.Option) error {
		w := aslfanout.NewFanout(squarer{}, append(opts, flowcrt.WithClock(flowcrt.NewFakeClock(time.Unix(0, 0))))...)
		in := map[string]any{"names": []any{"ann"}}
		var err error
		if session {
			_, err = w.Invoke(context.Background(), "s", in)
		} else {
			_, err = w.Run(context.Background(), in)
		}
		return err
	})
	assert.Equal(t, []string{
		`Compute in: {"value":1,"index":0}`,
		`Compute in: {"value":2,"index":1}`,
		`Compute in: {"value":3,"index":2}`,
		`Compute in: {"value":4,"index":3}`,
		`Compute out: {"square":16}`,
		`Compute out: {"square":1}`,
		`Compute out: {"square":4}`,
		`Compute out: {"square":9}`,
		`Hello in: "ann"`,
		`Hello out: "hello ann"`,
	}, slices.DeleteFunc(lines, func(l string) bool { return !strings.HasPrefix(l, "Compute") && !strings.HasPrefix(l, "Hello") }))
}
