package chain_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/compiler"
	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
)

const loop = `
description: tool loop
tasks:
  - id: chat
    handler: chat_completion
    prompt_template: "{{with index . \"history\"}}again{{end}}"
    transition:
      on_failure: oops
      branches:
        - {operator: equals, when: tool-call, goto: run_tools, compose: {with_var: history}}
        - {operator: in_range, when: "1, 2.5", goto: end}
        - {operator: default, when: "", goto: end}
  - id: run_tools
    handler: execute_tool_calls
    transition:
      branches:
        - {operator: default, goto: chat, compose: {with_var: history, strategy: merge_chat_histories}}
  - id: oops
    handler: raise_error
`

func compile(t *testing.T, src string) (*plan.Plan, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tool-loop.chain.yaml")
	w, ds := compiler.Compile(path, []byte(src), compiler.Options{})
	return w, ds.Lines()
}

// TestLower checks the IR of a chain, positions aside (error goldens test
// those).
func TestLower(t *testing.T) {
	w, diags := compile(t, loop)
	require.NotNil(t, w, diags)
	assert.Empty(t, diags)
	assert.Equal(t, ir.ModeChain, w.Mode)
	assert.Equal(t, "tool-loop", w.ID, "mock configs name the chain by its file stem")
	assert.Equal(t, "ToolLoop", w.Name)
	assert.Equal(t, "tool loop", w.Description)
	assert.Equal(t, "chat", w.Start.ID)
	require.Len(t, w.States, 3)

	chat := w.States[0]
	assert.Equal(t, "Chat", chat.GoName)
	assert.Equal(t, &ir.Handler{Pos: chat.Handler.Pos, Name: "ChatCompletion", Kind: ir.HandlerEval}, chat.Handler)
	assert.Equal(t, `{{with index . "history"}}again{{end}}`, chat.PromptTemplate)
	tr := chat.Next
	assert.Equal(t, ir.TransBranches, tr.Kind)
	require.NotNil(t, tr.OnFailure)
	assert.Equal(t, "oops", tr.OnFailure.ID)
	require.Len(t, tr.Branches, 3)
	assert.Equal(t, ir.OpEquals, tr.Branches[0].Operator)
	assert.Equal(t, "tool-call", tr.Branches[0].When)
	assert.Equal(t, "run_tools", tr.Branches[0].To.ID)
	assert.Equal(t, &ir.Compose{Pos: tr.Branches[0].Compose.Pos, WithVar: "history"}, tr.Branches[0].Compose)
	assert.Equal(t, [2]float64{1, 2.5}, [2]float64{tr.Branches[1].Min, tr.Branches[1].Max})
	assert.True(t, tr.Branches[1].To.IsEnd())
	assert.Equal(t, ir.OpDefault, tr.Branches[2].Operator)

	assert.Equal(t, "merge_chat_histories", w.States[1].Next.Branches[0].Compose.Strategy)
	oops := w.States[2]
	assert.Equal(t, ir.BuiltinRaiseError, oops.Handler.Builtin)
	assert.Empty(t, oops.Handler.Name)
	assert.Equal(t, ir.TransBranches, oops.Next.Kind, "a task without a transition ends the chain")
	assert.Empty(t, oops.Next.Branches)
}

// JSON writers spell absent members as null; that is not an error.
func TestNullIsAbsent(t *testing.T) {
	w, diags := compile(t, `{"tasks": [{"id": "a", "handler": "noop", "prompt_template": null,
		"transition": {"on_failure": null, "branches": [
			{"operator": "default", "when": null, "goto": "end", "compose": {"with_var": "v", "strategy": null}}]}}]}`)
	require.NotNil(t, w, diags)
	assert.Empty(t, diags)
	assert.Equal(t, "", w.States[0].Next.Branches[0].Compose.Strategy)
}

const contenox = `{
  "$schema": "https://contenox.com/schema/task-chain.schema.json",
  "id": "support-bot",
  "description": "Answer with tools, within a budget",
  "token_limit": 8192,
  "debug": true,
  "tasks": [
    {
      "id": "chat",
      "description": "the model",
      "handler": "chat_completion",
      "system_instruction": "Round {{edge_count:chat->run_tools}} on {{date}}",
      "input_var": "input",
      "input_max_bytes": 4096,
      "timeout": "30s",
      "retry_on_failure": 2,
      "print": "{{.chat}}",
      "execute_config": {
        "model": "{{var:model}}", "provider": "ollama", "models": ["a"], "providers": ["b"],
        "temperature": 0.2, "tools": ["*", "!shell"], "hide_tools": ["x.y"],
        "tools_policies": {"local_shell": {"_allowed_commands": "ls"}},
        "pass_clients_tools": true, "think": "high", "max_tokens": "{{var:max_tokens|512}}", "shift": true,
        "retry_policy": {"max_attempts": 3, "initial_backoff": "1s", "max_backoff": 5000000000, "jitter": 0.1,
          "rate_limit_min_wait": "2s", "fallback_model_id": "small", "fallback_after": 2},
        "compact_policy": {"model": "m", "provider": "p", "trigger_fraction": 0.8, "keep_recent": 4,
          "min_replaced_messages": 2, "max_failures": 1}
      },
      "transition": {"on_failure": "", "branches": [
        {"operator": "edge_traversed_at_least", "edge": "chat->run_tools", "when": "3", "goto": "wrap"},
        {"operator": "equals", "when": "tool_call", "goto": "run_tools"},
        {"operator": "default", "when": "", "goto": ""}
      ]}
    },
    {"id": "run_tools", "handler": "execute_tool_calls", "input_var": "chat",
     "transition": {"branches": [{"operator": "default", "when": "", "goto": "chat"}]}},
    {"id": "wrap", "handler": "tools", "tools": {"name": "fs", "tool_name": "write", "args": {"path": "/tmp/x"}},
     "output_template": "{{.status}}"}
  ]
}`

// TestContenoxChain checks that every documented key reaches the IR.
func TestContenoxChain(t *testing.T) {
	w, diags := compile(t, contenox)
	require.NotNil(t, w, diags)
	assert.Empty(t, diags)
	assert.Equal(t, "support-bot", w.ID, "a chain id names the chain")
	assert.Equal(t, "SupportBot", w.Name)
	assert.Equal(t, &ir.ChainInfo{ID: "support-bot", TokenLimit: 8192, Debug: true}, w.Chain)

	chat := w.States[0]
	c := chat.Chain
	assert.Equal(t, ir.ChainChatCompletion, c.Kind)
	assert.Equal(t, "input", c.InputVar.ID)
	assert.Equal(t, 4096, c.InputMaxBytes)
	assert.Equal(t, 2, c.RetryOnFailure)
	assert.Equal(t, 30*time.Second, chat.Timeout)
	assert.Equal(t, "{{.chat}}", c.Print)
	assert.Equal(t, "Round {{edge_count:chat->run_tools}} on {{date}}", c.SystemInstruction, "macros expand when the task runs")
	e := c.Exec
	assert.Equal(t, "{{var:model}}", e.Model)
	assert.Equal(t, []string{"*", "!shell"}, e.Tools)
	assert.Equal(t, map[string]map[string]string{"local_shell": {"_allowed_commands": "ls"}}, e.ToolsPolicies)
	assert.Equal(t, "{{var:max_tokens|512}}", e.MaxTokens)
	assert.Equal(t, &ir.LLMRetry{MaxAttempts: 3, InitialBackoff: time.Second, MaxBackoff: 5 * time.Second, Jitter: 0.1,
		RateLimitMinWait: 2 * time.Second, FallbackModel: "small", FallbackAfter: 2}, e.Retry)
	assert.Equal(t, &ir.CompactPolicy{Model: "m", Provider: "p", TriggerFraction: 0.8, KeepRecent: 4, MinReplacedMessages: 2, MaxFailures: 1}, e.Compact)

	tr := chat.Next
	assert.Nil(t, tr.OnFailure, "an empty on_failure is none")
	assert.Equal(t, &ir.Edge{Pos: tr.Branches[0].Edge.Pos, From: "chat", To: "run_tools", Count: 3}, tr.Branches[0].Edge)
	assert.True(t, tr.Branches[2].To.IsEnd(), "an empty goto ends the chain")

	wrap := w.States[2]
	assert.Equal(t, ir.ChainTools, wrap.Chain.Kind)
	assert.Equal(t, &ir.ToolsCall{Name: "fs", ToolName: "write", Args: map[string]string{"path": "/tmp/x"}}, wrap.Chain.Tools)
	assert.Empty(t, wrap.Next.Branches, "a task without branches is a leaf")
}

// Unknown keys are warnings at their position, inside execute_config too.
func TestContenoxUnknownKeys(t *testing.T) {
	_, diags := compile(t, `{"id": "x", "tasks": [{"id": "a", "handler": "chat_completion",
  "execute_config": {"modle": "m", "retry_policy": {"max_attempt": 1}},
  "transition": {"branches": [{"operator": "edge_traversed_at_least", "edge": "a->nowhere", "when": "two", "goto": "end"}]}}]}`)
	assert.Contains(t, diags, "2:22: warning: unknown key `modle` in execute_config is ignored (did you mean `model`?)")
	assert.Contains(t, diags, "2:53: warning: unknown key `max_attempt` in retry_policy is ignored (did you mean `max_attempts`?)")
	assert.Contains(t, diags, "must be a whole number of traversals")
	assert.Contains(t, diags, `edge "a->nowhere" names task "nowhere", which is not in the chain`)
}
