package impl

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"

	"github.com/flowc-dev/flowc/session"
)

// TaskTokenFlags send a success, a failure or a heartbeat for a task token
// of a session from the command line: the flags of `flowc run`, of the
// programs it builds and of those `flowc build` writes. The answer is
// saved in the session's checkpoint (Record), and the session then goes
// on as it is, which completes the waiting state with it.
type TaskTokenFlags struct {
	Success, Failure, Heartbeat string // the token, in the one flag given
	Output                      string // with Success: the task's result, JSON
	Error, Cause                string // with Failure
}

// Register adds the flags to fs.
func (f *TaskTokenFlags) Register(fs *flag.FlagSet) {
	fs.StringVar(&f.Success, "task-success", "", "send a success for this task `token` of the session (with --task-output) and go on")
	fs.StringVar(&f.Failure, "task-failure", "", "send a failure for this task `token` of the session (with --task-error, --task-cause) and go on")
	fs.StringVar(&f.Heartbeat, "task-heartbeat", "", "send a heartbeat for this task `token` of the session")
	fs.StringVar(&f.Output, "task-output", "", "with --task-success: the task's result, a `JSON` value (default {})")
	fs.StringVar(&f.Error, "task-error", "", "with --task-failure: the error `name`")
	fs.StringVar(&f.Cause, "task-cause", "", "with --task-failure: the error's `cause`")
}

// Check reports a combination of the flags, and of whether the run has a
// session, new input or a decision, that makes no sense.
func (f *TaskTokenFlags) Check(session, input, decision bool) error {
	n := 0
	for _, t := range []string{f.Success, f.Failure, f.Heartbeat} {
		if t != "" {
			n++
		}
	}
	switch {
	case n > 1:
		return errors.New("send one of --task-success, --task-failure and --task-heartbeat at a time")
	case f.Output != "" && f.Success == "":
		return errors.New("--task-output goes with --task-success")
	case (f.Error != "" || f.Cause != "") && f.Failure == "":
		return errors.New("--task-error and --task-cause go with --task-failure")
	case f.Output != "" && !json.Valid([]byte(f.Output)):
		return fmt.Errorf("--task-output is not JSON: %s", abbreviate(f.Output))
	case n == 0:
		return nil
	case !session:
		return errors.New("a task token is answered in its session: give --checkpoint-db and --session")
	case input:
		return errors.New("a task token's answer continues the session as it is; give new --input in a run of its own")
	case decision:
		return errors.New("answer a task token or an approval, not both at once")
	}
	return nil
}

// Args are the flags again, for the program `flowc run` builds.
func (f *TaskTokenFlags) Args() []string {
	var args []string
	for _, a := range []struct{ name, value string }{
		{"-task-success", f.Success}, {"-task-failure", f.Failure}, {"-task-heartbeat", f.Heartbeat},
		{"-task-output", f.Output}, {"-task-error", f.Error}, {"-task-cause", f.Cause},
	} {
		if a.value != "" {
			args = append(args, a.name, a.value)
		}
	}
	return args
}

// Record saves the answer or heartbeat the flags send in the checkpoint
// of session, through cp, refusing a token the session does not wait for
// as SendTaskSuccess does. Without any of the flags it does nothing.
func (f *TaskTokenFlags) Record(ctx context.Context, cp Checkpointer, id string, opts ...Option) error {
	token, answer := f.Heartbeat, (*CallbackAnswer)(nil)
	switch {
	case f.Success != "":
		output := f.Output
		if output == "" {
			output = "{}"
		}
		token, answer = f.Success, &CallbackAnswer{Output: json.RawMessage(output)}
	case f.Failure != "":
		token, answer = f.Failure, &CallbackAnswer{Failed: true, Error: f.Error, Cause: f.Cause}
	case token == "":
		return nil
	}
	claims, err := parseTaskToken(token)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInput, err)
	}
	if claims.Session != id {
		return tokenRefused(claims, fmt.Errorf("%w: it belongs to session %q, not %q", ErrTaskTokenUnknown, claims.Session, id))
	}
	saved, err := cp.Load(ctx, id)
	if errors.Is(err, ErrNoCheckpoint) {
		saved, err = nil, nil
	}
	if err != nil {
		return err
	}
	if saved != nil && saved.Status == StatusStopped {
		return SessionErr(id, session.ErrStopped)
	}
	cfg := NewConfig(opts...)
	w, err := checkOutstanding(saved, claims, token, cfg.RunClock())
	if err != nil {
		return err
	}
	fields := map[string]any{"outcome": "heartbeat"}
	if answer != nil {
		w.Answer, fields = answer, answerFields(answer)
	} else if w.Heartbeat > 0 {
		w.Beat = cfg.RunClock().Now().UTC().Add(w.Heartbeat)
	}
	saved.Step++
	saved.Time = cfg.RunClock().Now().UTC()
	saved.Events = []session.Event{answerEvent(ctx, saved.Time, &saved.Position, w, fields)}
	return cp.Save(ctx, saved)
}
