// Package ir is the intermediate representation every flowc front-end lowers
// into and the code generator reads. It is plain data: no parsing, no checking,
// no dependency on yaml, expr or jennifer, so codegen never needs a front-end.
package ir

import (
	"fmt"
	"strings"
	"time"
)

// Pos is a position in a definition file. Line and Col are 1-based; the zero
// Pos means "unknown".
type Pos struct {
	File string
	Line int
	Col  int
}

// IsValid reports whether the position names a line.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String renders the position as file:line:col, the prefix of every diagnostic.
func (p Pos) String() string {
	if !p.IsValid() {
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Shift returns the position n columns further along the same line; used to
// point inside an expression scalar.
func (p Pos) Shift(n int) Pos {
	p.Col += n
	return p
}

// Mode says which value model a workflow runs on.
type Mode int

const (
	ModeTyped Mode = iota // a `state:` schema: generated structs and native Go expressions
	ModeJSON              // no schema: a context store of JSON values (CodeMie semantics)
	ModeASL               // Amazon/Agent States Language over JSON values
	ModeChain             // task chain over JSON values and chain variables
)

// EndID is the reserved target that finishes a run.
const EndID = "end"

// Workflow is one compiled definition.
type Workflow struct {
	Pos         Pos
	ID          string // the name as written (`workflow:`), else the file stem; mock configs use it
	Name        string // Go identifier prefix, e.g. "Triage"
	Package     string // Go package of the generated file
	Description string
	Source      string // definition path as given to the compiler, for the header
	Mode        Mode
	Fields      []*Field // typed mode: the state schema, in source order
	Start       Ref
	States      []*State // source order
	Regions     []*Region
	Chain       *ChainInfo // task chains only (see chain.go)
	Subflows    []*Subflow // native: children spliced in place of `flow:` states (see subflow.go)
	// CodeMie is JSON mode's CodeMie configuration (see codemie.go).
	CodeMie *CodeMie

	// statePos remembers where State found each id. Code generation looks
	// up a state for every reference, and a scan per lookup made large
	// workflows quadratic. Every hit is checked against States as it is
	// now, so front-ends may keep changing States.
	statePos map[string]int
}

// State returns the state with the given id, or nil. It is not safe for
// concurrent use on one workflow.
func (w *Workflow) State(id string) *State {
	if i, ok := w.statePos[id]; ok && i < len(w.States) && w.States[i].ID == id {
		return w.States[i]
	}
	w.statePos = make(map[string]int, len(w.States))
	for i := len(w.States) - 1; i >= 0; i-- { // backwards: the first of repeated ids wins
		w.statePos[w.States[i].ID] = i
	}
	if i, ok := w.statePos[id]; ok {
		return w.States[i]
	}
	return nil
}

// Field is one field of a typed state schema.
type Field struct {
	Pos     Pos
	Name    string // as written in the definition; the JSON key
	GoName  string // exported Go identifier
	Type    *Type
	Reducer Reducer
}

// TypeKind classifies a Type.
type TypeKind int

const (
	TypeBasic    TypeKind = iota // Name is a predeclared Go type: string, int, float64, bool, any...
	TypeSlice                    // []Elem
	TypeMap                      // map[Key]Elem
	TypePointer                  // *Elem
	TypeNamed                    // Name is a type declared in the target package
	TypeMessages                 // the runtime's chat history type (runtime.Messages)
	TypeState                    // the workflow's own state struct (the item of a typed `iter_key: .`)
)

// Type is a Go type expression, kept structured so that codegen never pastes a
// string from a definition into Go source.
type Type struct {
	Pos  Pos
	Kind TypeKind
	Name string
	// Pkg is the import path of a named type of another package, which an
	// item type found through a JSON pointer may be; "" means the target
	// package. Schema types never set it.
	Pkg  string
	Key  *Type
	Elem *Type
}

// String renders the type as Go source, for messages.
func (t *Type) String() string {
	switch t.Kind {
	case TypeSlice:
		return "[]" + t.Elem.String()
	case TypeMap:
		return "map[" + t.Key.String() + "]" + t.Elem.String()
	case TypePointer:
		return "*" + t.Elem.String()
	case TypeMessages:
		return "messages"
	case TypeState:
		return "the state"
	}
	if t.Pkg != "" {
		return t.Pkg[strings.LastIndex(t.Pkg, "/")+1:] + "." + t.Name
	}
	return t.Name
}

// ReducerKind names how an update is folded into a field.
type ReducerKind int

const (
	ReduceReplace  ReducerKind = iota // the update replaces the value (default)
	ReduceAppend                      // slices: old followed by new
	ReduceMerge                       // maps: keys of the update win
	ReduceAdd                         // numbers: old + new
	ReduceMessages                    // a message history: append
	ReduceFunc                        // Func(old, new) of the target package
)

// Reducer is a field's reducer.
type Reducer struct {
	Pos  Pos
	Kind ReducerKind
	Func string // ReduceFunc: the Go function name
}

// StateKind classifies a State.
type StateKind int

const (
	StateTask     StateKind = iota // calls a handler
	StateApproval                  // asks a person (approval handler or interruption)
)

// HandlerKind is the shape of a handler's results.
type HandlerKind int

const (
	HandlerUpdate HandlerKind = iota // (Update, error)
	HandlerAction                    // (Update, action string, error): `actions` transitions
	HandlerEval                      // (Update, eval string, error): `branches` transitions
)

// Handler is the user code a state calls.
type Handler struct {
	Pos  Pos
	Name string // exported Go method name
	Kind HandlerKind
	// Builtin is set for a task-chain handler that flowc implements itself;
	// Name is then "", as no user method exists for it.
	Builtin Builtin
}

// Builtin names a task-chain handler that always runs flowc's own code and
// is never mocked.
type Builtin string

const (
	BuiltinNone           Builtin = ""
	BuiltinNoop           Builtin = "noop"             // output = input, eval mirrors it
	BuiltinRaiseError     Builtin = "raise_error"      // the task fails
	BuiltinPromptToString Builtin = "prompt_to_string" // output and eval = the rendered prompt
	BuiltinPromptToInt    Builtin = "prompt_to_int"    // output = the rendered prompt as an integer
)

// State is one node of the workflow graph.
type State struct {
	Pos     Pos
	ID      string
	GoName  string // exported Go identifier derived from ID, unique in the workflow
	Kind    StateKind
	Handler *Handler
	Timeout time.Duration // 0: none
	Retry   []*Retrier
	Catch   []*Catcher
	Next    *Transition

	// JSON mode: templates rendered from the context store. TaskParts is
	// Task parsed (nil when there is no task, and outside JSON mode).
	Task      string
	TaskParts []TemplatePart
	ToolArgs  []TemplateArg

	// Task chains: a Go text/template rendered against the chain variables.
	PromptTemplate string
	Chain          *ChainTask // task chains: the task's other fields (see chain.go)

	// ASL: the state's States Language details (see asl.go).
	ASL *ASLState

	// Native StateApproval: what the person is asked. Such a state calls no
	// handler; its `next` expressions may name the variable `decision`.
	Approval *Approval

	// JSON mode: the state's CodeMie keys (see codemie.go); nil for none.
	CodeMie *CodeMieState
}

// TemplateArg is one `tool_args` entry, kept in source order.
type TemplateArg struct {
	Pos   Pos
	Name  string
	Value string
	Parts []TemplatePart // JSON mode: Value parsed
	// JSON is, in JSON mode, a value that is no string or number (a list,
	// a mapping, a boolean, null) as compact JSON; its strings are
	// templates rendered at run time. Value and Parts are then empty.
	JSON string
}

// TemplatePart is one piece of a JSON-mode template: literal Text, or, when
// Ref is set, the reference {{Ref}} as written in Text. `task` names the
// task input; any other name a key of the context store.
type TemplatePart struct {
	Text string
	Ref  string
}

// Retrier retries a failed handler call whose error matches Errors.
type Retrier struct {
	Pos         Pos
	Errors      []string // error names: Timeout, TaskFailed, ALL or user names
	MaxAttempts int      // total attempts, the first included
	Interval    time.Duration
	BackoffRate float64
	MaxDelay    time.Duration // 0: no cap
	Jitter      bool          // full jitter: a random delay in [0, computed delay]
}

// Catcher sends a failure that retries did not cure to another state.
type Catcher struct {
	Pos    Pos
	Errors []string
	Next   Ref
}

// Ref is a reference to a state by id, with the position of the reference.
// ID is EndID for "finish the run".
type Ref struct {
	Pos Pos
	ID  string
}

// IsEnd reports whether the reference finishes the run.
func (r Ref) IsEnd() bool { return r.ID == EndID }

// TransitionKind classifies a Transition.
type TransitionKind int

const (
	TransEnd       TransitionKind = iota // the run finishes after this state
	TransGoto                            // To
	TransCondition                       // Cond ? Then : Otherwise
	TransSwitch                          // first true case, else Default
	TransActions                         // the handler's action string picks a target
	TransBranches                        // the handler's eval string against operators
	TransParallel                        // Targets, then Region: branches that join
	TransMap                             // Region: a chain run once per item, starting at To
)

// Transition picks the state after a state.
type Transition struct {
	Pos  Pos
	Kind TransitionKind

	To Ref // TransGoto, TransMap (the first state of the iteration chain)

	// Iter is the `iter_key` of a `state_id` transition that starts or
	// continues an iteration chain; nil otherwise. The front-end turns the
	// transition that starts a chain into TransMap; the transitions that
	// continue it stay TransGoto, inside the region's Body.
	Iter *Iter

	Targets []Ref // TransParallel: the first state of each branch, in declaration order

	Cond      *Expr // TransCondition
	Then      Ref
	Otherwise Ref

	Cases   []*Case // TransSwitch
	Default *Ref    // TransSwitch (required), TransActions (optional)

	Actions []*Action // TransActions

	Branches  []*Branch // TransBranches
	OnFailure *Ref      // TransBranches: taken when the handler errors

	Region *Region // TransParallel, TransMap
}

// Case is one `switch` case.
type Case struct {
	Pos  Pos
	Cond *Expr
	To   Ref
	// Iter is, in JSON mode, the case's iter_key: the switch is inside an
	// iteration chain, which goes on at To (see Region).
	Iter *Iter
}

// Action maps one action string to a target.
type Action struct {
	Pos  Pos
	Name string
	To   Ref
}

// Operator is a task-chain branch operator.
type Operator string

const (
	OpEquals     Operator = "equals"
	OpContains   Operator = "contains"
	OpStartsWith Operator = "starts_with"
	OpEndsWith   Operator = "ends_with"
	OpGreater    Operator = ">"
	OpLess       Operator = "<"
	OpInRange    Operator = "in_range"
	OpDefault    Operator = "default"
)

// Branch matches the handler's eval string.
type Branch struct {
	Pos      Pos
	Operator Operator
	When     string
	// Num and Min/Max hold `when` parsed for >, < (Num) and in_range (Min, Max).
	Num, Min, Max float64
	To            Ref
	Compose       *Compose
	Edge          *Edge // edge_traversed_at_least (see chain.go)
}

// Compose stores a task's output into a chain variable when a branch is taken.
type Compose struct {
	Pos      Pos
	WithVar  string
	Strategy string // "" (auto), override, merge_chat_histories, append_string_to_chat_history
}

// Iter is the `iter_key` of a transition, with its `max_concurrency`.
type Iter struct {
	Pos Pos    // of the iter_key value
	Key string // as written: a field name, "." or an RFC 6901 JSON pointer
	// Path is Key decoded: [Key] for a field name, nil for ".", the
	// unescaped reference tokens of a JSON pointer ("/a~1b/0" → ["a/b", "0"]).
	Path           []string
	MaxConcurrency int // 0: no bound
	// MaxConcurrencyPos is where max_concurrency was written; zero when absent.
	MaxConcurrencyPos Pos
}

// RegionKind classifies a fan-out Region.
type RegionKind int

const (
	RegionParallel RegionKind = iota // fixed branches, joined at Join
	RegionMap                        // Body run once per item of Items
)

// Region is a structured fan-out: the front-ends lower implicit fan-out
// (`state_ids`, `iter_key`, ASL Parallel and Map) into one of these. The
// states of its branches or body belong to the region alone: only the
// transition that opens it enters them, and they leave only for Join or
// After. Each branch or item runs on its own copy of the state; what its
// states return is applied to the state that opened the region when all of
// them have finished, in branch declaration order or item order.
//
// The structure is the same in every mode. Typed code generation also needs
// where the items come from and their type, which the checker derives from
// the state schema (Checked.Items).
// JSON mode needs no types: it evaluates ItemsPath at run time against the
// parsed output of the state that opens the region (Items "." is that whole
// output, a field name is a key of it, a pointer is resolved by RFC 6901),
// wraps a non-list as a one-item list, and merges the branches' context
// stores and histories in the same order typed mode applies updates.
type Region struct {
	Pos  Pos
	Kind RegionKind
	From string // the state whose transition opens the region

	Branches [][]Ref // RegionParallel: each branch's states, entry first, then in source order
	Join     Ref     // RegionParallel: the first state every branch reaches; EndID when they all end the run

	Items          string   // RegionMap: field name, "." or a JSON pointer
	ItemsPos       Pos      // RegionMap: where Items was written
	ItemsPath      []string // RegionMap: Items decoded, as Iter.Path
	Body           []Ref    // RegionMap: the iteration chain, entry first, in chain order
	After          Ref      // RegionMap: the state after the chain; EndID when the run ends there
	MaxConcurrency int      // RegionMap: 0 means no bound
}

// Contains reports whether the state id is inside the region: in one of its
// branches or in its body. Join, After and From are outside.
func (r *Region) Contains(id string) bool {
	for _, b := range r.Branches {
		if refsContain(b, id) {
			return true
		}
	}
	return refsContain(r.Body, id)
}

func refsContain(refs []Ref, id string) bool {
	for _, ref := range refs {
		if ref.ID == id {
			return true
		}
	}
	return false
}

// RegionOf returns the region whose branches or body hold the state id, or
// nil when the state runs on the workflow's own state.
func (w *Workflow) RegionOf(id string) *Region {
	for _, r := range w.Regions {
		if r.Contains(id) {
			return r
		}
	}
	return nil
}

// AccessKind classifies one step of a compiled item source.
type AccessKind int

const (
	AccessField AccessKind = iota // Name: a struct field by its Go name; the first step is a state field
	AccessKey                     // Key: the entry of a map with string keys; it must exist
	AccessIndex                   // Index: an element of a list; it must exist
	AccessDeref                   // the value a pointer points to; it must not be nil
)

// Access is one step from the state to the items of a map region, compiled
// from a field name or JSON pointer so that codegen emits plain Go
// selectors and index expressions, with no pointer walk at run time.
type Access struct {
	Kind    AccessKind
	Name    string // AccessField
	Key     string // AccessKey
	Index   int    // AccessIndex
	Pointer string // the JSON pointer up to this step, for run-time errors
}

// HasDefaultBranch reports whether a branches transition has a default
// branch, taken when no other matches.
func (t *Transition) HasDefaultBranch() bool {
	for _, br := range t.Branches {
		if br.Operator == OpDefault {
			return true
		}
	}
	return false
}

// RefIDs lists the ids refs name, in order.
func RefIDs(refs []Ref) []string {
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = r.ID
	}
	return out
}
