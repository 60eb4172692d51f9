package flowyaml

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/ir"
)

func lowerDiags(t *testing.T, src string) string {
	t.Helper()
	r := &yamlx.Reader{File: "t.flow.yaml"}
	root := r.Parse([]byte(src))
	require.NotNil(t, root, r.Diags.Lines())
	Lower(r, root, Defaults{Stem: "t", Package: "p"})
	r.Diags.Sort()
	return r.Diags.Lines()
}

// An example object stands for the schema of an object with its keys, each
// required, of the example value's type.
func TestOutputSchemaForms(t *testing.T) {
	w := lowerText(t, `states:
  - id: a
    output_schema: '{"key_points": ["..."], "score": 1, "ok": true}'
  - id: b
    output_schema: {type: object, required: [x]}
  - id: c
    output_schema: ''
`)
	assert.Equal(t, `{"properties":{"key_points":{"items":{"type":"string"},"type":"array"},"ok":{"type":"boolean"},"score":{"type":"number"}},"required":["key_points","ok","score"],"type":"object"}`,
		w.States[0].CodeMie.OutputSchema)
	assert.Equal(t, `{"required":["x"],"type":"object"}`, w.States[1].CodeMie.OutputSchema)
	assert.Empty(t, w.States[2].CodeMie.OutputSchema)
}

// Context flags, retry_policy and the workflow's settings are lowered.
func TestCodeMieKeys(t *testing.T) {
	w := lowerText(t, `max_concurrency: 3
retry_policy: {max_attempts: 4, initial_interval: 1.5, max_interval: 10}
states:
  - id: a
    next:
      state_id: b
      iter_key: items
      store_in_context: false
      keep_history: false
      clear_context_store: keep_current
      reset_keys_in_context_store: [t]
      include_in_iterator_context: [x]
  - id: b
    retry_policy: {max_attempts: 2}
`)
	c := w.States[0].CodeMie
	assert.True(t, c.NoStore)
	assert.True(t, c.NoHistory)
	assert.Equal(t, 2, c.ClearStore)
	assert.Equal(t, []string{"t"}, c.ResetKeys)
	assert.Equal(t, []string{"x"}, c.IteratorKeys)
	assert.Equal(t, 3, w.Regions[0].MaxConcurrency)
	assert.Equal(t, 50, w.CodeMie.RecursionLimit)
	r := w.States[0].Retry[1]
	assert.Equal(t, 4, r.MaxAttempts)
	assert.Equal(t, "1.5s", r.Interval.String())
	assert.Equal(t, "10s", r.MaxDelay.String())
	b := w.States[1].Retry[1]
	assert.Equal(t, 2, b.MaxAttempts, "the state's own policy wins")
	assert.Equal(t, "1.5s", b.Interval.String(), "key by key")
}

// Every state retries as CodeMie's workflow_config.py
// (get_effective_retry_policy) has it: the defaults of
// core/workflow_models/constants.py (10 attempts, 0.5 s, x2, 128 s cap)
// under the workflow's and the state's keys, after a rule that never
// retries what WorkflowRetryPolicy.custom_retry_on and LangGraph's
// default_retry_on refuse. A state with flowc's own retry rules keeps them alone.
func TestCodeMieRetryDefaults(t *testing.T) {
	w := lowerText(t, `states:
  - id: a
    next: {state_id: b}
  - id: b
    retry: [{errors: [Flaky], max_attempts: 2}]
`)
	a := w.States[0].Retry
	require.Len(t, a, 2)
	assert.Equal(t, 1, a[0].MaxAttempts)
	assert.Contains(t, a[0].Errors, "ValueError")
	assert.Contains(t, a[0].Errors, "HTTP.404")
	assert.Equal(t, []string{"ALL"}, a[1].Errors)
	assert.Equal(t, 10, a[1].MaxAttempts)
	assert.Equal(t, "500ms", a[1].Interval.String())
	assert.Equal(t, 2.0, a[1].BackoffRate)
	assert.Equal(t, "2m8s", a[1].MaxDelay.String())
	b := w.States[1].Retry
	require.Len(t, b, 1)
	assert.Equal(t, []string{"Flaky"}, b[0].Errors)
}

// max_concurrency as workflow_config.py (get_max_concurrency) reads it:
// 2 when unset, capped at 5 (config.py); the schema's bounds are errors.
func TestCodeMieConcurrency(t *testing.T) {
	w := lowerText(t, `states:
  - id: a
    next: {state_id: b, iter_key: items}
  - id: b
`)
	assert.Equal(t, 2, w.Regions[0].MaxConcurrency)
	assert.Equal(t, "t.flow.yaml:1:18: warning: max_concurrency 8 is more than CodeMie runs at once: it caps it at 5, and so does flowc\n",
		lowerDiags(t, "max_concurrency: 8\nstates: [{id: a}]\n"))
	assert.Contains(t, lowerDiags(t, "max_concurrency: 101\nstates: [{id: a}]\n"), "max_concurrency")
	assert.Contains(t, lowerDiags(t, "recursion_limit: 5001\nstates: [{id: a}]\n"), "recursion_limit")
}

// Every assistant node summarizes its history (workflow.py,
// init_agent_node: summarize_history=True; agent_node.py,
// before_execution), with should_summarize_memory's default limits (25
// messages, 50,000 tokens) unless the file sets others.
// enable_summarization_node is about the result finalizer node and turns
// nothing off; a workflow of tools only has no assistant to summarize for.
func TestCodeMieSummarization(t *testing.T) {
	for _, tt := range []struct {
		src              string
		summarize        bool
		messages, tokens int
	}{
		{"states: [{id: a, assistant_id: x}]\n", true, 25, 50000},
		{"enable_summarization_node: false\nstates: [{id: a, assistant_id: x}]\n", true, 25, 50000},
		{"messages_limit_before_summarization: 4\nstates: [{id: a, assistant_id: x}]\n", true, 4, 50000},
		{"messages_limit_before_summarization: 4\nstates: [{id: a, tool_id: x}]\n", false, 0, 0},
	} {
		cm := lowerText(t, tt.src).CodeMie
		assert.Equal(t, tt.summarize, cm.Summarize, tt.src)
		if tt.summarize {
			assert.Equal(t, []int{tt.messages, tt.tokens}, []int{cm.MessagesLimit, cm.TokensLimit}, tt.src)
		}
	}
}

// A tool with an MCP server runs through the MCP handler; a state's
// tool_args replace the tool's (tool_node.py, _execute_tool_with_args:
// `workflow_state.tool_args or tool_config.tool_args`), with a warning for
// the tool's keys it leaves out.
func TestToolStates(t *testing.T) {
	w := lowerText(t, `tools:
  - id: reader
    tool: read_file
    tool_args: {path: /a, mode: r}
    mcp_server: {name: fs, config: {command: npx}}
states:
  - id: a
    tool_id: reader
    tool_args: {path: /b}
`)
	s := w.States[0]
	assert.Equal(t, ir.MCPHandler, s.Handler.Name)
	require.Len(t, s.ToolArgs, 1)
	assert.Equal(t, "/b", s.ToolArgs[0].Value)
	assert.Equal(t, "t.flow.yaml:9:17: warning: the tool_args of state \"a\" replace those of tool \"reader\", as in CodeMie, which does not merge them: its `mode` is not passed\n",
		lowerDiags(t, `tools:
  - id: reader
    tool: read_file
    tool_args: {path: /a, mode: r}
    mcp_server: {name: fs, config: {command: npx}}
states:
  - id: a
    tool_id: reader
    tool_args: {path: /b}
  - id: b
    tool_id: reader
`))
}

// CodeMie keys belong to JSON mode.
func TestCodeMieKeysNeedJSONMode(t *testing.T) {
	assert.Equal(t, "t.flow.yaml:2:1: `assistants` belongs to CodeMie workflows, which have no `state:` schema\n"+
		"t.flow.yaml:6:5: `interrupt_before` belongs to CodeMie workflows, which have no `state:` schema\n"+
		"t.flow.yaml:9:7: `output_key` belongs to CodeMie workflows, which have no `state:` schema\n",
		lowerDiags(t, `state: {n: int}
assistants: []
states:
  - id: a
    handler: h
    interrupt_before: true
    next:
      state_id: end
      output_key: x
`))
}

// A `next` with context flags and no target ends the run with them; a
// state's own mcp_servers are kept for its assistant.
func TestFlagsOnlyNextAndStateMCPServers(t *testing.T) {
	w := lowerText(t, `states:
  - id: a
    mcp_servers: [{name: fs, config: {command: npx}}]
    next: {store_in_context: false}
`)
	s := w.States[0]
	assert.Equal(t, ir.TransEnd, s.Next.Kind)
	assert.True(t, s.CodeMie.NoStore)
	assert.Equal(t, `[{"config":{"command":"npx"},"name":"fs"}]`, s.CodeMie.MCPServers)
}

// CodeMie's state and `next` models are pydantic models, which drop the
// keys they do not know (workflow_models.py, WorkflowState and
// WorkflowNextState): in JSON mode such a key is a warning. A workflow
// with a `state:` schema keeps them errors.
func TestUnknownKeysIgnoredInJSONMode(t *testing.T) {
	assert.Equal(t, "t.flow.yaml:3:5: warning: unknown key `output_format` in a state is ignored, as CodeMie ignores it\n"+
		"t.flow.yaml:4:27: warning: unknown key `stat_id` in next is ignored, as CodeMie ignores it (did you mean `state_id`?)\n",
		lowerDiags(t, "states:\n  - id: a\n    output_format: x\n    next: {state_id: end, stat_id: b}\n"))
	assert.Contains(t, lowerDiags(t, "state: {n: int}\nstates:\n  - id: a\n    output_format: x\n"),
		"t.flow.yaml:4:5: unknown key `output_format` in a state")
}

// A task whose state resolves dynamic values is a Jinja2 template; one
// that fails to parse is sent as written (dynamic_value_utils.py,
// _resolve_dynamic_values), which a warning says. Jinja syntax in a task
// draws no warning: Jinja2 renders it.
func TestTaskTemplatesAreJinja(t *testing.T) {
	assert.Contains(t, lowerDiags(t, "states:\n  - id: a\n    resolve_dynamic_values_in_prompt: true\n    task: 'Do {% if x %}'\n"),
		"t.flow.yaml:4:12: warning: task is no Jinja2 template")
	assert.Empty(t, lowerDiags(t, "states:\n  - id: a\n    resolve_dynamic_values_in_prompt: true\n    task: '{{ x | upper }} {% for i in l %}{{i}}{% endfor %}'\n"))
}

// A custom node must name one of CodeMie's nodes, which workflow.py
// (init_custom_node) loads from its workflows/nodes package; flowc warns
// about any other and hands it to its handler, as every custom node that
// the runtime does not run itself.
func TestUnknownCustomNode(t *testing.T) {
	src := `custom_nodes:
  - {id: tree, custom_node_id: generate_documents_tree}
  - {id: formatter}
states:
  - {id: a, custom_node_id: tree, next: {state_id: b}}
  - {id: b, custom_node_id: formatter}
`
	assert.Equal(t, `t.flow.yaml:3:5: warning: custom node "formatter" runs "formatter", which is none of CodeMie's nodes (agent_node, bedrock_flow_node, generate_documents_tree, result_finalizer_node, state_processor_node, summarize_conversation_node, supervisor_node, tool_node, transform_node): CodeMie cannot load it (workflow.py, init_custom_node); flowc hands it to its handler
`, lowerDiags(t, src))
	w := lowerText(t, src)
	assert.Equal(t, "Formatter", w.States[1].Handler.Name)
}

// A state_processor_node whose state_id names its own state reads itself
// in progress, which CodeMie's _fetch_states (state_processor_node.py)
// refuses whatever it waits: a warning, unless the status filter leaves
// IN_PROGRESS out.
func TestStateProcessorReadingItself(t *testing.T) {
	src := `custom_nodes:
  - {id: all, custom_node_id: state_processor_node, config: {output_template: x}}
  - {id: own, custom_node_id: state_processor_node, config: {state_id: sum, states_status_filter: [SUCCEEDED, IN_PROGRESS]}}
  - {id: done, custom_node_id: state_processor_node, config: {states_status_filter: [SUCCEEDED]}}
  - {id: named, custom_node_id: state_processor_node, config: {state_id: review}}
states:
  - {id: a, custom_node_id: all, next: {state_id: summary}}
  - {id: summary, custom_node_id: own, next: {state_id: c}}
  - {id: c, custom_node_id: done, next: {state_id: d}}
  - {id: d, custom_node_id: named}
`
	assert.Equal(t, `t.flow.yaml:7:29: warning: state "a" reads the states whose id starts with "", itself among them, in progress: it fails with "No Completed States", as CodeMie's state_processor_node does (_fetch_states); set the custom node's state_id to the states it should read
t.flow.yaml:8:35: warning: state "summary" reads the states whose id starts with "sum", itself among them, in progress: it fails with "No Completed States", as CodeMie's state_processor_node does (_fetch_states); set the custom node's state_id to the states it should read
`, lowerDiags(t, src))
}
