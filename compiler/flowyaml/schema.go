package flowyaml

import (
	"slices"

	"github.com/flowc-dev/flowc/internal/schemagen"
)

// Schema returns the JSON Schema (draft 2020-12) of flowc's YAML workflows,
// typed and JSON mode (CodeMie's configuration, bare or in a CodeMie
// workflow file's `execution_config:`), made from the key tables the
// front-end reads with. It checks keys and value types; meaning (targets,
// expressions, which keys go together) stays the compiler's, so the schema
// accepts every definition flowc does, and some it rejects.
func Schema() ([]byte, error) {
	b := &schemagen.Builder{}
	s := schemagen.String
	defs := map[string]any{
		"workflow":    workflowSchema(b),
		"state":       stateSchema(b),
		"next":        nextSchema(b),
		"retrier":     b.Object("a retry rule", retrierKeys, map[string]any{"errors": schemagen.Strings, "max_attempts": schemagen.Integer, "interval": schemagen.Duration, "backoff_rate": schemagen.Number, "max_delay": schemagen.Duration, "jitter": map[string]any{"type": []string{"boolean", "string"}}}),
		"catcher":     b.Object("a catch rule", catcherKeys, map[string]any{"errors": schemagen.Strings, "next": s}, "next"),
		"condition":   b.Object("condition", conditionKeys, map[string]any{"expression": s, "then": s, "otherwise": s}, conditionKeys...),
		"switch":      b.Object("switch", switchKeys, map[string]any{"cases": schemagen.ArrayOf(schemagen.Ref("case")), "default": s}, switchKeys...),
		"case":        b.Object("a switch case", caseKeys, map[string]any{"condition": s, "state_id": s, "iter_key": s}, "condition", "state_id"),
		"branch":      b.Object("a branch", branchKeys, map[string]any{"operator": schemagen.Enum(operators...), "when": s, "goto": s, "compose": schemagen.Ref("compose")}, "operator", "goto"),
		"compose":     b.Object("compose", composeKeys, map[string]any{"with_var": s, "strategy": s}, "with_var"),
		"field":       b.Object("a field", fieldKeys, map[string]any{"type": s, "reducer": s}, "type"),
		"retryPolicy": fieldsSchema(b, "retry_policy", retryFields),
		"codemieFile": codemieFileSchema(b),
	}
	// A CodeMie workflow file wraps the configuration; anything else is one.
	root := map[string]any{
		"if":   map[string]any{"type": "object", "required": []string{"execution_config"}},
		"then": schemagen.Ref("codemieFile"),
		"else": schemagen.Ref("workflow"),
	}
	return b.Document("flowc YAML workflow (typed or CodeMie JSON mode)", root, defs)
}

func workflowSchema(b *schemagen.Builder) map[string]any {
	s := schemagen.String
	types := map[string]any{
		"workflow": s, "package": s, "description": s, "start": s,
		"state":  schemagen.MapOf(map[string]any{"anyOf": []any{s, schemagen.Ref("field")}}),
		"states": map[string]any{"type": "array", "minItems": 1, "items": schemagen.Ref("state")},
		// CodeMie's configuration (JSON mode), as settings reads it.
		"assistants":   schemagen.ArrayOf(fieldsSchema(b, "an assistant", assistantFields)),
		"tools":        schemagen.ArrayOf(fieldsSchema(b, "a tool", toolFields)),
		"custom_nodes": schemagen.ArrayOf(fieldsSchema(b, "a custom node", customNodeFields)),
		"retry_policy": schemagen.Ref("retryPolicy"),
	}
	positive := map[string]any{"type": "integer", "minimum": 1}
	for _, k := range []string{"messages_limit_before_summarization", "tokens_limit_before_summarization", "recursion_limit",
		"max_concurrency", "max_iteration_key_output_limit", "limit_tool_output_tokens"} {
		types[k] = positive
	}
	for _, k := range []string{"enable_summarization_node", "verbose", "shared"} {
		types[k] = schemagen.Boolean
	}
	for _, k := range []string{"type", "name", "mode", "slug", "icon_url", "project", "supervisor_prompt", "start_hint"} {
		types[k] = s
	}
	// No key is required: a CodeMie supervisor (mode: Autonomous, which
	// may sit outside execution_config) has assistants and no states;
	// flowc check says what a definition lacks.
	return b.Object("the workflow", append(slices.Clip(topKeys), codemieTopKeys...), types)
}

func stateSchema(b *schemagen.Builder) map[string]any {
	s := schemagen.String
	types := map[string]any{
		"id": s, "type": schemagen.Enum(stateTypes...), "description": s, "handler": s, "assistant_id": s,
		"tool_id": s, "task": s, "prompt": s, "flow": s, "timeout": schemagen.Duration, "end": schemagen.Boolean,
		"tool_args": map[string]any{"type": "object"}, // strings when typed, any JSON value in JSON mode
		"options":   map[string]any{"type": "array", "minItems": 1, "items": s},
		"retry":     schemagen.ArrayOf(schemagen.Ref("retrier")),
		"catch":     schemagen.ArrayOf(schemagen.Ref("catcher")),
		"next":      schemagen.Ref("next"),
		// CodeMie's state keys (JSON mode).
		"mcp_servers": schemagen.ArrayOf(fieldsSchema(b, "an MCP server", mcpFields)), "custom_node_id": s,
		"output_schema": schemagen.Any, "retry_policy": schemagen.Ref("retryPolicy"),
	}
	for _, k := range []string{"interrupt_before", "wait_for_user_confirmation", "finish_iteration", "resolve_dynamic_values_in_prompt", "result_as_human_message"} {
		types[k] = schemagen.Boolean
	}
	return b.Object("a state", append(slices.Clip(stateKeys), codemieStateKeys...), types, "id")
}

func nextSchema(b *schemagen.Builder) map[string]any {
	s := schemagen.String
	types := map[string]any{
		"state_id": s, "state_ids": schemagen.StringList, "iter_key": s, "max_concurrency": schemagen.Integer,
		"condition": schemagen.Ref("condition"), "switch": schemagen.Ref("switch"),
		"actions":  schemagen.MapOf(s),
		"branches": schemagen.ArrayOf(schemagen.Ref("branch")), "on_failure": s,
		// CodeMie's context management (JSON mode).
		"output_key": s, "meta_iter_state_id": s, "meta_next_state_id": s,
		"reset_keys_in_context_store": schemagen.StringList, "include_in_iterator_context": schemagen.StringList,
		"clear_context_store": map[string]any{"anyOf": []any{schemagen.Boolean, map[string]any{"const": "keep_current"}}},
	}
	for _, k := range []string{"keep_history", "store_in_context", "include_in_llm_history", "clear_prior_messages",
		"append_to_context", "override_task", "use_flyweight_history"} {
		types[k] = schemagen.Boolean
	}
	return b.Object("next", append(slices.Clip(nextKeys), codemieNextKeys...), types)
}

// codemieFileSchema: the file's catalogue entry holds single values.
func codemieFileSchema(b *schemagen.Builder) map[string]any {
	types := map[string]any{"execution_config": schemagen.Ref("workflow")}
	for _, k := range wrapperKeys[1:] {
		types[k] = map[string]any{"type": []string{"string", "number", "boolean", "null"}}
	}
	return b.Object("a CodeMie workflow file", wrapperKeys, types, "execution_config")
}

// fieldsSchema is the object of a CodeMie configuration table, whose
// fields carry their kinds.
func fieldsSchema(b *schemagen.Builder, what string, fields []field) map[string]any {
	keys := make([]string, len(fields))
	types := map[string]any{}
	for i, f := range fields {
		keys[i] = f.key
		types[f.key] = kindSchema(b, f)
	}
	return b.Object(what, keys, types)
}

func kindSchema(b *schemagen.Builder, f field) map[string]any {
	switch f.kind {
	case kString:
		return schemagen.String
	case kInt:
		return schemagen.Integer
	case kNumber:
		return schemagen.Number
	case kBool:
		return schemagen.Boolean
	case kStrings:
		return schemagen.StringList
	case kStringMap:
		return schemagen.StringMap
	case kObject:
		return fieldsSchema(b, f.key, f.sub)
	case kObjects:
		return schemagen.ArrayOf(fieldsSchema(b, f.key, f.sub))
	}
	return schemagen.Any
}
