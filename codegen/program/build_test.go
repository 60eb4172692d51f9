package program_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/codegen"
	"github.com/flowc-dev/flowc/codegen/program"
	"github.com/flowc-dev/flowc/compiler"
	"github.com/flowc-dev/flowc/ir"
)

const buildChain = `id: desk
tasks:
  - id: pick
    handler: route
    execute_config: {model: m}
    transition:
      branches:
        - {operator: equals, when: a, goto: chat}
        - {operator: default, when: "", goto: end}
  - id: chat
    handler: chat_completion
    execute_config: {model: m}
    transition:
      branches:
        - {operator: equals, when: tool_call, goto: tools}
        - {operator: default, when: "", goto: end}
  - id: tools
    handler: execute_tool_calls
    transition:
      branches:
        - {operator: default, when: "", goto: chat}
`

func buildMain(t *testing.T, name, src string, user *program.UserHandlers) ([]codegen.File, []program.Missing) {
	t.Helper()
	w, ds := compiler.Compile(name, []byte(src), compiler.Options{NoPackage: true})
	require.False(t, ds.HasErrors(), "%v", ds)
	mains, missing, err := program.BuildMain(w, "flowcbuild/wf", user)
	require.NoError(t, err)
	return mains, missing
}

func TestBuildMainMissing(t *testing.T) {
	mains, missing := buildMain(t, "desk.chain.yaml", buildChain, nil)
	assert.Nil(t, mains, "nothing without every handler")
	assert.Equal(t, []program.Missing{{Method: "ExecuteToolCalls", Needs: []program.Need{
		{Pos: ir.Pos{File: "desk.chain.yaml", Line: 17, Col: 9}, What: `task "tools"`},
	}}}, missing)
}

func TestBuildMainBindsHandlers(t *testing.T) {
	user := &program.UserHandlers{Import: "example.com/mine/tools", Type: "Tools", Pointer: true,
		Methods: map[string]bool{"ExecuteToolCalls": true, "Route": true}}
	mains, missing := buildMain(t, "desk.chain.yaml", buildChain, user)
	require.Empty(t, missing)
	require.Len(t, mains, 3)
	main, handlers := string(mains[0].Content), string(mains[1].Content)
	assert.Equal(t, "main.go", mains[0].Name)
	assert.Contains(t, main, "binmain.Main(os.Args, os.Stdin, os.Stdout, os.Stderr,")
	assert.Contains(t, main, "wf.NewDesk(newHandlers(env), opts...)")
	// The console of the program draws the chain's graph, which it carries.
	assert.Equal(t, "graph.svg", mains[2].Name)
	assert.Contains(t, string(mains[2].Content), `data-state="pick"`)
	assert.Contains(t, main, "//go:embed graph.svg\nvar graphSVG string")
	assert.Regexp(t, `binmain.WithGraph\("desk", console.Graph\{\n\s+Nodes: map\[string\]string\{\n\s+"chat":  "s\d+",`, main)
	assert.Contains(t, handlers, "*tools.Tools\n")
	assert.Contains(t, handlers, "Tools: tools.Handlers()")
	assert.Contains(t, handlers, "func (h handlers) ChatCompletion(ctx context.Context, call flowcrt.LLMCall) (flowcrt.ChainResult, error) {\n\treturn h.env.LLM.ChatCompletion(ctx, call)")
	assert.NotContains(t, handlers, ") Route(", "the user's method replaces the built-in")
	assert.NotContains(t, handlers, ") ExecuteToolCalls(")
	assert.Equal(t, 1, strings.Count(handlers, "func (h handlers)"))
}

func TestBuildMainCodeMie(t *testing.T) {
	src := `enable_summarization_node: true
assistants:
  - {id: helper, model: small, system_prompt: Help.}
  - {id: other, model: big}
tools:
  - {id: fetch, tool: get}
states:
  - {id: ask, assistant_id: helper, task: Do it, next: {state_id: go}}
  - {id: go, tool_id: fetch, next: {state_id: end}}
`
	_, missing := buildMain(t, "w.flow.yaml", src, nil)
	require.Len(t, missing, 1)
	assert.Equal(t, "Fetch", missing[0].Method)

	mains, missing := buildMain(t, "w.flow.yaml", src, &program.UserHandlers{Import: "example.com/t", Type: "T", Methods: map[string]bool{"Fetch": true}})
	require.Empty(t, missing)
	handlers := string(mains[1].Content)
	assert.Contains(t, handlers, "return h.env.LLM.Assistant(ctx, call, nil)")
	assert.Contains(t, handlers, `return h.env.LLM.Summarize(ctx, "small", history)`)
	assert.Contains(t, handlers, "\tt.T\n", "a value, not a pointer")
}

func TestBuildMainDatasources(t *testing.T) {
	src := `assistants:
  - {id: helper, model: small, datasource_ids: [runbooks]}
states:
  - {id: ask, assistant_id: helper, task: Do it}
`
	_, missing := buildMain(t, "w.flow.yaml", src, nil)
	require.Len(t, missing, 1)
	assert.Equal(t, ir.DatasourceHandler, missing[0].Method)
	assert.Equal(t, `assistant "helper"`, missing[0].Needs[0].What)

	mains, missing := buildMain(t, "w.flow.yaml", src, &program.UserHandlers{Import: "example.com/t", Type: "T", Methods: map[string]bool{ir.DatasourceHandler: true}})
	require.Empty(t, missing)
	assert.Contains(t, string(mains[1].Content), "return h.env.LLM.Assistant(ctx, call, h)", "the built-in assistant searches with the user's handler")
}
