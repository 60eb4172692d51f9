package flowrun

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// MockConfig is a mock configuration in the format of the MockConfigFile of
// AWS Step Functions Local:
//
//	{"StateMachines": {"<name>": {"TestCases": {"<case>": {"<state>": "<response>"}}}},
//	 "MockedResponses": {"<response>": {"0": {"Return": ...}, "1-2": {"Throw": {"Error": "E", "Cause": "c"}}}}}
type MockConfig struct {
	StateMachines   map[string]MockStateMachine `json:"StateMachines"`
	MockedResponses map[string]MockResponse     `json:"MockedResponses"`
}

// MockStateMachine holds the test cases of one state machine.
type MockStateMachine struct {
	// TestCases maps a test case name to its mocked states, each mapped to
	// the name of a response in MockedResponses.
	TestCases map[string]map[string]string `json:"TestCases"`
}

// MockResponse maps invocation numbers to entries. A key is "k" (the k-th
// invocation, 0-based) or "a-b" (invocations a to b).
type MockResponse map[string]MockEntry

// MockEntry is what one invocation of a mocked state does: return a value
// or throw an error.
type MockEntry struct {
	Return json.RawMessage `json:"Return,omitempty"`
	Throw  *MockThrow      `json:"Throw,omitempty"`
}

// MockThrow is the error thrown by a mocked state.
type MockThrow struct {
	Error string `json:"Error"`
	Cause string `json:"Cause,omitempty"`
}

// Err returns the error thrown by e, or nil when e returns a value.
func (e MockEntry) Err() error {
	if e.Throw == nil {
		return nil
	}
	return &impl.Error{Name: e.Throw.Error, Cause: e.Throw.Cause}
}

// ParseMockConfig decodes and validates a mock configuration. Unknown fields
// are rejected, so that a misspelt key is not silently ignored.
func ParseMockConfig(data []byte) (*MockConfig, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var c MockConfig
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("mock config: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("mock config: unexpected data after the top-level object")
	}
	if err := c.validate(); err != nil {
		return nil, err
	}
	return &c, nil
}

// validate reports every problem of c, in a stable order.
func (c *MockConfig) validate() error {
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(c.MockedResponses)) {
		if _, err := c.MockedResponses[name].spans(); err != nil {
			errs = append(errs, fmt.Errorf("mock config: response %q: %w", name, err))
		}
	}
	for _, machine := range slices.Sorted(maps.Keys(c.StateMachines)) {
		cases := c.StateMachines[machine].TestCases
		for _, tc := range slices.Sorted(maps.Keys(cases)) {
			for _, state := range slices.Sorted(maps.Keys(cases[tc])) {
				if resp := cases[tc][state]; c.MockedResponses[resp] == nil {
					errs = append(errs, fmt.Errorf("mock config: state machine %q, test case %q: state %q uses unknown response %q",
						machine, tc, state, resp))
				}
			}
		}
	}
	return errors.Join(errs...)
}

// Case returns the mocks of one test case. When c holds a single state
// machine, machine need not match its name.
func (c *MockConfig) Case(machine, testCase string) (*Mocks, error) {
	name, sm, err := c.machine(machine)
	if err != nil {
		return nil, err
	}
	states, ok := sm.TestCases[testCase]
	if !ok {
		return nil, fmt.Errorf("mock config: state machine %q has no test case %q (test cases: %s)",
			name, testCase, quotedKeys(sm.TestCases))
	}
	m := &Mocks{spans: make(map[string][]mockSpan, len(states)), calls: make(map[string]int)}
	for _, state := range slices.Sorted(maps.Keys(states)) {
		resp := states[state]
		r, ok := c.MockedResponses[resp]
		if !ok {
			return nil, fmt.Errorf("mock config: state %q uses unknown response %q", state, resp)
		}
		spans, err := r.spans()
		if err != nil {
			return nil, fmt.Errorf("mock config: response %q of state %q: %w", resp, state, err)
		}
		m.spans[state] = spans
	}
	return m, nil
}

// machine picks the state machine called name, or the only one.
func (c *MockConfig) machine(name string) (string, MockStateMachine, error) {
	if sm, ok := c.StateMachines[name]; ok {
		return name, sm, nil
	}
	if len(c.StateMachines) == 1 {
		for only, sm := range c.StateMachines {
			return only, sm, nil
		}
	}
	return "", MockStateMachine{}, fmt.Errorf("mock config: no state machine %q (state machines: %s)",
		name, quotedKeys(c.StateMachines))
}

// quotedKeys lists the keys of m for an error message, sorted.
func quotedKeys[V any](m map[string]V) string {
	if len(m) == 0 {
		return "none"
	}
	keys := slices.Sorted(maps.Keys(m))
	for i, k := range keys {
		keys[i] = strconv.Quote(k)
	}
	return strings.Join(keys, ", ")
}

// mockSpan is the entry for invocations first to last of a state.
type mockSpan struct {
	key         string
	first, last int
	entry       MockEntry
}

// spans checks r and returns its entries in invocation order. They must
// cover every invocation from 0 to the last key without overlap, so that
// each invocation has exactly one entry.
func (r MockResponse) spans() ([]mockSpan, error) {
	if len(r) == 0 {
		return nil, errors.New("has no entries")
	}
	spans := make([]mockSpan, 0, len(r))
	for _, key := range slices.Sorted(maps.Keys(r)) {
		first, last, err := parseMockKey(key)
		if err == nil {
			err = r[key].check()
		}
		if err != nil {
			return nil, fmt.Errorf("key %q: %w", key, err)
		}
		spans = append(spans, mockSpan{key: key, first: first, last: last, entry: r[key]})
	}
	slices.SortFunc(spans, func(a, b mockSpan) int { return cmp.Compare(a.first, b.first) })
	next := 0
	for i, s := range spans {
		switch {
		case s.first < next:
			return nil, fmt.Errorf("keys %q and %q overlap", spans[i-1].key, s.key)
		case s.first > next:
			return nil, fmt.Errorf("no entry covers invocation %d", next)
		}
		next = s.last + 1
	}
	return spans, nil
}

// parseMockKey parses "k" or "a-b" (a <= b) into an inclusive range.
func parseMockKey(key string) (first, last int, err error) {
	a, b, isRange := strings.Cut(key, "-")
	if !isRange {
		b = a
	}
	first, errA := parseInvocation(a)
	last, errB := parseInvocation(b)
	switch {
	case errA != nil || errB != nil:
		return 0, 0, errors.New(`want "k" or "a-b", with 0-based invocation numbers`)
	case last < first:
		return 0, 0, errors.New("range starts after it ends")
	}
	return first, last, nil
}

// parseInvocation accepts only plain decimal digits, unlike strconv.Atoi,
// which would also take a sign.
func parseInvocation(s string) (int, error) {
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return 0, strconv.ErrSyntax
	}
	return strconv.Atoi(s)
}

// check reports whether e does exactly one thing.
func (e MockEntry) check() error {
	switch {
	case (e.Return == nil) == (e.Throw == nil):
		return errors.New(`needs exactly one of "Return" and "Throw"`)
	case e.Throw != nil && e.Throw.Error == "":
		return errors.New(`"Throw" needs an "Error"`)
	}
	return nil
}

// Mocks answers the invocations of the mocked states of one test case. It is
// safe for concurrent use.
type Mocks struct {
	// Log receives notes, such as a state running without a mock; nil
	// discards them.
	Log io.Writer

	mu    sync.Mutex
	spans map[string][]mockSpan // by state id
	calls map[string]int        // invocations so far, by state id
}

// Next returns the entry for the next invocation of state: the k-th
// invocation (0-based) uses the entry whose key covers k, and past the last
// entry the last one repeats. It returns false when state has no mock.
func (m *Mocks) Next(state string) (MockEntry, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	spans, ok := m.spans[state]
	if !ok {
		return MockEntry{}, false
	}
	k := m.calls[state]
	m.calls[state] = k + 1
	for _, s := range spans {
		if k <= s.last {
			return s.entry, true
		}
	}
	return spans[len(spans)-1].entry, true
}

// Respond plays the mock of the state named by impl.StateFromContext(ctx) for a
// typed handler. A thrown error is returned as an *impl.Error. A returned JSON
// object is the update, decoded by into; null stands for an empty update.
// When label is not nil, the object's labelKey member ("Action" or "Eval"),
// a string, is removed and stored in *label. Without a mock for the state,
// Respond notes that on m.Log and leaves into and label alone.
func (m *Mocks) Respond(ctx context.Context, into json.Unmarshaler, label *string, labelKey string) error {
	state := impl.StateFromContext(ctx)
	e, ok := m.Next(state)
	if !ok {
		m.note("flowc: state %q has no mock; it returns its input unchanged\n", state)
		return nil
	}
	if e.Throw != nil {
		return e.Err()
	}
	update, err := splitLabel(e.Return, label, labelKey)
	if err == nil {
		err = into.UnmarshalJSON(update)
	}
	if err != nil {
		return &impl.MockError{State: state, Err: err}
	}
	return nil
}

// note writes to m.Log, serialised because Log need not be safe for
// concurrent use.
func (m *Mocks) note(format string, args ...any) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.Log != nil {
		fmt.Fprintf(m.Log, format, args...)
	}
}

// splitLabel checks that ret is a JSON object or null and returns the
// update it holds, after moving its key member, if any, into *label.
func splitLabel(ret json.RawMessage, label *string, key string) ([]byte, error) {
	ret = bytes.TrimSpace(ret)
	if string(ret) == "null" {
		return []byte("{}"), nil
	}
	if len(ret) == 0 || ret[0] != '{' {
		return nil, fmt.Errorf("must return a JSON object, got %s", ret)
	}
	if label == nil {
		return ret, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(ret, &obj); err != nil {
		return nil, fmt.Errorf("returns invalid JSON: %w", err)
	}
	raw, ok := obj[key]
	if !ok {
		return ret, nil
	}
	// Unmarshal leaves a string alone on null, hence the check of the
	// first byte.
	var s string
	if raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return nil, fmt.Errorf("must return %q as a JSON string, got %s", key, raw)
	}
	*label = s
	delete(obj, key)
	return json.Marshal(obj)
}
