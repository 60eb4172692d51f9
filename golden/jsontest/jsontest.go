// Package jsontest holds what the behaviour tests of the JSON-mode golden
// cases share: loading a case's mocks.json, and recording the calls the
// handlers get, so that a test can say which task text, item and context
// each state saw.
package jsontest

import (
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	flowcrun "github.com/flowc-dev/flowc/flowrun"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// Mocks returns the mocks of one test case of the mocks.json beside the
// test.
func Mocks(t testing.TB, machine, testCase string) *flowcrun.Mocks {
	t.Helper()
	data, err := os.ReadFile("mocks.json")
	require.NoError(t, err)
	cfg, err := flowcrun.ParseMockConfig(data)
	require.NoError(t, err)
	m, err := cfg.Case(machine, testCase)
	require.NoError(t, err)
	return m
}

// Calls records handler calls; it is safe for concurrent use.
type Calls struct {
	mu    sync.Mutex
	calls []flowcrt.JSONCall
}

// Add records a call.
func (c *Calls) Add(call flowcrt.JSONCall) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls = append(c.calls, call)
}

// Of returns the calls of a state, in the order they were made.
func (c *Calls) Of(state string) []flowcrt.JSONCall {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []flowcrt.JSONCall
	for _, call := range c.calls {
		if call.State == state {
			out = append(out, call)
		}
	}
	return out
}

// Tasks returns the rendered tasks of a state's calls, in call order.
func (c *Calls) Tasks(state string) []string {
	var out []string
	for _, call := range c.Of(state) {
		out = append(out, call.Task)
	}
	return out
}

// States returns the states called, in call order.
func (c *Calls) States() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]string, len(c.calls))
	for i, call := range c.calls {
		out[i] = call.State
	}
	return out
}

// Contents returns the contents of a history's messages, in order.
func Contents(h flowcrt.Messages) []string {
	out := make([]string, len(h))
	for i, m := range h {
		out[i] = m.Content
	}
	return out
}

// Unsummarized is the Summarize of hand-written handlers whose runs keep
// the history under CodeMie's summarization limits (25 messages, 50,000
// tokens unless the workflow sets others): a call fails the run, for the
// test did not expect the history to grow that long.
func Unsummarized(history flowcrt.Messages) (flowcrt.Messages, error) {
	return nil, fmt.Errorf("the history of %d messages crossed the summarization limits, which this test does not expect", len(history))
}
