package ir

// CodeMie holds what a JSON-mode workflow declares beyond its states, as
// CodeMie's configuration reference has it: the assistants, tools and
// custom nodes its states name, and the workflow-level settings.
type CodeMie struct {
	// Assistants, Tools and CustomNodes by id, each as the JSON object the
	// runtime decodes into its typed configuration (flowcrt.JSONAssistant,
	// JSONTool, JSONCustomNode).
	Assistants  map[string]*Config
	Tools       map[string]*Config
	CustomNodes map[string]*Config

	RecursionLimit int // 0: none
	// Summarize is set when the workflow has an assistant state (CodeMie
	// summarizes before every assistant, agent_node.py before_execution):
	// its handlers then summarize the history (flowcrt.Summarizer) once it
	// holds more than MessagesLimit messages or about TokensLimit tokens.
	Summarize     bool
	MessagesLimit int
	TokensLimit   int
	// MaxConcurrency bounds every iteration that sets no bound of its own.
	MaxConcurrency int
	// Settings holds every workflow-level setting as written, for the
	// generated documentation of the workflow.
	Settings []Setting
}

// Config is one entry of `assistants`, `tools` or `custom_nodes`.
type Config struct {
	Pos  Pos
	ID   string
	JSON string // the entry as compact JSON, keys sorted
	// SystemPrompt is an assistant's system prompt parsed as a template.
	SystemPrompt []TemplatePart
	// ToolArgs are a tool's default tool_args, in source order.
	ToolArgs []TemplateArg
	// MCP is set when the entry configures MCP servers (an assistant's
	// mcp_servers, a tool's mcp_server).
	MCP bool
	// Datasources is set when the entry names datasources (datasource_ids
	// of an assistant, or of a custom node's config).
	Datasources bool
}

// MCPHandler is the handler method that reaches MCP servers: the tool
// states whose tool has an mcp_server call it, and the workflow's handlers
// must have it whenever an assistant or tool configures one.
const MCPHandler = "CallMCPTool"

// DatasourceHandler is the handler method that searches a datasource; the
// workflow's handlers must have it when an entry names datasources.
const DatasourceHandler = "SearchDatasource"

// Setting is one workflow-level setting: its key and value as JSON.
type Setting struct {
	Key   string
	Value string
}

// CodeMieState holds a JSON-mode state's CodeMie keys.
type CodeMieState struct {
	Assistant  string // the id under `assistants` the state runs, or ""
	Tool       string // the id under `tools`, or ""
	CustomNode string // the id under `custom_nodes`, or ""

	// OutputSchema is the JSON Schema the output must match, as compact
	// JSON (an example object turned into a schema); OutputSchemaText is
	// output_schema as written.
	OutputSchema     string
	OutputSchemaText string

	Resolve         bool // resolve_dynamic_values_in_prompt
	HumanMessage    bool // result_as_human_message
	InterruptBefore bool // interrupt_before (or wait_for_user_confirmation)
	FinishIteration bool // finish_iteration

	// The context-management flags of `next` (flowcrt.JSONNext).
	NoStore       bool
	NoHistory     bool
	ClearMessages bool
	ClearStore    int // 0 false, 1 true, 2 keep_current
	ResetKeys     []string
	OutputKey     string
	Append        bool
	OverrideTask  bool
	IteratorKeys  []string // nil: all
	HasIterKeys   bool     // include_in_iterator_context was written

	MetaIterStateID string
	MetaNextStateID string

	// MCPServers are the state's own mcp_servers, as compact JSON, for the
	// assistant it runs; "" for none.
	MCPServers string
}
