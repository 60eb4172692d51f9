// Package plan is what every generator reads about a checked workflow:
// plain data, with no jennifer in it, that the compiler builds once right
// after the checker (compiler.Compile returns it). It names the generated
// identifiers, gives every handler and entry point its signature as typed
// data, and says which states a run may start at, what a session keeps
// and what the mock answers with, for whichever language the workflow was
// written in. It also describes the step loops that run the states
// (loops.go: each loop's method, states, start, exit and what it does
// with a session) and the fan-outs (their kind, entries, concurrency
// limit, exit, and whether a session's run can stop inside). One file
// per dialect derives those facts (typed.go, json.go, chain.go, asl.go).
// The Go behind them that only a target writing through jennifer needs
// (mock and entry bodies, session plumbing, each loop's parameters and
// calls) is the generator's; a target that prints its own Go (the
// Temporal file) reads the plan alone. What each step does and where it
// goes is the IR's states, as the front-end made them and the checker
// found them (p.Checked); writing their bodies is the generator's. The
// graph of the states, for diagrams, is derived when asked for (graph.go).
package plan

import (
	"slices"

	"github.com/flowc-dev/flowc/ir"
)

// The planners, one per mode: each derives the plan of a checked workflow
// of its mode, once. The compiler's list of dialects says which planner a
// workflow gets; nothing here chooses one.

// Typed is the plan of a typed workflow; typed mode has no built-ins.
func Typed(c *ir.Checked) *Plan { return typedPlan(c) }

// JSON is the plan of a JSON-mode (CodeMie) workflow.
func JSON(c *ir.Checked) *Plan { return withBuiltins(jsonPlan(c), jsonBuiltin) }

// Chain is the plan of a task chain.
func Chain(c *ir.Checked) *Plan { return withBuiltins(chainPlan(c), chainBuiltin) }

// ASL is the plan of a States Language machine.
func ASL(c *ir.Checked) *Plan { return withBuiltins(aslPlan(c), aslBuiltin) }

// Plan is what every target reads about a workflow.
type Plan struct {
	*ir.Checked // the workflow as its front-end lowered it, and what the checker found
	Names       Names
	GenVersion  int       // the runtime support the code needs
	Noun        string    // what the workflow runs: "the workflow", "the task chain"...
	Describe    bool      // the workflow type's doc holds the description
	HandlersDoc []string  // the handlers interface's doc
	Handlers    []Handler // in order of first use
	// More are the services the handlers interface declares before the
	// handlers: runtime interfaces it embeds, or methods no state calls.
	More []service
	// Into names the handlers of the optional interface n.Into, whose
	// methods write a plain state's update in place; nil: it has none.
	Into    []string
	callers map[string][]*ir.State // see Callers
	// Builtins are the built-ins a `flowc build` program may run methods
	// of the handlers interface with, by method.
	Builtins map[string]Builtin
	// StepEnum is the step enum: the states a checkpoint may name first
	// (p.States, the workflow's, are in source order).
	StepEnum  []*ir.State
	Resumable int // how many of StepEnum a checkpoint may name
	StepDoc   string
	Runs      []Entry // Run and its like, exported; Dialect.EntryBody writes their bodies
	Sessions  *SessionSpec
	Mock      mockSpec
	// InputDecoder is the runtime function that checks the JSON input of
	// a dialect whose input is any JSON value; nil when it is a Go type.
	InputDecoder *Ref
	// StepLoop: a run is a loop over the steps of a task chain, which goes
	// on from a step (flowcrt.ChainState), not from a session's checkpoint.
	StepLoop bool
	// ItemReads and ResultWrites: a distributed Map reads its items with a
	// flowcrt.ItemReader, writes its results with a flowcrt.ResultWriter.
	ItemReads, ResultWrites bool
	// RuntimeConditions: the transitions' conditions are source the
	// runtime evaluates (JSON mode's Python), not checked trees a target
	// prints as Go.
	RuntimeConditions bool
	// Loops are the step loops of the generated code, the top one first
	// (loops.go); FanOuts the fan-outs, in the order of the states that
	// open them.
	Loops   []*Loop
	FanOuts []*FanOut
	index   loopIndex

	into  map[string]bool   // typed mode: Into, as a set
	nodes map[string]string // JSON mode: each custom-node state's custom_node_id, by state id
}

// Service is the member name of More, if the handlers interface declares it.
func (p *Plan) Service(name string) (service, bool) {
	i := slices.IndexFunc(p.More, func(sv service) bool { return sv.Name == name })
	if i < 0 {
		return service{}, false
	}
	return p.More[i], true
}

// service is a member of the handlers interface beyond the handlers: a
// runtime interface it embeds (embed, whose method is name and sig), or a
// method of its own (embed nil).
type service struct {
	Embed *Ref
	Name  string
	Doc   string
	Sig   Sig
}

// Handler is one method of the handlers interface and of the mock, whose
// body Dialect.MockBody writes.
type Handler struct {
	Name    string
	Doc     string // "" leaves it out of the interface: flowcrt.Approver answers it
	Sig     Sig
	MockDoc []string // nil: it answers from the mock of its state
	// Kind is the runtime's constant of a task-chain handler's kind
	// (flowcchain.KindChatCompletion...); nil for other handlers.
	Kind *Ref
	// Answer is the one call the mock method returns, for the handlers the
	// mock groups as simple (a target may write them as bulk text); nil:
	// Dialect.MockBody writes the body.
	Answer *MockCall
}

// Entry is an exported method that starts a run.
type Entry struct {
	Name string
	Doc  []string
	Sig  Sig
}

// Sig is a method's parameters after ctx and its results before error, as
// data: the native target writes it through jennifer and the Temporal
// target prints it, so the two always agree.
type Sig struct {
	Params  []Param
	Results []*ir.Type
}

// Param is a named parameter of a Sig.
type Param struct {
	Name string
	Typ  *ir.Type
}

// Types of signatures.
func BasicType(name string) *ir.Type { return &ir.Type{Kind: ir.TypeBasic, Name: name} }
func OwnType(name string) *ir.Type   { return &ir.Type{Kind: ir.TypeNamed, Name: name} }

// RtType is the type name that the runtime's package at path pkg
// (RuntimePath...) exports; Ref says which tests catch a wrong package.
func RtType(pkg, name string) *ir.Type { return &ir.Type{Kind: ir.TypeNamed, Pkg: pkg, Name: name} }

// callSig is (ctx, call T) (result, error), T a type of the users' runtime
// package (flowcrt).
func callSig(call string, result *ir.Type) Sig {
	return Sig{Params: []Param{{"call", RtType(RuntimePath, call)}}, Results: []*ir.Type{result}}
}

// SessionSpec is how a dialect's sessions differ: the state they keep and
// how a run goes on from a checkpoint. Invoke, the runtime's session hooks
// and what runAt does once it has found the step are the dialect's Go
// (Dialect.Invoke, SessionHooks, RunAt).
type SessionSpec struct {
	Value *ir.Type // the state a session keeps
	Input *ir.Type // what an input merged into it is: flowcrt.Sessions' second type argument
	Arg   string   // runAt's name for the state
	// ZeroNil: runAt returns nil for an unknown state, else the state it got.
	ZeroNil bool
	// Schema identifies the shape of the state a checkpoint keeps;
	// SchemaConst, when set, names the constant the dialect declares it in.
	Schema, SchemaConst string
	Doc                 []string   // sessions' doc
	Resume              string     // Resume's doc
	Decides             bool       // a run can stop for a decision, which Decide answers
	Decide              string     // Decide's doc; "": an approval state's
	Out                 SessionOut // what Resume and Decide return; zero: the state
}

// SessionOut is what a session method returns: the session's state, or
// one field of it.
type SessionOut struct {
	Typ   *ir.Type
	Field string
}

// mockSpec is how a dialect's mock handlers differ. Methods the handler
// bodies share are the dialect's Go (Dialect.MockHelpers).
type mockSpec struct {
	Doc          []string
	Caller       string // what calls a handler: "state" or "task"
	Marker       string // a method the runtime looks for, with markerDoc
	MarkerDoc    []string
	StateContext bool // NewMock adds flowcrt.WithStateContext
}
