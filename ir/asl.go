package ir

import "time"

// The Amazon/Agent States Language (ASL) part of the IR. An ASL workflow's
// top-level states are Workflow.States; each carries its ASL details in
// State.ASL. Parallel branches and Map iterators are nested Machines, and
// each also appears in Workflow.Regions. Paths, payload templates, choice
// rules and intrinsic calls are kept as trees, so that codegen emits them as
// Go values and nothing is parsed at run time.

// ASLType is the `Type` of an ASL state.
type ASLType string

const (
	ASLTask       ASLType = "Task"
	ASLPass       ASLType = "Pass"
	ASLChoice     ASLType = "Choice"
	ASLWait       ASLType = "Wait"
	ASLSucceed    ASLType = "Succeed"
	ASLFail       ASLType = "Fail"
	ASLMap        ASLType = "Map"
	ASLParallel   ASLType = "Parallel"
	ASLApproval   ASLType = "Approval"
	ASLDebate     ASLType = "Debate"
	ASLCheckpoint ASLType = "Checkpoint"
	ASLInclude    ASLType = "Include"
	ASLWorkflow   ASLType = "Workflow"
)

// Machine is a scope of states: the whole state machine, a Parallel branch
// or a Map iterator.
type Machine struct {
	Pos    Pos
	Start  Ref
	States []*State // source order
}

// ASLState holds what an ASL state has beyond the shared State fields. The
// state's Next transition is TransEnd, TransGoto, or TransSwitch for Choice
// and routed Approval states (Cases carry no Cond; Rules below do).
type ASLState struct {
	Type    ASLType
	Comment string

	InputPath      *PathField // nil: absent ("$")
	Parameters     *Template  // Parameters, or ItemSelector of a Map
	ResultSelector *Template
	ResultPath     *PathField
	OutputPath     *PathField
	CatchPaths     []*PathField // ResultPath of each Catcher, in order

	Result *Template // Pass: the Result value (a literal template)

	Resource string // Task: the Resource, or "" for an agent task
	Agent    *Agent // Task: the agent of an agent task

	TimeoutPath *Path         // Task: TimeoutSecondsPath
	Heartbeat   time.Duration // Task: HeartbeatSeconds, which bounds a .waitForTaskToken wait between heartbeats
	// Task: HeartbeatSecondsPath, or a JSONata HeartbeatSeconds expression.
	HeartbeatPath *Path
	HeartbeatExpr *Template

	Rules []*ChoiceRule // Choice, Approval: top-level rules, one per Case

	Wait *Wait

	Error, Cause         string // Fail
	ErrorPath, CausePath *Path  // Fail

	ItemsPath          *Path      // Map
	MaxConcurrency     int        // Map: 0 means no bound
	MaxConcurrencyPath *Path      // Map
	Branches           []*Machine // Parallel branches, or the Map iterator alone

	Approval   *Approval
	Debate     *Debate
	Checkpoint string // Checkpoint: its Name

	// Fail: ErrorPath and CausePath given as an intrinsic function call.
	ErrorCall, CauseCall *Intrinsic

	// Variables and JSONata (QueryLanguage). Assign is an object template
	// whose keys are variable names; in a JSONPath state it reads the
	// state's result as `$`. A JSONata state has Arguments and Output
	// instead of the five path fields; its Map reads Items, and its Wait,
	// Fail, Task timeout and Map concurrency fields may be expressions.
	JSONata         bool
	Assign          *Template
	Arguments       *Template
	Output          *Template
	CatchAssign     []*Template // of each Catcher, in order (nil: none)
	CatchOutput     []*Template // JSONata: Output of each Catcher
	Items           *Template   // JSONata Map: the items
	ErrorExpr       *Template   // JSONata Fail: Error
	CauseExpr       *Template   // JSONata Fail: Cause
	SecondsExpr     *Template   // JSONata Wait: Seconds
	TimestampExpr   *Template   // JSONata Wait: Timestamp
	TimeoutExpr     *Template   // JSONata Task: TimeoutSeconds
	ConcurrencyExpr *Template   // JSONata Map: MaxConcurrency

	// Agent State Language extensions (see ir/asl_agent.go).
	Memory      *Memory      // Task with Agent, Pass
	Include     *Include     // Include and Workflow states
	Distributed *Distributed // Map in DISTRIBUTED mode
}

// PathField is InputPath, ResultPath or OutputPath as written: a path, or
// JSON null (Null), which discards the input or result.
type PathField struct {
	Pos  Pos
	Null bool
	Path *Path
}

// SegmentKind classifies one step of a reference path.
type SegmentKind int

const (
	SegField SegmentKind = iota // .name or ['name']
	SegIndex                    // [n]; negative counts from the end
)

// Path is a JSONPath: $ (the input) or $$ (the context object) or $name (a
// variable), which the runtime evaluates as Jayway JsonPath does. Only a
// reference path (ResultPath), which names one node to set, keeps its
// steps in Segments.
type Path struct {
	Pos      Pos
	Source   string
	Context  bool // $$
	Segments []Segment
	Var      string // $name: the path reads the variable name
}

// Segment is one step of a reference path.
type Segment struct {
	Kind  SegmentKind
	Name  string // SegField
	Index int    // SegIndex
}

// TemplateKind classifies a Template node.
type TemplateKind int

const (
	TmplValue     TemplateKind = iota // Value: null, a boolean, a number or a string
	TmplObject                        // Fields, in source order
	TmplArray                         // Items
	TmplPath                          // Path: a "key.$" path
	TmplIntrinsic                     // Call: a "key.$" intrinsic function call
	TmplJSONata                       // JSONata: a "{% expression %}" string
)

// Template is a payload template (Parameters, ItemSelector,
// ResultSelector) or a Pass Result.
type Template struct {
	Pos    Pos
	Kind   TemplateKind
	Value  any // nil, bool, float64 or string
	Fields []*TemplateField
	Items  []*Template
	Path   *Path
	Call   *Intrinsic
	// JSONata is the expression of a TmplJSONata node.
	JSONata *JSONata
}

// JSONata is a JSONata expression, checked when compiled. Simple says
// whether it is a plain path, Root (`$states.input`, `$states.result`,
// `$states.errorOutput`, `$states.context`, or a variable `$name`) then
// Fields, which generated code follows without a JSONata evaluator.
type JSONata struct {
	Pos    Pos
	Source string // without the {% %} delimiters
	Simple bool
	Root   string // "input", "result", "errorOutput", "context", or "$name"
	Fields []string
}

// TemplateField is one member of an object template; Key has lost its
// ".$" suffix.
type TemplateField struct {
	Pos   Pos
	Key   string
	Value *Template
}

// Intrinsic is a call of an intrinsic function such as States.Format.
type Intrinsic struct {
	Pos  Pos
	Name string // "States.Format"
	Args []*IntrinsicArg
}

// IntrinsicArg is an argument: a literal, a path or a nested call.
type IntrinsicArg struct {
	Pos   Pos
	Value any // a literal: string, float64, bool or nil
	Path  *Path
	Call  *Intrinsic
	// Pieces is a literal States.Format template cut at its {}
	// placeholders, escapes resolved; a template of n placeholders has n+1.
	Pieces []string
}

// ChoiceRule is a Choice rule: And, Or, Not, or one comparison of Variable.
type ChoiceRule struct {
	Pos      Pos
	Op       string // "And", "Or", "Not", or a comparison such as "StringEquals"
	Args     []*ChoiceRule
	Variable *Path
	Value    any        // the literal operand: string, float64 or bool
	Other    *Path      // the operand of a ...Path comparison
	Call     *Intrinsic // `Variable.$`: an intrinsic call in place of Variable
	Fixed    *bool      // the outcome, known when compiled: a template parameter made Variable a constant

	Condition *Template // JSONata: the Condition of a top-level rule
	Assign    *Template // a top-level rule's Assign
	Output    *Template // JSONata: a top-level rule's Output
}

// Wait is how long a Wait state waits: exactly one field is set.
type Wait struct {
	Seconds       *float64
	Timestamp     string
	SecondsPath   *Path
	TimestampPath *Path
}

// Agent is the agent of an agent Task, with its agent-specific fields as
// JSON values (nil when absent).
type Agent struct {
	Pos        Pos
	Name       string
	Memory     any
	Context    any
	Tools      any
	Budget     any
	Guardrails any
	Reasoning  any
	Limit      *Budget     // the task's Budget limits; nil: none
	RunLimit   *Budget     // the workflow's Budget; nil: none
	Guards     *Guardrails // the Guardrails rules flowc applies; nil: none
	Model      *Model      // nil: the handler picks
	Generation *Generation // nil: the model's defaults
}

// Approval is an Approval state's request.
type Approval struct {
	Prompt     string
	Options    []string
	Timeout    time.Duration
	Escalation any
	// PromptTemplate is a structured (`Prompt` object) or computed
	// (`Prompt.$`) prompt, evaluated on the state's input.
	PromptTemplate *Template
}

// Debate is a Debate state's setup.
type Debate struct {
	Agents        []*Handler // the agents' handlers, in order
	Names         []string   // the agents' names as written, in order
	Topic         string
	TopicPath     *Path
	Rounds        int
	Communication any
	Consensus     any
}

// AllStates lists states and every state nested in their branches and
// iterations, nested ones right after the state that holds them, in source
// order.
func AllStates(states []*State) []*State { return appendAllStates(nil, states) }

// appendAllStates appends to out rather than copying each branch's list
// into its parent's, which costs the square of the depth.
func appendAllStates(out, states []*State) []*State {
	for _, s := range states {
		out = append(out, s)
		if s.ASL == nil {
			continue // no dialect but the States Language nests machines
		}
		for _, m := range s.ASL.Branches {
			out = appendAllStates(out, m.States)
		}
	}
	return out
}
