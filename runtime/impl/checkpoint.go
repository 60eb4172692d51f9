package impl

import "github.com/flowc-dev/flowc/session"

// The checkpoints of sessions live in package session; these names stay
// for generated code and the users of flowcrt.
type (
	Checkpointer       = session.Checkpointer
	Status             = session.Status
	Checkpoint         = session.Checkpoint
	Position           = session.Position
	ChildPosition      = session.ChildPosition
	FanOutProgress     = session.FanOutProgress
	Pending            = session.Pending
	BranchStop         = session.BranchStop
	DurableTimer       = session.DurableTimer
	CallbackWait       = session.CallbackWait
	CallbackAnswer     = session.CallbackAnswer
	Failure            = session.Failure
	MemoryCheckpointer = session.MemoryCheckpointer
	SessionError       = session.SessionError
	spentToken         = session.SpentToken
)

// ErrNoCheckpoint is wrapped by Checkpointer.Load for a session that has no
// checkpoint.
var ErrNoCheckpoint = session.ErrNoCheckpoint

const (
	StatusRunning     = session.StatusRunning
	StatusSucceeded   = session.StatusSucceeded
	StatusFinished    = session.StatusSucceeded // StatusSucceeded's former name
	StatusInterrupted = session.StatusInterrupted
	StatusWaiting     = session.StatusWaiting
	StatusFailed      = session.StatusFailed
	StatusStopped     = session.StatusStopped
)

// NewMemoryCheckpointer returns an empty MemoryCheckpointer.
func NewMemoryCheckpointer() *MemoryCheckpointer { return session.NewMemoryCheckpointer() }

// WithCheckpointer makes Invoke, Resume and Decide save and load the
// checkpoints of sessions through cp.
func WithCheckpointer(cp Checkpointer) Option {
	return func(cfg *Config) { cfg.Checkpointer = cp }
}
