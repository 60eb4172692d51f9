package ir

// Agent State Language extensions beyond the state types: budgets, memory,
// composition (Include and Workflow states) and distributed Map.

// Budget is a token and cost limit: a workflow's `Budget` or an agent
// task's. A zero limit is no limit.
type Budget struct {
	MaxTokens float64
	MaxCost   float64
	// Continue is OnExceed "Continue": running over is not an error.
	Continue bool
	// UseFallback is OnExceed "UseFallback": running over is not an
	// error, and the agents go on with the last model of Switches.
	UseFallback bool
	// Switches are the workflow's Fallback (one, or its Cascade): the
	// models agents ask once the run has spent part of its budget.
	Switches []ModelSwitch
}

// ModelSwitch is a budget fallback: from the point the run has spent At
// (a fraction) of its limit, agents ask Model. Tokens measures against
// MaxTokens, else against MaxCost (MaxTokens when there is no MaxCost).
// At 0 is "Always".
type ModelSwitch struct {
	At     float64
	Tokens bool
	Model  string
}

// Memory is an agent task's or a Pass state's `Memory`: the keys it reads
// from the memory store into its input, and the values it writes after.
type Memory struct {
	Reads  []*MemoryRead
	Writes []*MemoryWrite
}

// MemoryRead injects stored keys at InjectAt ({"key": value}), Default for
// a missing key.
type MemoryRead struct {
	Keys     []string
	InjectAt *Path     // nil: $._memory
	Default  *Template // a literal; nil: none
}

// MemoryWrite stores Value, evaluated on the state's output, under Key.
type MemoryWrite struct {
	Key   string
	Value *Template
}

// Include is an Include or Workflow state: a sub-workflow compiled into
// Branches[0] of the state, or, when its definition is not at hand, the
// handler of the state.
type Include struct {
	Template string // the import's name, or the WorkflowId
	Inline   bool   // compiled in: Branches[0] is the sub-workflow, its state ids "<this state's id>/<name>"

	// The template parameters an Include gives at run time (`key.$`),
	// evaluated on its effective input; the template reads them as
	// variables of a scope of its own.
	Params *Template
	Checks []ParamCheck // what the template declares of them

	// A Task state that starts a Step Functions execution of a bound
	// definition: its StateMachineArn, and how it waits ("sync",
	// "sync:2", or "" for fire-and-forget).
	StateMachine string
	Wait         string
}

// ParamCheck is what a template declares of a parameter given at run
// time: its JSON Schema type ("" for any) and its Enum, as JSON texts.
type ParamCheck struct {
	Name string
	Type string
	Enum []string
}

// ItemReader is where a distributed Map reads its items: the handlers
// when they implement flowcrt.ItemReader, else the built-in reader of
// local files.
type ItemReader struct {
	Resource     string
	Parameters   *Template // Bucket, Key, Prefix...
	Format       string    // ReaderConfig.InputType: JSON, JSONL, CSV, MANIFEST; "" lists objects
	CSVHeaders   []string  // CSVHeaderLocation GIVEN: the headers
	CSVDelimiter string    // COMMA (default), PIPE, SEMICOLON, SPACE, TAB
	MaxItems     int       // 0: all
	MaxItemsPath *Path
}

// ResultWriter is a distributed Map's ResultWriter.
type ResultWriter struct {
	Resource       string    // "": a WriterConfig alone, the results are the Map's result
	Parameters     *Template // Bucket, Prefix
	OutputType     string    // WriterConfig: JSON or JSONL ("": JSON)
	Transformation string    // WriterConfig: NONE, COMPACT or FLATTEN ("": NONE)
}

// Distributed is what a DISTRIBUTED Map adds to a Map state.
type Distributed struct {
	Reader *ItemReader // nil: the items come from ItemsPath
	Writer *ResultWriter
	Label  string

	Batched         bool // ItemBatcher
	BatchItems      int
	BatchItemsPath  *Path
	BatchBytes      int
	BatchBytesPath  *Path
	BatchInput      *Template
	TolerantPercent float64
	TolerantPctPath *Path
	HasPercent      bool
	TolerantCount   int
	TolerantCntPath *Path
	HasCount        bool
}

// Guardrails are the length, pattern and regex rules of an agent task's
// Guardrails, which flowc applies to the agent's input and output.
type Guardrails struct {
	Input, Output []*GuardRule
}

// GuardRule is one such rule; Pattern is a checked regular expression.
type GuardRule struct {
	Type    string
	Max     int
	Block   []string
	Pattern string
	Action  string
}

// Model is an agent task's `Model`: the model it asks, and the one it asks
// instead when the call fails with an error FallbackOn names.
type Model struct {
	Preferred  string
	Fallback   string   // "": none
	FallbackOn []string // error names as written; empty: any error
}

// Generation is an agent task's `Generation`: its sampling settings, each
// unset when nil or zero.
type Generation struct {
	Temperature   *float64
	TopP          *float64
	MaxTokens     int
	StopSequences []string
}
