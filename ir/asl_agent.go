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
	Inline   bool   // compiled in: Branches[0] is the sub-workflow
}

// ItemReader is where a distributed Map reads its items: the handler of
// the state (a Resource) or, for Resource "flowc:file", the built-in
// reader of local JSON, JSONL and CSV files.
type ItemReader struct {
	Resource   string
	Handler    *Handler  // nil for the built-in reader
	Parameters *Template // the reader's Parameters (Bucket, Key, ...)
	Format     string    // ReaderConfig.InputType: JSON, JSONL, CSV, MANIFEST
	CSVHeaders []string  // ReaderConfig.CSVHeaders, when given
	FirstRow   bool      // CSVHeaderLocation FIRST_ROW (the default)
	MaxItems   int       // ReaderConfig.MaxItems; 0: all
}

// ResultWriter is a distributed Map's ResultWriter: a handler that gets
// each child's result as it completes, then the summary.
type ResultWriter struct {
	Resource   string
	Handler    *Handler
	Parameters *Template
}

// Distributed is what a DISTRIBUTED Map adds to a Map state.
type Distributed struct {
	Reader               *ItemReader // nil: the items come from ItemsPath
	BatchMaxItems        int
	BatchMaxItemsPath    *Path
	BatchInput           *Template // ItemBatcher.BatchInput
	ToleratedPercent     float64
	ToleratedPercentPath *Path
	ToleratedCount       int
	ToleratedCountPath   *Path
	Writer               *ResultWriter
	Label                string
}
