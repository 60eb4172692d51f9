package impl

import (
	"errors"
	"fmt"
	"strings"
)

// Reserved error names. In matchers they may also be written with the
// States Language prefix ("States.ALL", "States.TaskFailed",
// "States.Timeout").
const (
	// ErrALL matches every error; task chains retry on it.
	ErrALL = "ALL"
	// ErrTaskFailed names an error that has no name of its own, and matches
	// every error except a timeout.
	ErrTaskFailed = "TaskFailed"
	// errTimeout names a state that ran longer than its timeout.
	errTimeout = "Timeout"
)

// ErrStateTimeout is wrapped by the error of a state attempt that ran out of
// time; ErrorName reports such errors as "Timeout".
var ErrStateTimeout = errors.New("state timed out")

// Error is an error with a name that retry and catch rules can match, such
// as the Error and Cause of a States Language Fail state.
type Error struct {
	Name  string
	Cause string
}

// NewError returns an *Error with the given name and cause.
func NewError(name, cause string) error {
	return &Error{Name: name, Cause: cause}
}

// Error returns "Name: Cause", or Name alone when there is no cause.
func (e *Error) Error() string {
	if e.Cause == "" {
		return e.Name
	}
	return e.Name + ": " + e.Cause
}

// ErrorName returns the name that retry and catch rules see for err: the
// Name of the *Error in its chain, "Timeout" for a timeout, otherwise
// "TaskFailed". It returns "" for a nil err.
func ErrorName(err error) string {
	if err == nil {
		return ""
	}
	if e, ok := errors.AsType[*Error](err); ok {
		return e.Name
	}
	if errors.Is(err, ErrStateTimeout) {
		return errTimeout
	}
	return ErrTaskFailed
}

// MatchError reports whether any of names matches err: "ALL" matches every
// error, "TaskFailed" every error but a timeout, "Timeout" a timeout, and any
// other name an error of exactly that name.
func MatchError(err error, names []string) bool {
	var bad *MockError
	if err == nil || errors.As(err, &bad) {
		return false // a broken mock is the test's fault: no rule may hide it
	}
	name := canonicalName(ErrorName(err))
	for _, n := range names {
		switch n = canonicalName(n); n {
		case ErrALL:
			return true
		case ErrTaskFailed:
			if name != errTimeout {
				return true
			}
		default:
			if n == name {
				return true
			}
		}
	}
	return false
}

// canonicalName drops the "States." prefix of the reserved names, so that
// flowc and States Language spellings mean the same.
func canonicalName(name string) string {
	rest, ok := strings.CutPrefix(name, "States.")
	if ok && (rest == ErrALL || rest == ErrTaskFailed || rest == errTimeout) {
		return rest
	}
	return name
}

// StateError is the final error of a state, after its retries.
type StateError struct {
	State string
	Err   error
}

func (e *StateError) Error() string {
	return fmt.Sprintf("state %q: %v", e.State, e.Err)
}

func (e *StateError) Unwrap() error { return e.Err }

// Recover turns a panic into a TaskFailed *Error stored in *err. It must be
// deferred directly, as in
//
//	defer flowcrt.Recover("classify", &err)
//
// because recover stops a panic only when called by the deferred function
// itself.
func Recover(state string, err *error) {
	if r := recover(); r != nil {
		*err = PanicError(state, r)
	}
}

// PanicError is the error a recovered panic in state becomes: a task failure
// that names the state.
func PanicError(state string, r any) error {
	return &Error{Name: ErrTaskFailed, Cause: fmt.Sprintf("panic in state %q: %v", state, r)}
}

// ErrInput marks an input that does not fit the workflow; it is a usage
// error (exit 2), not a failed run.
var ErrInput = errors.New("invalid input")

// MockError is a mocked response that does not fit its state, such as a
// Return naming a field the state does not have. No retry or catch rule
// matches it, so a typo in a mock config cannot pass for a handler failure.
type MockError struct {
	State string
	Err   error
}

func (e *MockError) Error() string {
	return fmt.Sprintf("the mock for state %q does not fit: %v", e.State, e.Err)
}

func (e *MockError) Unwrap() error { return e.Err }

// The error names of the States Language that the shared machinery gives
// too: a decision an approval does not offer is a States.Runtime error in
// every dialect, and a task token's deadlines (token_wait.go) are
// States.Timeout and States.HeartbeatTimeout. The States Language
// machinery (package asl) names the others.
const (
	StatesTimeout = "States.Timeout"
	StatesRuntime = "States.Runtime"
	// StatesHeartbeatTimeout is the error of a callback wait that no
	// heartbeat renewed within HeartbeatSeconds. Retriers and catchers of
	// States.Timeout match it too.
	StatesHeartbeatTimeout = "States.HeartbeatTimeout"
)
