package flowtemporal

import (
	"errors"
	"fmt"
	"testing"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
)

// An error that crosses Temporal keeps what retry and catch rules and the
// result line read of it: its name, cause, message and kind.
func TestFailureRoundTrip(t *testing.T) {
	for _, err := range []error{
		&flowcrt.StateError{State: "fetch", Err: &flowcrt.Error{Name: "Flaky", Cause: "busy"}},
		&flowcrt.StateError{State: "fetch", Err: errors.New("plain failure")},
		&flowcrt.StateError{State: "slow", Err: fmt.Errorf("%w after 1s", flowcrt.ErrStateTimeout)},
		flowcimpl.PanicError("boom", "nil map"),
	} {
		got := decode(encode(err))
		if got.Error() != err.Error() || flowcrt.ErrorName(got) != flowcrt.ErrorName(err) || string(flowcrt.ResultLine(nil, got)) != string(flowcrt.ResultLine(nil, err)) {
			t.Errorf("%v came back as %v (name %q, want %q)", err, got, flowcrt.ErrorName(got), flowcrt.ErrorName(err))
		}
	}
	mock := &flowcimpl.MockError{State: "fetch", Err: errors.New("unknown field")}
	if got, ok := errors.AsType[*flowcimpl.MockError](decode(encode(mock))); !ok || got.Error() != mock.Error() {
		t.Errorf("a mock error came back as %v", got)
	}
	if !errors.Is(decode(encode(flowcrt.ErrNoDecision)), flowcrt.ErrNoDecision) {
		t.Error("no decision is not told apart")
	}
}
