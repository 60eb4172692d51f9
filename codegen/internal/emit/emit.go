// Package emit is what every dialect and target of the generator shares:
// the shell a dialect describes its workflow in, the Dialect and Target
// interfaces, the step loop and session specs, the names of the generated
// identifiers, and the jennifer helpers (runtime identifiers, comments, Go
// types, bulk text) they are written with. It imports no other package of
// the generator.
package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/ir"
)

// The emitter writes what every generated workflow shares, whatever its
// dialect: the version guard, the handlers interface, the workflow type and
// its constructor, the step ids, Run and the step loops, sessions and the
// mock. A dialect describes its workflow in a shell and writes only its own
// declarations and step bodies; a target decides how the shell becomes Go.
// docs/targets.md says how a target plugs in.

// Dialect is one workflow language's part of the generated code.
type Dialect interface {
	// Shell describes the workflow to the target.
	Shell() *Shell
	// Types writes the dialect's own types and package values, before the
	// handlers interface (typed mode's state and update).
	Types(f *jen.File)
	// Steps writes the step bodies, pure transitions and fan-outs, and asks
	// the target for the loops they run in.
	Steps(f *jen.File, t Target)
}

// Target turns a shell into the engine that runs it. native.Target runs the
// steps in a plain Go loop; a Temporal target would write a workflow
// function that runs the same steps, their handler calls as activities.
type Target interface {
	// Header writes the handlers interface, the workflow type and its
	// constructor, and the step enum with its ids.
	Header(f *jen.File, sh *Shell)
	// Entry writes the exported ways to start a run, and sessions.
	Entry(f *jen.File, sh *Shell)
	// Loop writes one step loop; dialects call it from steps.
	Loop(f *jen.File, n Names, l *Loop)
	// Mock writes handlers that answer from a mock config.
	Mock(f *jen.File, sh *Shell)
}

// Shell is what a dialect tells the target about its workflow.
type Shell struct {
	Workflow    *ir.Workflow
	Names       Names
	GenVersion  int       // the runtime support the code needs
	Noun        string    // what the workflow runs: "the workflow", "the task chain"...
	Describe    bool      // the workflow type's doc holds the description
	HandlersDoc []string  // the handlers interface's doc
	Handlers    []Handler // in order of first use
	// More are the services the handlers interface declares before the
	// handlers: runtime interfaces it embeds, or methods no state calls.
	More []Service
	// Into names the handlers of the optional interface n.Into, whose
	// methods write a plain state's update in place; nil: it has none.
	Into      []string
	States    []*ir.State // the step enum: the states a checkpoint may name first
	Resumable int         // how many of states a checkpoint may name
	StepDoc   string
	Runs      []Entry // Run and its like, exported
	Sessions  *SessionSpec
	Mock      MockSpec
}

// Service is a member of the handlers interface beyond the handlers: a
// runtime interface it embeds (embed, whose method is name and sig), or a
// method of its own.
type Service struct {
	Embed string
	Name  string
	Doc   string
	Sig   Sig
}

// Handler is one method of the handlers interface and of the mock.
type Handler struct {
	Name    string
	Doc     string // "" leaves it out of the interface: flowcrt.Approver answers it
	Sig     Sig
	Mock    []jen.Code // the mock's body
	MockDoc []string   // nil: it answers from the mock of its state
	// The same as plain text, gofmt'd, where they are simple enough: the
	// signature after the name (assuming context is imported as such),
	// and the mock's one statement.
	SigText, MockText string
}

// Entry is an exported method that starts a run.
type Entry struct {
	Name string
	Doc  []string
	Sig  Sig
	Body []jen.Code
}

// Sig is a method's parameters after ctx and its results before error, as
// data: the native target writes it through jennifer and the Temporal
// target prints it, so the two always agree.
type Sig struct {
	Params  []SigParam
	Results []*ir.Type
}

// SigParam is a named parameter of a Sig.
type SigParam struct {
	Name string
	Typ  *ir.Type
}

// Code renders the signature after the method's name.
func (s Sig) Code(name *jen.Statement) *jen.Statement {
	params := []jen.Code{CtxParam()}
	for _, p := range s.Params {
		params = append(params, jen.Id(p.Name).Add(GoType(p.Typ)))
	}
	var results []jen.Code
	for _, r := range s.Results {
		results = append(results, GoType(r))
	}
	return name.Params(params...).Params(append(results, jen.Error())...)
}

// Types of signatures.
func BasicType(name string) *ir.Type { return &ir.Type{Kind: ir.TypeBasic, Name: name} }
func OwnType(name string) *ir.Type   { return &ir.Type{Kind: ir.TypeNamed, Name: name} }
func RtType(name string) *ir.Type {
	return &ir.Type{Kind: ir.TypeNamed, Pkg: RuntimePackage(name), Name: name}
}

// CallSig is (ctx, call T) (result, error).
func CallSig(call string, result *ir.Type) Sig {
	return Sig{Params: []SigParam{{"call", RtType(call)}}, Results: []*ir.Type{result}}
}

// SessionSpec is how a dialect's sessions differ: the state they keep and
// how a run goes on from a checkpoint.
type SessionSpec struct {
	Value   jen.Code   // the type of the state a session keeps
	Arg     string     // runAt's name for it
	Zero    jen.Code   // what runAt returns for an unknown state
	Types   []jen.Code // flowcrt.Sessions' type arguments
	Schema  jen.Code   // flowcrt.Sessions' Schema
	Fields  []jen.Code // flowcrt.Sessions' fields after Start, before Run
	Doc     []string   // sessions' doc
	Invoke  func(f *jen.File)
	Resume  string     // Resume's doc
	Decides bool       // a run can stop for a decision, which Decide answers
	Decide  string     // Decide's doc; "": an approval state's
	Out     SessionOut // what Resume and Decide return; zero: the state
	RunAtOn []jen.Code // runAt's body once step is found
}

// MockSpec is how a dialect's mock handlers differ.
type MockSpec struct {
	Doc          []string
	Caller       string // what calls a handler: "state" or "task"
	Marker       string // a method the runtime looks for, with markerDoc
	MarkerDoc    []string
	Helpers      func(f *jen.File) // unexported methods the handler bodies share
	StateContext bool              // NewMock adds flowcrt.WithStateContext
}

// Loop is one step loop: it runs the steps of states from step until a
// step (the end of the run, the exit of a fan-out, or a parameter), with
// one deferred recover that turns a panic into an error naming the state.
type Loop struct {
	Method  string
	Doc     string
	Params  []jen.Code // after ctx, before step
	First   *ir.State  // nil: the loop starts at a parameter `step`
	Until   jen.Code   // nil: a parameter `until`
	After   []jen.Code // parameters after step
	Result  jen.Code   // besides err; nil for none
	Zero    jen.Code   // what a failed run returns with err
	Done    jen.Code   // what a finished run returns with err
	States  []*ir.State
	Plain   *PlainSpec                       // nil: every state has a case that calls its step
	Prelude []jen.Code                       // before the loop, for the plain states
	Fold    jen.Code                         // after a step: what a plain state left to do
	Call    func(s *ir.State) *jen.Statement // the step of s, in the loop's variables (its context: sctx)
	Outs    []jen.Code                       // what a step returns between next and err
	Ctx     bool                             // flowcrt.WithState tells handlers their state, if configured
	Save    jen.Code                         // what follows each step: a checkpoint
	Wrap    func(err jen.Code) jen.Code      // names the state of a step's error
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
	// the plain states that runs while the loop's prelude sets fast (no
	// observer, state context or session); inPlaceFold then applies the
	// update.
	InPlace     func(handler string) []string
	InPlaceFold []jen.Code
}

// Emit writes a workflow through a target.
func Emit(f *jen.File, d Dialect, t Target) {
	sh := d.Shell()
	versionGuard(f, sh.GenVersion)
	d.Types(f)
	t.Header(f, sh)
	t.Entry(f, sh)
	d.Steps(f, t)
	t.Mock(f, sh)
}

// versionGuard stops the file compiling against a runtime that does not
// support its version, with an error naming both (see runtime/version.go).
func versionGuard(f *jen.File, version int) {
	f.Comment("This file needs a runtime that supports its generation: a mismatch fails to compile here,")
	f.Comment("naming the versions the runtime supports and the one this file needs.")
	method := fmt.Sprintf("GeneratedCodeVersion%d", version)
	f.Var().Id("_").Interface(jen.Id(method).Params()).Op("=").Add(Rt("ThisRuntime"))
}

// FirstHandlers lists each handler once, in order of first use; skip
// leaves out those without a method.
func FirstHandlers(states []*ir.State, skip func(*ir.Handler) bool) []*ir.Handler {
	var out []*ir.Handler
	seen := map[string]bool{}
	for _, s := range states {
		if h := s.Handler; h != nil && !skip(h) && !seen[h.Name] {
			seen[h.Name] = true
			out = append(out, h)
		}
	}
	return out
}

// UsersOf maps each handler to the ids of the states that call it, in one
// pass: a scan per handler made large workflows quadratic.
func UsersOf(states []*ir.State) map[string][]string {
	ids := map[string][]string{}
	for _, s := range states {
		if s.Handler != nil {
			ids[s.Handler.Name] = append(ids[s.Handler.Name], s.ID)
		}
	}
	return ids
}

// CallHandlers lists the methods of a dialect whose handlers all take
// (ctx, call), sig spelled as text in sigText, and whose mocks answer with
// the Mocks method respond; skip leaves out the handlers without a method.
func CallHandlers(states []*ir.State, skip func(*ir.Handler) bool, noun string,
	sg Sig, sigText, respond string) []Handler {
	users := UsersOf(states)
	var out []Handler
	for _, h := range FirstHandlers(states, skip) {
		out = append(out, Handler{
			Name: h.Name, Doc: h.Name + " runs " + UsersList(noun, users[h.Name]) + ".", Sig: sg,
			Mock:    []jen.Code{jen.Return(jen.Id("m").Dot("mocks").Dot(respond).Call(jen.Id("call")))},
			SigText: sigText, MockText: "return m.mocks." + respond + "(call)",
		})
	}
	return out
}

// UsersList is "state \"a\"" or "tasks \"a\", \"b\"".
func UsersList(noun string, ids []string) string {
	if len(ids) > 1 {
		noun += "s"
	}
	return noun + " " + QuoteList(ids)
}

// CtxParam is the ctx parameter every handler and step takes first.
func CtxParam() *jen.Statement { return jen.Id("ctx").Qual("context", "Context") }
