package flowtemporal

import (
	"context"
	"errors"

	"go.temporal.io/sdk/temporal"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
)

// failureType is the type of the application errors that carry a failure.
const failureType = "flowc"

// failure is an error as it crosses Temporal, from an activity to the
// workflow and from the workflow to its caller: what retry and catch
// rules and the result line need of it.
type failure struct {
	Message string `json:"message"`
	Named   bool   `json:"named,omitempty"` // a *flowcrt.Error is in the chain
	Name    string `json:"name,omitempty"`
	Cause   string `json:"cause,omitempty"`
	Timeout bool   `json:"timeout,omitempty"` // wraps flowcrt.ErrStateTimeout
	// MockState is set for a *flowcimpl.MockError; Message is then its
	// inner error's.
	MockState  string `json:"mock_state,omitempty"`
	NoDecision bool   `json:"no_decision,omitempty"`
}

// encode turns err into an application error, which Temporal retries only
// under a RetryPolicy that does not name failureType (Execute).
func encode(err error) error {
	if err == nil {
		return nil
	}
	f := failure{Message: err.Error(), Timeout: errors.Is(err, flowcrt.ErrStateTimeout), NoDecision: errors.Is(err, flowcrt.ErrNoDecision)}
	if e, ok := errors.AsType[*flowcrt.Error](err); ok {
		f.Named, f.Name, f.Cause = true, e.Name, e.Cause
	}
	if m, ok := errors.AsType[*flowcimpl.MockError](err); ok {
		f.MockState, f.Message = m.State, m.Err.Error()
	}
	// A broken mock is the test's fault: no retry may hide it.
	return temporal.NewApplicationErrorWithOptions(f.Message, failureType, temporal.ApplicationErrorOptions{
		NonRetryable: f.MockState != "", Details: []any{f},
	})
}

// StepsError returns the error the steps of a workflow returned, with its
// name and cause, from the error a client or the test environment reports
// for the run.
func StepsError(err error) error { return decode(err) }

// decode returns the error that encode was given, as far as flowc can
// tell: the same message, name, cause and kind. Errors that did not come
// through encode (Temporal's own) keep their message.
func decode(err error) error {
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || app.Type() != failureType {
		var canceled *temporal.CanceledError
		if errors.As(err, &canceled) {
			return context.Canceled
		}
		return err
	}
	var f failure
	if app.Details(&f) != nil {
		return err
	}
	return f.err()
}

func (f failure) err() error {
	switch {
	case f.MockState != "":
		return &flowcimpl.MockError{State: f.MockState, Err: errors.New(f.Message)}
	case f.NoDecision:
		return flowcrt.ErrNoDecision
	}
	r := &remote{msg: f.Message, timeout: f.Timeout}
	if f.Named {
		r.named = &flowcrt.Error{Name: f.Name, Cause: f.Cause}
	}
	return r
}

// remote is an error decoded from a failure.
type remote struct {
	msg     string
	timeout bool
	named   *flowcrt.Error
}

func (r *remote) Error() string { return r.msg }

func (r *remote) Is(target error) bool { return r.timeout && target == flowcrt.ErrStateTimeout }

func (r *remote) Unwrap() error {
	if r.named == nil {
		return nil // a nil *flowcrt.Error would be found by errors.As
	}
	return r.named
}
