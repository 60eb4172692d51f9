package runtime

import (
	"context"
	"time"

	"github.com/flowc-dev/flowc/runtime/impl"
	"github.com/flowc-dev/flowc/runtime/impl/asl"
	"github.com/flowc-dev/flowc/runtime/impl/asl/agent"
	"github.com/flowc-dev/flowc/runtime/impl/chain"
	"github.com/flowc-dev/flowc/runtime/impl/jsonmode"
)

// Agent is an agent of an agent task or a debate, with the agent fields of
// its Task state as JSON values (nil when not set).
type Agent = agent.Agent

// ApprovalRequest is what an approval handler is asked.
type ApprovalRequest = impl.ApprovalRequest

// Approver is implemented by handlers that answer approval states, in
// every dialect. Handlers without it leave every decision to a person: the
// run saves its checkpoint and stops with an *Interrupted error, and the
// workflow's Decide continues it with the chosen option.
type Approver = impl.Approver

// ChainCall is what a task-chain handler receives. The handler owns it:
// Input and Vars are copies, so changing them cannot change the chain.
type ChainCall = chain.ChainCall

// ChainPrint is a task's rendered `print`, emitted when the task succeeds.
type ChainPrint = chain.ChainPrint

// ChainResult is what a task-chain handler returns.
type ChainResult = chain.ChainResult

// ChainState is where a chain run stands: the output of the last task that
// succeeded (at the start, the chain's input) and the chain variables. As
// JSON it is {"output": ..., "vars": {...}}, the output `flowc run` prints.
type ChainState = chain.ChainState

// ChatHistory converts a chain value to Messages, for handlers that read a
// chat history variable. It returns false when v is not a chat history.
func ChatHistory(v any) (Messages, bool) { return chain.ChatHistory(v) }

// Checkpoint is a session's run as saved after a state.
type Checkpoint = impl.Checkpoint

// Checkpointer stores the last checkpoint of each session. Implementations
// must be safe for concurrent use, and Save must be atomic: Load returns
// the checkpoint before a Save or the one after it, never a mix. The
// embedded default is the SQLite store of package
// github.com/flowc-dev/flowc/checkpoint/sqlite; MemoryCheckpointer keeps
// checkpoints for the life of the process.
type Checkpointer = impl.Checkpointer

// ChildResult is how one child run of a distributed Map ended.
type ChildResult = asl.ChildResult

// Clock is the time source of a workflow.
type Clock = impl.Clock

// ConditionCall is the call of a condition_key task: the model says
// whether the input meets one of Conditions.
type ConditionCall = chain.ConditionCall

// DecodeASLInput decodes the input of a `flowc run`: any JSON value.
func DecodeASLInput(data []byte) (any, error) { return asl.DecodeASLInput(data) }

// ErrCancelled names the error of a run a person cancelled at an
// interrupt_before state.
const ErrCancelled = jsonmode.ErrCancelled

// ErrNoCheckpoint is wrapped by Checkpointer.Load for a session that has no
// checkpoint.
var ErrNoCheckpoint = impl.ErrNoCheckpoint

// ErrNotRedrivable is wrapped by the *SessionError of a redrive
// (WithRedrive) of a session whose last run did not fail. Nothing ran.
var ErrNotRedrivable = impl.ErrNotRedrivable

// ErrNoDecision is what an Approver returns when it cannot decide now, for
// instance after posting the question somewhere: the run is interrupted
// as if there were no approver.
var ErrNoDecision = impl.ErrNoDecision

// ErrOutputSchema names the error of an output that does not match its
// state's output_schema. Retry rules may match it, as CodeMie asks the
// model again.
const ErrOutputSchema = jsonmode.ErrOutputSchema

// ErrRaised is the name of the error of a raise_error task.
const ErrRaised = chain.ErrRaised

// ErrRecursionLimit names the error of a run that reached its
// recursion_limit.
const ErrRecursionLimit = jsonmode.ErrRecursionLimit

// ErrStateTimeout is wrapped by the error of a state attempt that ran out of
// time; ErrorName reports such errors as "Timeout".
var ErrStateTimeout = impl.ErrStateTimeout

// The refusals of a task token sent back with a workflow's
// SendTaskSuccess, SendTaskFailure or SendTaskHeartbeat: not a token
// flowc issued, one no run waits for, one answered already (or whose
// state has ended), one past its TimeoutSeconds or HeartbeatSeconds.
var (
	ErrTaskTokenInvalid  = impl.ErrTaskTokenInvalid
	ErrTaskTokenUnknown  = impl.ErrTaskTokenUnknown
	ErrTaskTokenUsed     = impl.ErrTaskTokenUsed
	ErrTaskTokenTimedOut = impl.ErrTaskTokenTimedOut
)

// Error is an error with a name that retry and catch rules can match, such
// as the Error and Cause of a States Language Fail state.
type Error = impl.Error

// ErrorName returns the name that retry and catch rules see for err: the
// Name of the *Error in its chain, "Timeout" for a timeout, otherwise
// "TaskFailed". It returns "" for a nil err.
func ErrorName(err error) string { return impl.ErrorName(err) }

// FakeClock is a Clock for tests: its Sleep returns at once after moving
// the clock forward, and it remembers every sleep. It is safe for concurrent
// use.
type FakeClock = impl.FakeClock

// Interrupted is the error a run stops with when an approval state waits
// for a person. It is not a failure: with a session, the checkpoint holds
// the run waiting at State, and the workflow's Decide continues it. Test
// for it with errors.As.
type Interrupted = impl.Interrupted

// IsInterrupted reports whether err is, or wraps, an *Interrupted.
func IsInterrupted(err error) bool { return impl.IsInterrupted(err) }

// JSONCall is what a JSON-mode handler receives. The handler owns it:
// Input, Context, ToolArgs, Args and History are copies. Assistant, Tool,
// CustomNode and OutputSchema are the workflow's own configuration, shared
// by every call: read them, do not change them.
type JSONCall = jsonmode.JSONCall

// JSONState is where a JSON-mode run stands.
type JSONState = jsonmode.JSONState

// LLMCall is the call of a chat_completion, prompt_to_string or
// prompt_to_int task: what the model is asked, and with which settings.
type LLMCall = chain.LLMCall

// MatchError reports whether any of names matches err: "ALL" matches every
// error, "TaskFailed" every error but a timeout, "Timeout" a timeout, and any
// other name an error of exactly that name.
func MatchError(err error, names []string) bool { return impl.MatchError(err, names) }

// MemoryCheckpointer is a Checkpointer that keeps checkpoints in memory,
// for tests and for sessions that need not outlive the process. The zero
// value is ready to use.
type MemoryCheckpointer = impl.MemoryCheckpointer

// MemoryStore keeps what the Memory blocks of agent tasks and Pass states
// write, for the reads of later states and, when the store outlives a run
// (WithMemory), of later runs.
type MemoryStore = impl.MemoryStore

// Message is one message of a chat history.
type Message = impl.Message

// Messages is a chat history, oldest first. Its reducer is AppendSlice.
type Messages = impl.Messages

// NewError returns an *Error with the given name and cause.
func NewError(name string, cause string) error { return impl.NewError(name, cause) }

// NewFakeClock returns a FakeClock whose time starts at start.
func NewFakeClock(start time.Time) *FakeClock { return impl.NewFakeClock(start) }

// NewJSONState starts a run on input, any value that encodes as JSON. The
// keys of an object are the initial context store; the input, whatever it
// is, is the task input.
func NewJSONState(input any) (JSONState, error) { return jsonmode.NewJSONState(input) }

// NewMemory returns an in-process MemoryStore, safe for concurrent use.
func NewMemory() MemoryStore { return impl.NewMemory() }

// NewMemoryCheckpointer returns an empty MemoryCheckpointer.
func NewMemoryCheckpointer() *MemoryCheckpointer { return impl.NewMemoryCheckpointer() }

// Object is a JSON object that keeps its members in the order they were
// added, as JavaScript objects, and so Step Functions, do. The order shows
// wherever a value becomes text (States.JsonToString, States.Format). An
// Object is never changed once shared: With returns a changed copy.
//
// Handlers see plain map[string]any values unless they implement
// OrderedHandlers; Run takes and returns plain values too.
type Object = asl.Object

// Observer watches runs as they happen: progress displays, structured logs
// and tracing implement it (see docs/observability.md). Each method is
// called when something starts, with the context it runs in, and returns
// the context the work runs in (ctx or one derived from it) and the
// function to call when it ends, with its error (nil on success; the name
// retry and catch rules see is ErrorName(err)). The end function may be nil.
//
// Work nests: a run holds state visits, a state holds the attempts of its
// handler and the items of its fan-out, an item holds the states of its
// branch or chain. The context a method receives descends from the one its
// parent's method returned, so that an observer can find its parent there
// even when items run concurrently; methods are therefore called from many
// goroutines at once.
//
// A state calls its handler through attempts when it has timeout or retry
// rules (every JSON mode, chain and States Language task does); a typed
// state without rules calls its handler once, inside its state visit.
type Observer = impl.Observer

// StateData is implemented by observers that also take the data of state
// visits: Entered gets a state's input as it starts and Succeeded its
// output as it ends well, both with the context the visit runs in (the one
// the observer's State returned). Every States Language and JSON mode
// state reports them; a typed state reports them inside a fan-out, with its
// update as output; a task chain's tasks do not. A run whose observer lacks it pays nothing for them.
// The values are the run's own: read or encode them before returning, and
// do not change them (see docs/observability.md).
type StateData = impl.StateData

// Option changes a Config.
type Option = impl.Option

// Pending is the approval an interrupted run waits for.
type Pending = impl.Pending

// Failure is what a failed session's run failed with, in its checkpoint's
// position: the error's name, as retry and catch rules see it, and its
// cause.
type Failure = impl.Failure

// ResultLine returns the line that `flowc run` prints for a finished run,
// without a newline:
//
//	{"status":"SUCCEEDED","output":<output as JSON>}
//	{"status":"FAILED","error":"<ErrorName(err)>","cause":"<cause>"}
//	{"status":"INTERRUPTED","prompt":"<prompt>","options":[<options>]}
//	{"status":"WAITING","state":"<state>","task_token":"<token>"}
//
// INTERRUPTED is for an *Interrupted err: an approval waits for a
// decision; WAITING for a *TaskTokenWait: a Task state waits for a
// success or failure sent for its task token.
// The cause is the Cause of the *Error in err's chain, if there is one, and
// err.Error() otherwise. An output that cannot be encoded fails the run.
func ResultLine(output any, err error) []byte { return impl.ResultLine(output, err) }

// ResultWriteRequest says which ResultWriter a result is for.
type ResultWriteRequest = asl.ResultWriteRequest

// ResultWriter is implemented by handlers that take the results of the
// distributed Maps with a ResultWriter. WriteResult is called once per
// child as it ends (on an engine: in item order once the child's window of
// items is done), never twice at once. Handlers that do not implement it
// get the built-in writer of local files.
type ResultWriter = asl.ResultWriter

// RouteCall is the call of a route task: the model picks one of Labels.
type RouteCall = chain.RouteCall

// SessionError is the error of a session that cannot run as asked: its
// checkpoint belongs to another workflow or state schema, it has no
// checkpoint to resume, or it waits for no such decision. Nothing ran.
type SessionError = impl.SessionError

// ShapeChange is one difference between the shape a checkpoint was saved
// with and the current one. Path names the value from the state down:
// "state.review.score"; "[]" stands for the elements of a slice or array,
// "{}" for the values of a map.
type ShapeChange = impl.ShapeChange

// ShapeField is a field of a named struct type in two shapes.
type ShapeField = impl.ShapeField

// StateError is the final error of a state, after its retries.
type StateError = impl.StateError

// StateFromContext returns the state id set by WithState, or "".
func StateFromContext(ctx context.Context) string { return impl.StateFromContext(ctx) }

// StatesHeartbeatTimeout is the error of a callback wait that no heartbeat
// renewed within HeartbeatSeconds; States.Timeout rules match it too.
const StatesHeartbeatTimeout = impl.StatesHeartbeatTimeout

// The errors of a distributed Map, as Step Functions names them.
const (
	StatesExceedToleratedFailureThreshold = asl.StatesExceedToleratedFailureThreshold
	StatesItemReaderFailed                = asl.StatesItemReaderFailed
)

// How a session's last run stands: Checkpoint.Status.
// StatusFinished is StatusSucceeded's former name.
const (
	StatusFailed      = impl.StatusFailed
	StatusFinished    = impl.StatusFinished
	StatusInterrupted = impl.StatusInterrupted
	StatusRunning     = impl.StatusRunning
	StatusStopped     = impl.StatusStopped
	StatusSucceeded   = impl.StatusSucceeded
	StatusWaiting     = impl.StatusWaiting
)

// Summarizer is implemented by the handlers of a CodeMie workflow with an
// assistant state: Summarize replaces a history that crossed the limits by
// a shorter one.
type Summarizer = jsonmode.Summarizer

// TaskTokenWait is the error a run stops with when a Task state waits for
// a task token (.waitForTaskToken). It is not a failure: with a session,
// the checkpoint holds the run waiting, and the workflow's SendTaskSuccess
// or SendTaskFailure continues it.
type TaskTokenWait = impl.TaskTokenWait

// ThisRuntime is what generated code checks its version against.
var ThisRuntime = impl.ThisRuntime

// ToolCall is the call of a tools (or hook) task: call Tool of provider
// Name directly with Args.
type ToolCall = chain.ToolCall

// ToolCallsCall is the call of an execute_tool_calls task: run the tool
// calls that the last assistant message of Messages asks for.
type ToolCallsCall = chain.ToolCallsCall

// WithChainPrinter makes chain runs under ctx send each task's `print`
// to f, on the goroutine that runs the chain.
func WithChainPrinter(ctx context.Context, f func(ChainPrint)) context.Context {
	return chain.WithChainPrinter(ctx, f)
}

// WithChainVars gives a chain run the template variables that {{var:name}}
// macros read, such as the model and provider to use.
func WithChainVars(ctx context.Context, vars map[string]string) context.Context {
	return chain.WithChainVars(ctx, vars)
}

// WithCheckpointer makes Invoke, Resume and Decide save and load the
// checkpoints of sessions through cp.
func WithCheckpointer(cp Checkpointer) Option { return impl.WithCheckpointer(cp) }

// WithClock makes the workflow read the time and sleep through c.
func WithClock(c Clock) Option { return impl.WithClock(c) }

// WithMemory makes the workflow keep its memory in s; without it each run
// has a memory of its own.
func WithMemory(s MemoryStore) Option { return impl.WithMemory(s) }

// WithDoor returns a context under which the answers a workflow's
// Decide, DecideAt and SendTask* methods take are recorded in the
// session's history as coming through door ("cli", "console"; without
// it, "go").
func WithDoor(ctx context.Context, door string) context.Context { return impl.WithDoor(ctx, door) }

// WithObserver makes the workflow report its runs to o; nil observes
// nothing. Without an observer a state pays two nil checks and allocates
// nothing for it.
func WithObserver(o Observer) Option { return impl.WithObserver(o) }

// WithRand sets the source of randomness for retry jitter; f must return a
// number in [0, 1).
func WithRand(f func() float64) Option { return impl.WithRand(f) }

// WithRedrive returns a context under which a workflow's Resume (and its
// Invoke without input) redrives the session, as Step Functions'
// RedriveExecution: it goes on from the state the session's last run failed
// at, keeping everything that succeeded before it, and refuses a session
// whose last run did not fail with an error wrapping ErrNotRedrivable.
func WithRedrive(ctx context.Context) context.Context { return impl.WithRedrive(ctx) }

// WithSchemaNotes returns a context under which a session resumed from a
// checkpoint saved with an older shape of the state calls fn with each
// change it carried over: a field added since, which starts as its zero
// value. Without it, the notes go to the default slog logger as warnings.
func WithSchemaNotes(ctx context.Context, fn func(session string, change ShapeChange)) context.Context {
	return impl.WithSchemaNotes(ctx, fn)
}

// WithState returns a copy of ctx that carries the id of the running state.
func WithState(ctx context.Context, id string) context.Context { return impl.WithState(ctx, id) }

// WithStateContext makes the generated code tag the context of each handler
// call with the state id, for handlers that must know which state calls them.
func WithStateContext() Option { return impl.WithStateContext() }
