package asl

import (
	"context"
	"errors"
	"fmt"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// The error names of the States Language.
const (
	statesALL                    = "States.ALL"
	statesTaskFailed             = "States.TaskFailed"
	statesResultPathMatchFailure = "States.ResultPathMatchFailure"
	statesNoChoiceMatched        = "States.NoChoiceMatched"
)

// runtimeErrorf is a States.Runtime error: the input does not fit the
// definition. Like in Step Functions, no retrier or catcher matches it.
func runtimeErrorf(format string, args ...any) error {
	return &impl.Error{Name: impl.StatesRuntime, Cause: fmt.Sprintf(format, args...)}
}

// aslError gives every error a States Language name: an *Error keeps its
// own, a timeout is States.Timeout, anything else from a handler is
// States.TaskFailed with the error's text as the cause. A broken mock and
// the end of the run pass through unchanged.
func aslError(err error) error {
	var named *impl.Error
	var bad *impl.MockError
	switch {
	case err == nil, errors.As(err, &named), errors.As(err, &bad),
		errors.Is(err, context.Canceled):
		return err
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, impl.ErrStateTimeout):
		return &impl.Error{Name: impl.StatesTimeout, Cause: err.Error()}
	}
	return &impl.Error{Name: statesTaskFailed, Cause: err.Error()}
}

// matchASL reports whether a retrier's or catcher's ErrorEquals matches
// err: by name, States.ALL for every error, States.TaskFailed for every
// error of a Task state but a timeout. States.Runtime is never matched, nor
// is a broken mock or a cancelled run.
func matchASL(err error, names []string, task bool) bool {
	var named *impl.Error
	if !errors.As(err, &named) || named.Name == impl.StatesRuntime {
		return false
	}
	for _, n := range names {
		switch {
		case n == named.Name, n == statesALL, n == impl.StatesTimeout && named.Name == impl.StatesHeartbeatTimeout:
			return true
		case n == statesTaskFailed && task && named.Name != impl.StatesTimeout && named.Name != impl.StatesHeartbeatTimeout:
			return true
		}
	}
	return false
}

// errorOutput is what a catcher passes on: {"Error": name, "Cause": cause}.
func errorOutput(err error) *Object {
	name, cause := impl.StatesRuntime, err.Error()
	var named *impl.Error
	if errors.As(err, &named) {
		name, cause = named.Name, named.Cause
	}
	return Obj("Error", name, "Cause", cause)
}
