package codegen

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

// dialect is one workflow language's part of the generated code.
type dialect interface {
	// shell describes the workflow to the target.
	shell() *shell
	// types writes the dialect's own types and package values, before the
	// handlers interface (typed mode's state and update).
	types(f *jen.File)
	// steps writes the step bodies, pure transitions and fan-outs, and asks
	// the target for the loops they run in.
	steps(f *jen.File, t target)
}

// target turns a shell into the engine that runs it. nativeLoop runs the
// steps in a plain Go loop; a Temporal target would write a workflow
// function that runs the same steps, their handler calls as activities.
type target interface {
	// header writes the handlers interface, the workflow type and its
	// constructor, and the step enum with its ids.
	header(f *jen.File, sh *shell)
	// entry writes the exported ways to start a run, and sessions.
	entry(f *jen.File, sh *shell)
	// loop writes one step loop; dialects call it from steps.
	loop(f *jen.File, n names, l *loop)
	// mock writes handlers that answer from a mock config.
	mock(f *jen.File, sh *shell)
}

// shell is what a dialect tells the target about its workflow.
type shell struct {
	w           *ir.Workflow
	n           names
	genVersion  int       // the runtime support the code needs
	noun        string    // what the workflow runs: "the workflow", "the task chain"...
	describe    bool      // the workflow type's doc holds the description
	handlersDoc []string  // the handlers interface's doc
	handlers    []handler // in order of first use
	// more are the services the handlers interface declares before the
	// handlers: runtime interfaces it embeds, or methods no state calls.
	more []service
	// into names the handlers of the optional interface n.Into, whose
	// methods write a plain state's update in place; nil: it has none.
	into      []string
	states    []*ir.State // the step enum: the states a checkpoint may name first
	resumable int         // how many of states a checkpoint may name
	stepDoc   string
	runs      []entry // Run and its like, exported
	sessions  *sessionSpec
	mock      mockSpec
}

// service is a member of the handlers interface beyond the handlers: a
// runtime interface it embeds (embed, whose method is name and sig), or a
// method of its own.
type service struct {
	embed string
	name  string
	doc   string
	sig   sig
}

// handler is one method of the handlers interface and of the mock.
type handler struct {
	name    string
	doc     string // "" leaves it out of the interface: flowcrt.Approver answers it
	sig     sig
	mock    []jen.Code // the mock's body
	mockDoc []string   // nil: it answers from the mock of its state
	// The same as plain text, gofmt'd, where they are simple enough: the
	// signature after the name (assuming context is imported as such),
	// and the mock's one statement.
	sigText, mockText string
}

// entry is an exported method that starts a run.
type entry struct {
	name string
	doc  []string
	sig  sig
	body []jen.Code
}

// sig is a method's parameters after ctx and its results before error, as
// data: the native target writes it through jennifer and the Temporal
// target prints it, so the two always agree.
type sig struct {
	params  []sigParam
	results []*ir.Type
}

type sigParam struct {
	name string
	typ  *ir.Type
}

// code renders the signature after the method's name.
func (s sig) code(name *jen.Statement) *jen.Statement {
	params := []jen.Code{ctxParam()}
	for _, p := range s.params {
		params = append(params, jen.Id(p.name).Add(goType(p.typ)))
	}
	var results []jen.Code
	for _, r := range s.results {
		results = append(results, goType(r))
	}
	return name.Params(params...).Params(append(results, jen.Error())...)
}

// Types of signatures.
func basicType(name string) *ir.Type { return &ir.Type{Kind: ir.TypeBasic, Name: name} }
func ownType(name string) *ir.Type   { return &ir.Type{Kind: ir.TypeNamed, Name: name} }
func rtType(name string) *ir.Type {
	return &ir.Type{Kind: ir.TypeNamed, Pkg: runtimePackage(name), Name: name}
}

// callSig is (ctx, call T) (result, error).
func callSig(call string, result *ir.Type) sig {
	return sig{params: []sigParam{{"call", rtType(call)}}, results: []*ir.Type{result}}
}

// sessionSpec is how a dialect's sessions differ: the state they keep and
// how a run goes on from a checkpoint.
type sessionSpec struct {
	value   jen.Code   // the type of the state a session keeps
	arg     string     // runAt's name for it
	zero    jen.Code   // what runAt returns for an unknown state
	types   []jen.Code // flowcrt.Sessions' type arguments
	schema  jen.Code   // flowcrt.Sessions' Schema
	fields  []jen.Code // flowcrt.Sessions' fields after Start, before Run
	doc     []string   // sessions' doc
	invoke  func(f *jen.File)
	resume  string     // Resume's doc
	decides bool       // a run can stop for a decision, which Decide answers
	decide  string     // Decide's doc; "": an approval state's
	out     sessionOut // what Resume and Decide return; zero: the state
	runAtOn []jen.Code // runAt's body once step is found
}

type mockSpec struct {
	doc          []string
	caller       string // what calls a handler: "state" or "task"
	marker       string // a method the runtime looks for, with markerDoc
	markerDoc    []string
	helpers      func(f *jen.File) // unexported methods the handler bodies share
	stateContext bool              // NewMock adds flowcrt.WithStateContext
}

// loop is one step loop: it runs the steps of states from step until a
// step (the end of the run, the exit of a fan-out, or a parameter), with
// one deferred recover that turns a panic into an error naming the state.
type loop struct {
	method  string
	doc     string
	params  []jen.Code // after ctx, before step
	first   *ir.State  // nil: the loop starts at a parameter `step`
	until   jen.Code   // nil: a parameter `until`
	after   []jen.Code // parameters after step
	result  jen.Code   // besides err; nil for none
	zero    jen.Code   // what a failed run returns with err
	done    jen.Code   // what a finished run returns with err
	states  []*ir.State
	plain   *plainSpec                       // nil: every state has a case that calls its step
	prelude []jen.Code                       // before the loop, for the plain states
	fold    jen.Code                         // after a step: what a plain state left to do
	call    func(s *ir.State) *jen.Statement // the step of s, in the loop's variables (its context: sctx)
	outs    []jen.Code                       // what a step returns between next and err
	ctx     bool                             // flowcrt.WithState tells handlers their state, if configured
	save    jen.Code                         // what follows each step: a checkpoint
	wrap    func(err jen.Code) jen.Code      // names the state of a step's error
}

// plainSpec describes the plain states of a loop: each only calls its
// handler and goes on to a fixed step. The loop runs them from a table,
// one call site per handler, and leaves the rest to its fold.
type plainSpec struct {
	handlers []string                      // in order of first use
	handler  func(s *ir.State) string      // the handler of a plain state; "" for the others
	next     func(s *ir.State) string      // the step after a plain state
	call     func(handler string) []string // the statements that call a handler, as gofmt'd text
	// inPlace calls the in-place form of a handler, in a tighter loop of
	// the plain states that runs while the loop's prelude sets fast (no
	// observer, state context or session); inPlaceFold then applies the
	// update.
	inPlace     func(handler string) []string
	inPlaceFold []jen.Code
}

// emit writes a workflow through a target.
func emit(f *jen.File, d dialect, t target) {
	sh := d.shell()
	versionGuard(f, sh.genVersion)
	d.types(f)
	t.header(f, sh)
	t.entry(f, sh)
	d.steps(f, t)
	t.mock(f, sh)
}

// versionGuard stops the file compiling against a runtime that does not
// support its version, with an error naming both (see runtime/version.go).
func versionGuard(f *jen.File, version int) {
	f.Comment("This file needs a runtime that supports its generation: a mismatch fails to compile here,")
	f.Comment("naming the versions the runtime supports and the one this file needs.")
	method := fmt.Sprintf("GeneratedCodeVersion%d", version)
	f.Var().Id("_").Interface(jen.Id(method).Params()).Op("=").Add(rt("ThisRuntime"))
}

// firstHandlers lists each handler once, in order of first use; skip
// leaves out those without a method.
func firstHandlers(states []*ir.State, skip func(*ir.Handler) bool) []*ir.Handler {
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

// usersOf maps each handler to the ids of the states that call it, in one
// pass: a scan per handler made large workflows quadratic.
func usersOf(states []*ir.State) map[string][]string {
	ids := map[string][]string{}
	for _, s := range states {
		if s.Handler != nil {
			ids[s.Handler.Name] = append(ids[s.Handler.Name], s.ID)
		}
	}
	return ids
}

// callHandlers lists the methods of a dialect whose handlers all take
// (ctx, call), sig spelled as text in sigText, and whose mocks answer with
// the Mocks method respond; skip leaves out the handlers without a method.
func callHandlers(states []*ir.State, skip func(*ir.Handler) bool, noun string,
	sg sig, sigText, respond string) []handler {
	users := usersOf(states)
	var out []handler
	for _, h := range firstHandlers(states, skip) {
		out = append(out, handler{
			name: h.Name, doc: h.Name + " runs " + usersList(noun, users[h.Name]) + ".", sig: sg,
			mock:    []jen.Code{jen.Return(jen.Id("m").Dot("mocks").Dot(respond).Call(jen.Id("call")))},
			sigText: sigText, mockText: "return m.mocks." + respond + "(call)",
		})
	}
	return out
}

// usersList is "state \"a\"" or "tasks \"a\", \"b\"".
func usersList(noun string, ids []string) string {
	if len(ids) > 1 {
		noun += "s"
	}
	return noun + " " + quoteList(ids)
}

func ctxParam() *jen.Statement { return jen.Id("ctx").Qual("context", "Context") }
