package ir

import "time"

// ChainInfo is what a contenox task chain declares about itself beyond
// the shared Workflow fields.
type ChainInfo struct {
	ID         string // the chain's `id`, "" when absent
	TokenLimit int    // token budget for the chat history; 0: unset
	Debug      bool
}

// ChainHandlerKind says which documented handler a task names, and so the
// signature of its Go method. The zero kind is a method of the user's own
// name: (ChainCall) (ChainResult, error).
type ChainHandlerKind int

const (
	ChainChatCompletion   ChainHandlerKind = iota + 1 // chat_completion: an LLM call over the chat history
	ChainExecuteToolCalls                             // execute_tool_calls: runs the tool calls of a history
	ChainTools                                        // tools: one direct tool call
	ChainHook                                         // hook: the older name of a direct external call
	ChainRoute                                        // route: the model picks one of the branch labels
	ChainConditionKey                                 // condition_key: the model checks valid_conditions
	ChainPromptToString                               // prompt_to_string with a model: its answer, as text
	ChainPromptToInt                                  // prompt_to_int with a model: its answer, as an integer
)

// chainKinds maps the documented handlers, by Go method name, to their
// kind; prompt_to_string and prompt_to_int are user methods only when they
// ask a model.
var chainKinds = map[string]ChainHandlerKind{
	"ChatCompletion":   ChainChatCompletion,
	"ExecuteToolCalls": ChainExecuteToolCalls,
	"Tools":            ChainTools,
	"Hook":             ChainHook,
	"Route":            ChainRoute,
	"ConditionKey":     ChainConditionKey,
	"PromptToString":   ChainPromptToString,
	"PromptToInt":      ChainPromptToInt,
}

// ChainKindOf is the kind of a task-chain user handler's Go method name:
// the name alone decides it, so all tasks calling a method agree.
func ChainKindOf(method string) ChainHandlerKind { return chainKinds[method] }

// ChainTask is what a task-chain task carries beyond the shared State
// fields (Timeout, PromptTemplate, Handler, Next).
type ChainTask struct {
	Kind              ChainHandlerKind
	Description       string
	SystemInstruction string
	Print             string
	OutputTemplate    string
	InputVar          *Ref // nil: the previous task's output
	InputMaxBytes     int  // 0: no cap
	RetryOnFailure    int  // extra attempts after a failure
	Exec              *ExecuteConfig
	Tools             *ToolsCall // `tools`, or the older `hook`
	ValidConditions   []string   // condition_key, sorted
	Labels            []string   // route: the `when` of its equals branches, in order
}

// ExecuteConfig is a task's `execute_config`, handed to its handler.
// Strings may hold macros, expanded when the task runs.
type ExecuteConfig struct {
	Model            string
	Models           []string
	Provider         string
	Providers        []string
	Temperature      *float64
	Tools            []string
	ToolsSet         bool // `tools` was given: absent or null grants none
	HideTools        []string
	ToolsPolicies    map[string]map[string]string
	PassClientsTools bool
	Think            string
	MaxTokens        string // an integer or a macro such as {{var:max_tokens|8192}}
	Shift            bool
	Retry            *LLMRetry
	Compact          *CompactPolicy
}

// LLMRetry is `execute_config.retry_policy`.
type LLMRetry struct {
	MaxAttempts      int
	InitialBackoff   time.Duration
	MaxBackoff       time.Duration
	Jitter           float64
	RateLimitMinWait time.Duration
	FallbackModel    string
	FallbackAfter    int
}

// CompactPolicy is `execute_config.compact_policy`.
type CompactPolicy struct {
	Model               string
	Provider            string
	TriggerFraction     float64
	KeepRecent          int
	MinReplacedMessages int
	MaxFailures         int
}

// ToolsCall is a `tools` (or `hook`) block: one tool of one provider.
type ToolsCall struct {
	Name     string
	ToolName string
	Args     map[string]string
}

// OpEdgeTraversedAtLeast fires once the branch's Edge has been taken When
// times in the run; it reads the run's edge counts, not the eval string.
const OpEdgeTraversedAtLeast Operator = "edge_traversed_at_least"

// Edge is the `edge` of an edge_traversed_at_least branch: "from->to".
type Edge struct {
	Pos      Pos
	From, To string
	Count    int // the `when` threshold
}
