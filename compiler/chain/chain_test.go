package chain_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/compiler"
	"github.com/flowc-dev/flowc/ir"
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

func compile(t *testing.T, src string) (*ir.Workflow, string) {
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
