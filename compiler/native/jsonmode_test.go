package native

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
