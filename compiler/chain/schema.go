package chain

import (
	"maps"
	"slices"

	"github.com/flowc-dev/flowc/internal/schemagen"
)

// Schema returns the JSON Schema (draft 2020-12) of task chains, made from
// the key tables the front-end reads with. It checks keys and value types;
// handlers, templates, operators' `when` values and targets stay the
// compiler's. It rejects unknown keys, which the compiler only warns about
// (contenox ignores them), so that an editor flags a misspelt key; any
// other chain flowc accepts, the schema accepts.
func Schema() ([]byte, error) {
	b := &schemagen.Builder{}
	s, policies := schemagen.String, schemagen.MapOf(schemagen.ScalarMap)
	ops := append(slices.Clone(operators), slices.Sorted(maps.Keys(aliases))...)
	defs := map[string]any{
		"task": object(b, "a task", taskKeys, map[string]any{
			"id": s, "description": s, "handler": s, "system_instruction": s, "print": s, "prompt_template": s,
			"output_template": s, "input_var": s, "input_max_bytes": schemagen.Integer, "timeout": schemagen.Duration,
			"retry_on_failure": schemagen.Integer, "execute_config": schemagen.Ref("executeConfig"),
			"tools": schemagen.Ref("toolsCall"), "hook": schemagen.Ref("toolsCall"), "transition": schemagen.Ref("transition"),
			"valid_conditions": map[string]any{"anyOf": []any{schemagen.MapOf(schemagen.Boolean), schemagen.Strings}},
		}, "id", "handler"),
		"executeConfig": object(b, "execute_config", execKeys, map[string]any{
			"model": s, "provider": s, "think": s, "models": schemagen.Strings, "providers": schemagen.Strings,
			"tools": schemagen.Strings, "hooks": schemagen.Strings, "hide_tools": schemagen.Strings,
			"tools_policies": policies, "hook_policies": policies, "temperature": map[string]any{"type": "number", "minimum": 0, "maximum": 2},
			"pass_clients_tools": schemagen.Boolean, "shift": schemagen.Boolean, "max_tokens": s,
			"retry_policy": schemagen.Ref("retryPolicy"), "compact_policy": schemagen.Ref("compactPolicy"),
		}),
		"retryPolicy": object(b, "retry_policy", retryKeys, map[string]any{
			"max_attempts": schemagen.Integer, "fallback_after": schemagen.Integer, "jitter": schemagen.Number,
			"fallback_model_id": s, "initial_backoff": schemagen.Duration, "max_backoff": schemagen.Duration,
			"rate_limit_min_wait": schemagen.Duration,
		}),
		"compactPolicy": object(b, "compact_policy", compactKeys, map[string]any{
			"model": s, "provider": s, "trigger_fraction": schemagen.Number, "keep_recent": schemagen.Integer,
			"min_replaced_messages": schemagen.Integer, "max_failures": schemagen.Integer,
		}),
		"toolsCall":  object(b, "tools", toolsKeys, map[string]any{"name": s, "tool_name": s, "args": schemagen.ScalarMap}),
		"transition": object(b, "transition", transitionKeys, map[string]any{"on_failure": s, "branches": schemagen.ArrayOf(schemagen.Ref("branch"))}),
		"branch": object(b, "a branch", branchKeys, map[string]any{
			"operator": schemagen.Enum(ops...), "when": s, "goto": s, "edge": s, "compose": schemagen.Ref("compose"),
		}, "operator", "goto"),
		"compose": object(b, "compose", composeKeys, map[string]any{"with_var": s, "strategy": s}, "with_var"),
	}
	root := object(b, "the chain", topKeys, map[string]any{
		"$schema": s, "id": s, "description": s, "package": s, "token_limit": schemagen.Integer, "debug": schemagen.Boolean,
		"tasks": map[string]any{"type": "array", "minItems": 1, "items": schemagen.Ref("task")},
	}, "tasks")
	return b.Document("flowc task chain (contenox)", root, defs)
}

// object is b.Object whose optional keys also take null: contenox's JSON
// spells an absent member so, and the front-end reads it as absent.
// Required keys and `package` (flowc's own) must have a value.
func object(b *schemagen.Builder, what string, keys []string, types map[string]any, required ...string) map[string]any {
	o := b.Object(what, keys, types, required...)
	props := o["properties"].(map[string]any)
	for k, v := range props {
		if !slices.Contains(required, k) && k != "package" {
			props[k] = schemagen.Nullable(v)
		}
	}
	return o
}
