package impl_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/runtime/impl"
)

func TestErrorMessage(t *testing.T) {
	assert.EqualError(t, impl.NewError("Quota", "too many calls"), "Quota: too many calls")
	assert.EqualError(t, impl.NewError("Quota", ""), "Quota")
}

var timeoutErr = fmt.Errorf("%w after 1s", impl.ErrStateTimeout)

func TestErrorName(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"nil", nil, ""},
		{"named", impl.NewError("Quota", "c"), "Quota"},
		{"wrapped named", &impl.StateError{State: "s", Err: impl.NewError("Quota", "")}, "Quota"},
		{"timeout", timeoutErr, "Timeout"},
		{"wrapped timeout", &impl.StateError{State: "s", Err: timeoutErr}, "Timeout"},
		{"plain", errors.New("boom"), "TaskFailed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, impl.ErrorName(tt.err))
		})
	}
}

func TestMatchError(t *testing.T) {
	plain := errors.New("boom")
	quota := impl.NewError("Quota", "")
	aslTimeout := impl.NewError("States.Timeout", "")
	tests := []struct {
		name  string
		err   error
		names []string
		want  bool
	}{
		{"nil error", nil, []string{"ALL"}, false},
		{"no names", plain, nil, false},
		{"ALL plain", plain, []string{"ALL"}, true},
		{"ALL timeout", timeoutErr, []string{"ALL"}, true},
		{"States.ALL", quota, []string{"States.ALL"}, true},
		{"TaskFailed plain", plain, []string{"TaskFailed"}, true},
		{"TaskFailed named", quota, []string{"TaskFailed"}, true},
		{"TaskFailed timeout", timeoutErr, []string{"TaskFailed"}, false},
		{"States.TaskFailed timeout", timeoutErr, []string{"States.TaskFailed"}, false},
		{"TaskFailed named States.Timeout", aslTimeout, []string{"TaskFailed"}, false},
		{"Timeout timeout", timeoutErr, []string{"Timeout"}, true},
		{"States.Timeout timeout", timeoutErr, []string{"States.Timeout"}, true},
		{"Timeout named States.Timeout", aslTimeout, []string{"Timeout"}, true},
		{"Timeout plain", plain, []string{"Timeout"}, false},
		{"exact name", quota, []string{"Other", "Quota"}, true},
		{"other name", quota, []string{"Other"}, false},
		{"name is case sensitive", quota, []string{"quota"}, false},
		{"prefix only for reserved names", quota, []string{"States.Quota"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, impl.MatchError(tt.err, tt.names))
		})
	}
}

func TestStateError(t *testing.T) {
	inner := impl.NewError("Quota", "too many")
	err := &impl.StateError{State: "classify", Err: inner}
	assert.EqualError(t, err, `state "classify": Quota: too many`)
	assert.ErrorIs(t, err, inner)
}

func TestRecover(t *testing.T) {
	tests := []struct {
		name string
		fn   func() error
		want error
	}{
		{"no panic keeps the error", func() error { return errors.New("boom") }, errors.New("boom")},
		{"no panic, no error", func() error { return nil }, nil},
		{"panic value", func() error { panic("oops") }, &impl.Error{
			Name: "TaskFailed", Cause: `panic in state "classify": oops`}},
		{"panic error", func() error { panic(errors.New("bad")) }, &impl.Error{
			Name: "TaskFailed", Cause: `panic in state "classify": bad`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := func() (err error) {
				defer impl.Recover("classify", &err)
				return tt.fn()
			}()
			assert.Equal(t, tt.want, err)
		})
	}
}

func TestRecoverPanicNil(t *testing.T) {
	err := func() (err error) {
		defer impl.Recover("s", &err)
		panic(nil)
	}()
	require.Error(t, err)
	assert.Equal(t, "TaskFailed", impl.ErrorName(err))
}
