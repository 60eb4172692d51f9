// Package emit is what every dialect and target of the generator shares:
// the Target, Dialect and Writer interfaces, the step loop spec, and the
// one renderer of the plan's identifiers, types and imports (gotype.go),
// through jennifer and as text, with the helpers (comments, bulk text)
// they are written with. It imports no other package of the generator.
//
// Every target reads the plan (package ir/plan), which the compiler built
// right after the checker: plain data, with no jennifer in it, that names
// the identifiers, types every handler and entry point, and describes the
// steps' states, the step loops and fan-outs, sessions and mock. The Go
// only a jennifer target writes stays behind Dialect's methods.
package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
)

// The emitter writes what every generated workflow shares, whatever its
// dialect: the version guard, the handlers interface, the workflow type and
// its constructor, the step ids, Run and the step loops, sessions and the
// mock. The plan describes the workflow; a dialect writes only its own
// declarations and step bodies; a target decides how the plan becomes Go.
// docs/targets.md says how a target plugs in.

// Target writes the files of a workflow from its plan: what `flowc gen
// --target` names. native.Target writes the workflow and its mocks as
// plain Go; temporal.Target, the file that runs that Go on Temporal.
type Target interface {
	Files(p *plan.Plan, opts Options) ([]File, error)
}

// Options shape a target's output.
type Options struct {
	// FileName is the native file's name, e.g. "triage_flow.go", which the
	// other files' names derive from.
	FileName string
	// Source is the definition's path relative to the generated file, for
	// the header; it must not depend on the machine.
	Source string
}

// File is one generated file.
type File struct {
	Name    string
	Content []byte
}

// Dialect is one workflow language's part of the generated code.
type Dialect interface {
	// Types writes the dialect's own types and package values, before the
	// handlers interface (typed mode's state and update).
	Types(f *jen.File)
	// Steps writes the step bodies, pure transitions and fan-outs, and asks
	// the writer for the loops they run in.
	Steps(f *jen.File, t Writer)

	// The rest is the Go behind the plan's data that only a target
	// writing the steps through jennifer needs.

	// EntryBody is the body of the entry point e of plan.Plan.Runs.
	EntryBody(e plan.Entry) []jen.Code
	// MockBody is the body of the mock method of h, a handler whose answer
	// is not plan data (h.Answer nil).
	MockBody(h plan.Handler) []jen.Code
	// MockHelpers writes the unexported methods the mock bodies share.
	MockHelpers(f *jen.File)
	// Invoke writes Invoke and what goes with it (InvokeUpdate, DecideAt).
	Invoke(f *jen.File)
	// SessionHooks are flowcrt.Sessions' fields after Start, before Run:
	// how a state is made, decoded and merged with an input.
	SessionHooks() []jen.Code
	// RunAt is runAt's body once it has found step: it runs the loop from
	// there with the session.
	RunAt() []jen.Code
}

// Writer is how a target that writes the steps through jennifer (the
// native target) turns the plan into the Go that runs them: Emit and the
// dialects call it for the parts every workflow shares.
type Writer interface {
	// Header writes the handlers interface, the workflow type and its
	// constructor, and the step enum with its ids.
	Header(f *jen.File, sh *plan.Plan)
	// Entry writes the exported ways to start a run, and sessions.
	Entry(f *jen.File, d Dialect, sh *plan.Plan)
	// Loop writes one step loop; dialects call it from steps.
	Loop(f *jen.File, n plan.Names, l *Loop)
	// Mock writes handlers that answer from a mock config.
	Mock(f *jen.File, d Dialect, sh *plan.Plan)
}

// Loop is one step loop, the plan's loop with the Go a target writes it
// with: it runs the steps of the loop's states from where it starts until
// its exit, with one deferred recover that turns a panic into an error
// naming the state.
type Loop struct {
	*plan.Loop
	Doc     string
	Params  []jen.Code                       // after ctx, before step
	After   []jen.Code                       // parameters after step
	Result  jen.Code                         // besides err; nil for none
	Zero    jen.Code                         // what a failed run returns with err
	Done    jen.Code                         // what a finished run returns with err
	Plain   *PlainSpec                       // nil: every state has a case that calls its step
	Prelude []jen.Code                       // before the loop, for the plain states
	Fold    jen.Code                         // after a step: what a plain state left to do
	Call    func(s *ir.State) *jen.Statement // the step of s, in the loop's variables (its context: sctx)
	Case    func(s *ir.State) []jen.Code     // the case of s, if it runs without a step method; nil: Call
	Outs    []jen.Code                       // what a step returns between next and err
	Ctx     bool                             // flowcrt.WithState tells handlers their state, if configured
	Save    jen.Code                         // what follows each step: a checkpoint
	Entered jen.Code                         // after the observer's State: the state's input, reported to it
	Wrap    func(err jen.Code) jen.Code      // names the state of a step's error
	// Quiet loops test hooked once per run: a run with no observer, state
	// context or session then skips them between states, and tests ctx's
	// channel instead of calling ctx.Err (the engines whose context has no
	// channel, Temporal's, set the state context).
	Quiet bool
	// Works names the result the loop works on, its state, whose value a
	// recovered panic returns: then the loop's parameter In starts it, and
	// returning it costs no copy (a copy of a state just written costs a
	// stall). Empty: the result is out, which the recover sets to Zero.
	Works, In string
}

// PlainSpec describes the plain states of a loop: each only calls its
// handler and goes on to a fixed step. The loop runs them from a table,
// one call site per handler, and leaves the rest to its fold.
type PlainSpec struct {
	Handlers []string                      // in order of first use
	Handler  func(s *ir.State) string      // the handler of a plain state; "" for the others
	Next     func(s *ir.State) string      // the step after a plain state
	Call     func(handler string) []string // the statements that call a handler, as gofmt'd text
	// InPlace calls the in-place form of a handler, in a tighter loop of
	// the plain states that runs while the loop's prelude sets fast (a
	// quiet run whose handlers have the in-place form); inPlaceFold then
	// applies the update.
	InPlace     func(handler string) []string
	InPlaceFold []jen.Code
}

// Emit writes the workflow of plan sh through a dialect and a target's
// writer.
func Emit(f *jen.File, sh *plan.Plan, d Dialect, t Writer) {
	versionGuard(f, sh.GenVersion)
	d.Types(f)
	t.Header(f, sh)
	t.Entry(f, d, sh)
	d.Steps(f, t)
	t.Mock(f, d, sh)
}

// versionGuard stops the file compiling against a runtime that does not
// support its version, with an error naming both (see runtime/version.go).
func versionGuard(f *jen.File, version int) {
	f.Comment("This file needs a runtime that supports its generation: a mismatch fails to compile here,")
	f.Comment("naming the versions the runtime supports and the one this file needs.")
	method := fmt.Sprintf("GeneratedCodeVersion%d", version)
	f.Var().Id("_").Interface(jen.Id(method).Params()).Op("=").Add(Flowcrt("ThisRuntime"))
}

// CtxParam is the ctx parameter every handler and step takes first.
func CtxParam() *jen.Statement { return jen.Id("ctx").Qual("context", "Context") }
