package jsonmode

import (
	"context"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// interrupt_before: before a state with it runs, a person confirms that
// the run goes on, through the approval machinery (Approver). The request
// names the state and offers "continue" and "cancel"; "cancel" stops the
// run with an error named ErrCancelled. Handlers that are no Approver, or
// answer ErrNoDecision, stop the run with an *Interrupted error, whose
// result line is INTERRUPTED; a session saves its checkpoint there, and
// Decide continues it.

// Interruption options.
const (
	OptionContinue = "continue"
	OptionCancel   = "cancel"
)

// ErrCancelled names the error of a run a person cancelled at an
// interrupt_before state.
const ErrCancelled = "Cancelled"

func (s *JSONState) confirm(ctx context.Context, t *JSONTask, handlers any) error {
	if !t.InterruptBefore {
		return nil
	}
	req := &impl.ApprovalRequest{
		State:   t.State,
		Prompt:  "continue with state " + t.State + "?",
		Options: []string{OptionContinue, OptionCancel},
	}
	d, err := impl.Approve(ctx, s.session, handlers, req, s.Input)
	switch {
	case err != nil:
		return err
	case d == OptionCancel:
		return &impl.Error{Name: ErrCancelled, Cause: "cancelled before state " + t.State}
	}
	return nil
}
