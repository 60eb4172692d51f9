package impl

import (
	"errors"
	"flag"
)

// SessionFlags run a workflow as a session with its checkpoints in a
// SQLite file: the flags of `flowc run` and of the programs `flowc build`
// writes, which take them alike.
type SessionFlags struct {
	DB       string
	ID       string
	Decision string
	At       string
	Redrive  bool           // go on from the state the session's last run failed at (WithRedrive)
	Task     TaskTokenFlags // --task-success and friends: answer a task token the session waits for
}

// Register adds the flags to fs.
func (f *SessionFlags) Register(fs *flag.FlagSet) {
	fs.StringVar(&f.DB, "checkpoint-db", "", "run as a session, with its checkpoints in this SQLite `file`")
	fs.StringVar(&f.ID, "session", "", "the session `id` (with --checkpoint-db)")
	fs.StringVar(&f.Decision, "decision", "", "answer the approval the session waits for with this `option`")
	fs.StringVar(&f.At, "at", "", "with --decision: answer the stop this `key` names (e.g. Map/3/Approve), when several wait")
	fs.BoolVar(&f.Redrive, "redrive", false, "go on from the state the session's last run failed at, keeping what succeeded before it")
	f.Task.Register(fs)
}

// Check reports a combination of the flags and --input that makes no
// sense; onServer says that an engine's server keeps the sessions
// (`flowc run --engine temporal`), so that a session needs no checkpoint
// file.
func (f *SessionFlags) Check(input string, onServer bool) error {
	switch {
	case onServer && f.DB != "":
		return errors.New("on Temporal the server keeps the session: give --session without --checkpoint-db")
	case !onServer && (f.DB == "") != (f.ID == ""):
		return errors.New("--checkpoint-db and --session go together")
	case f.Decision != "" && f.ID == "" && onServer:
		return errors.New("--decision answers the approval a session waits for: it needs --session")
	case f.Decision != "" && f.ID == "":
		return errors.New("--decision answers the approval a session waits for: it needs --checkpoint-db and --session")
	case f.At != "" && f.Decision == "":
		return errors.New("--at names the stop a --decision answers")
	case f.Decision != "" && input != "":
		return errors.New("--decision continues the session as it is; give new --input in a run of its own")
	}
	if err := f.checkRedrive(input, onServer); err != nil {
		return err
	}
	return f.Task.Check(f.ID != "", input != "", f.Decision != "")
}

// checkRedrive refuses --redrive where there is no failed session of a
// checkpoint file to go on with as it is.
func (f *SessionFlags) checkRedrive(input string, onServer bool) error {
	switch {
	case !f.Redrive:
		return nil
	case onServer:
		return errors.New("--redrive goes on from a failed checkpoint: it needs --checkpoint-db, which a session on Temporal has not")
	case f.ID == "":
		return errors.New("--redrive goes on with a failed session: it needs --checkpoint-db and --session")
	case input != "":
		return errors.New("--redrive goes on with the input the session failed on; give new --input in a run of its own")
	case f.Decision != "" || f.Task.Success != "" || f.Task.Failure != "" || f.Task.Heartbeat != "":
		return errors.New("--redrive goes on with a failed session, which waits for no decision or task token")
	}
	return nil
}
