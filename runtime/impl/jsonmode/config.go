package jsonmode

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The CodeMie configuration a JSON-mode state runs with, typed so that a
// handler can act on it: the assistant, tool or custom node the state
// names, with every field of the configuration reference. Generated code
// declares each one once, decoded from the JSON the compiler wrote after it
// checked every field; handlers get the same value and must not change it.

// JSONAssistant is an entry of the workflow's `assistants:`.
type JSONAssistant struct {
	ID          string `json:"id"`
	AssistantID string `json:"assistant_id,omitempty"` // an existing assistant, instead of an inline one
	Name        string `json:"name,omitempty"`
	Model       string `json:"model,omitempty"`
	// Temperature is nil when the definition leaves it to the model.
	Temperature *float64 `json:"temperature,omitempty"`
	// SystemPrompt is as written; JSONCall.SystemPrompt is what the state
	// renders of it.
	SystemPrompt             string              `json:"system_prompt,omitempty"`
	Tools                    []JSONAssistantTool `json:"tools,omitempty"`
	DatasourceIDs            []string            `json:"datasource_ids,omitempty"`
	SkillIDs                 []string            `json:"skill_ids,omitempty"`
	LimitToolOutputTokens    int                 `json:"limit_tool_output_tokens,omitempty"` // 0: the default, 10000
	ExcludeExtraContextTools bool                `json:"exclude_extra_context_tools,omitempty"`
	MCPServers               []MCPServer         `json:"mcp_servers,omitempty"`
}

// JSONAssistantTool is a tool an assistant may use.
type JSONAssistantTool struct {
	Name             string `json:"name"`
	IntegrationAlias string `json:"integration_alias,omitempty"`
}

// MCPServer configures a Model Context Protocol server, for an assistant
// or a tool. Command-based servers set Config.Command, remote ones
// Config.URL; Command and Arguments are the older top-level spelling.
type MCPServer struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Enabled is nil when not written, which CodeMie takes as true.
	Enabled                         *bool            `json:"enabled,omitempty"`
	Config                          *mcpServerConfig `json:"config,omitempty"`
	MCPConfigID                     string           `json:"mcp_config_id,omitempty"`
	UseCustomConfig                 bool             `json:"use_custom_config,omitempty"`
	MCPConnectURL                   string           `json:"mcp_connect_url,omitempty"`
	ToolsTokensSizeLimit            int              `json:"tools_tokens_size_limit,omitempty"`
	Command                         string           `json:"command,omitempty"`
	Arguments                       string           `json:"arguments,omitempty"`
	IntegrationAlias                string           `json:"integration_alias,omitempty"`
	ResolveDynamicValuesInArguments bool             `json:"resolve_dynamic_values_in_arguments,omitempty"`
	Tools                           []string         `json:"tools,omitempty"` // empty: every tool of the server
	// Settings and MCPConnectAuthToken are CodeMie integration settings,
	// as written.
	Settings            any `json:"settings,omitempty"`
	MCPConnectAuthToken any `json:"mcp_connect_auth_token,omitempty"`
}

// mcpServerConfig is how an MCP server is started or reached.
type mcpServerConfig struct {
	Command     string            `json:"command,omitempty"`
	Args        []string          `json:"args,omitempty"`
	Env         map[string]string `json:"env,omitempty"`
	URL         string            `json:"url,omitempty"`
	Headers     map[string]string `json:"headers,omitempty"`
	Type        string            `json:"type,omitempty"` // "streamable-http"; empty for stdio and SSE
	AuthToken   string            `json:"auth_token,omitempty"`
	SingleUsage bool              `json:"single_usage,omitempty"`
}

// JSONTool is an entry of the workflow's `tools:`. Its tool_args are the
// defaults the state's own tool_args override; the compiler merged them
// into the state's arguments.
type JSONTool struct {
	ID               string         `json:"id"`
	Tool             string         `json:"tool"`
	ToolArgs         map[string]any `json:"tool_args,omitempty"`
	IntegrationAlias string         `json:"integration_alias,omitempty"`
	// ResultPointer (tool_result_json_pointer) selects the part of the
	// output that the state keeps; the runtime applies it.
	ResultPointer string `json:"tool_result_json_pointer,omitempty"`
	Trace         bool   `json:"trace,omitempty"`
	// ResolveResponse (resolve_dynamic_values_in_response) renders the
	// output's {{references}} from the context store; the runtime applies it.
	ResolveResponse bool       `json:"resolve_dynamic_values_in_response,omitempty"`
	MCPServer       *MCPServer `json:"mcp_server,omitempty"`
	InputKey        string     `json:"input_key,omitempty"`
	TokensSizeLimit int        `json:"tokens_size_limit,omitempty"`
	Toolset         string     `json:"toolset,omitempty"` // the toolkit, in older CodeMie files
}

// JSONCustomNode is an entry of the workflow's `custom_nodes:`: a node
// type (CustomNodeID, such as state_processor_node or transform_node) and
// its node-specific Config, as written.
type JSONCustomNode struct {
	ID           string         `json:"id"`
	CustomNodeID string         `json:"custom_node_id"`
	Name         string         `json:"name,omitempty"`
	Model        string         `json:"model,omitempty"`
	SystemPrompt string         `json:"system_prompt,omitempty"`
	Config       map[string]any `json:"config,omitempty"`
}

// DecodeConfig decodes configuration JSON that the compiler wrote and
// checked; it panics on JSON that does not fit T, which only a generator
// and runtime out of step can produce.
func DecodeConfig[T any](text string) *T {
	v := new(T)
	dec := json.NewDecoder(strings.NewReader(text))
	dec.DisallowUnknownFields() // a key the compiler knows but T does not would be lost
	if err := dec.Decode(v); err != nil {
		panic(fmt.Sprintf("flowc: generated configuration does not decode: %v", err))
	}
	return v
}
