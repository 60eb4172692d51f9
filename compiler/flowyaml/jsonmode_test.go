package flowyaml

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flowc-dev/flowc/ir"
)

func TestTemplateParts(t *testing.T) {
	w := lowerText(t, `states:
  - id: a
    task: "Use {{ data }} and {{task}}: {{{x}}} {not a ref} }}{{é-1_b}}"
    tool_args: {path: "{{path}}", n: 3}
`)
	s := w.States[0]
	assert.Equal(t, []ir.TemplatePart{
		{Text: "Use "}, {Text: "{{ data }}", Ref: "data"}, {Text: " and "}, {Text: "{{task}}", Ref: "task"},
		{Text: ": {"}, {Text: "{{x}}", Ref: "x"}, {Text: "} {not a ref} }}"}, {Text: "{{é-1_b}}", Ref: "é-1_b"},
	}, s.TaskParts)
	assert.Equal(t, []ir.TemplatePart{{Text: "{{path}}", Ref: "path"}}, s.ToolArgs[0].Parts)
	assert.Equal(t, []ir.TemplatePart{{Text: "3"}}, s.ToolArgs[1].Parts)
}

// A typed workflow does not render templates, so it does not parse them.
func TestTemplatesOnlyInJSONMode(t *testing.T) {
	w := lowerText(t, `state: {n: int}
states:
  - id: a
    task: "{{ not parsed"
`)
	assert.Nil(t, w.States[0].TaskParts)
}

// iter_key beside a condition, as CodeMie's platform templates write it:
// workflow.py, _process_transition adds the condition's edge and no
// iteration, and find_map_nodes makes `then` a map node, whose agent node
// (agent_node.py, get_task) appends "Current task: " and the missing item.
func TestConditionIterKey(t *testing.T) {
	src := `states:
  - id: a
    assistant_id: dev
    next:
      iter_key: files
      condition: {expression: "ok == True", then: b, otherwise: c}
  - id: b
    assistant_id: dev
  - id: c
    assistant_id: dev
    task: Finish
`
	assert.Equal(t, `t.flow.yaml:5:17: warning: `+"`iter_key` beside `condition` starts no iteration, as in CodeMie: the condition chooses the next state, and \"b\", its `then`, runs once with \"Current task: \" ending its task\n",
		lowerDiags(t, src))
	w := lowerText(t, src)
	assert.Empty(t, w.Regions, "no iteration")
	assert.Equal(t, ir.TransCondition, w.States[0].Next.Kind)
	assert.Equal(t, "-\nCurrent task: ", w.States[1].Task, "an empty task is the agent node's -")
	assert.Equal(t, []ir.TemplatePart{{Text: "-"}, {Text: "\nCurrent task: "}}, w.States[1].TaskParts)
	assert.Equal(t, "Finish", w.States[2].Task, "otherwise is no map node")
}

// Templates Jinja2 cannot parse are sent as written by CodeMie
// (dynamic_value_utils.py keeps a template that fails to render), so they
// are warnings where CodeMie renders them (tool_args; a task with
// resolve_dynamic_values_in_prompt), and nothing where it does not.
func TestMalformedTemplatesAreWarnings(t *testing.T) {
	assert.Equal(t, "t.flow.yaml:5:13: warning: tool argument `url` is no Jinja2 template (expected either a number, string, keyword or identifier. (Line: 1 Col: 24, near \".\")): CodeMie sends it as written\n"+
		"t.flow.yaml:6:15: warning: tool argument `query` is no Jinja2 template (expected either a number, string, keyword or identifier. (Line: 1 Col: 3, near \"}}\")): CodeMie sends it as written\n"+
		"t.flow.yaml:10:1: warning: task is no Jinja2 template ('}}' expected here (Line: 1 Col: 43, near \"\")): CodeMie sends it as written\n",
		lowerDiags(t, `states:
  - id: fetch
    tool_id: http-get
    tool_args:
      url: "https://example.com/{{ .page }}"
      query: '{{}}'
  - id: summarize
    resolve_dynamic_values_in_prompt: true
    task: |
      Summarize {{title | upper}} for {{audience
  - id: note
    task: Note {{audience
`))
	w := lowerText(t, "states:\n  - id: note\n    task: Note {{audience\n")
	assert.Equal(t, []ir.TemplatePart{{Text: "Note {{audience"}}, w.States[0].TaskParts)
}
