package jsonmode

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Every key of the configuration reference decodes into the typed
// configuration; an unknown one is a generator bug and panics.
func TestDecodeConfig(t *testing.T) {
	a := DecodeConfig[JSONAssistant](`{"id": "a", "assistant_id": "x", "name": "A", "model": "m", "temperature": 0.5,
		"system_prompt": "p", "tools": [{"name": "t", "integration_alias": "i"}], "datasource_ids": ["d"], "skill_ids": ["s"],
		"limit_tool_output_tokens": 5, "exclude_extra_context_tools": true,
		"mcp_servers": [{"name": "fs", "description": "d", "enabled": false, "config": {"command": "npx", "args": ["-y"],
			"env": {"K": "V"}, "url": "u", "headers": {"H": "v"}, "type": "streamable-http", "auth_token": "t", "single_usage": true},
			"mcp_config_id": "c", "use_custom_config": true, "mcp_connect_url": "u", "tools_tokens_size_limit": 3, "command": "uvx",
			"arguments": "a", "integration_alias": "i", "resolve_dynamic_values_in_arguments": true, "tools": ["x"],
			"settings": {"id": 1}, "mcp_connect_auth_token": "tok"}]}`)
	assert.Equal(t, 0.5, *a.Temperature)
	assert.Equal(t, "npx", a.MCPServers[0].Config.Command)
	assert.False(t, *a.MCPServers[0].Enabled)

	tool := DecodeConfig[JSONTool](`{"id": "t", "tool": "x", "tool_args": {"a": 1}, "integration_alias": "i",
		"tool_result_json_pointer": "/a", "trace": true, "resolve_dynamic_values_in_response": true, "mcp_server": {"name": "s"},
		"input_key": "k", "tokens_size_limit": 2, "toolset": "Plugin"}`)
	assert.Equal(t, "/a", tool.ResultPointer)

	node := DecodeConfig[JSONCustomNode](`{"id": "n", "custom_node_id": "transform_node", "name": "N", "model": "m",
		"system_prompt": "p", "config": {"mappings": []}}`)
	assert.Equal(t, "transform_node", node.CustomNodeID)

	assert.Panics(t, func() { DecodeConfig[JSONTool](`{"id": "t", "unknown": 1}`) })
}
