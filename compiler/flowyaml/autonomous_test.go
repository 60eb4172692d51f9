package flowyaml

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flowc-dev/flowc/ir"
)

// An Autonomous workflow is the graph CodeMie's supervisor_workflow.py
// (build_workflow) builds: Supervisor first, then a state per assistant,
// named as the assistant without spaces, going back to it.
func TestAutonomousStates(t *testing.T) {
	w := lowerText(t, `mode: Autonomous
execution_config:
  assistants:
    - {id: a, name: Code Writer, system_prompt: You write.}
    - {id: b, system_prompt: You review.}
`)
	var ids []string
	for _, s := range w.States {
		ids = append(ids, s.ID)
	}
	assert.Equal(t, []string{"Supervisor", "CodeWriter", "b"}, ids)
	assert.Equal(t, "Supervisor", w.Start.ID)
	sup := w.States[0]
	assert.Equal(t, "Supervisor", sup.Handler.Name)
	assert.Equal(t, ir.TransSwitch, sup.Next.Kind)
	assert.Equal(t, `next == 'CodeWriter'`, sup.Next.Cases[0].Cond.Source)
	assert.True(t, sup.Next.Default.IsEnd(), "FINISH ends the run")
	assert.True(t, sup.CodeMie.NoStore)
	assert.Contains(t, sup.CodeMie.OutputSchema, `"enum":["FINISH","CodeWriter","b"]`)
	for _, s := range w.States[1:] {
		assert.Equal(t, "Supervisor", s.Next.To.ID)
		assert.Equal(t, "-", s.Task)
	}
	assert.Equal(t, "a", w.States[1].CodeMie.Assistant)
}

// What CodeMie does not read is reported; a team whose names collide is
// an error.
func TestAutonomousDiagnostics(t *testing.T) {
	assert.Equal(t, `t.flow.yaml:1:1: warning: CodeMie's supervisor does not read `+"`supervisor_prompt`"+` (supervisor_workflow.py, build_workflow passes it no prompt) and prompts with its own; the Supervisor handler decides how to prompt
t.flow.yaml:6:3: warning: an Autonomous workflow runs its supervisor and assistants, not `+"`states`"+` (CodeMie's supervisor_workflow.py, build_workflow); they are ignored
`, lowerDiags(t, `supervisor_prompt: Lead.
mode: Autonomous
execution_config:
  assistants:
    - {id: a, system_prompt: You write.}
  states:
    - id: x
`))
	assert.Contains(t, lowerDiags(t, `mode: Autonomous
assistants:
  - {id: a, name: A B, system_prompt: One.}
  - {id: c, name: AB, system_prompt: Two.}
`), `t.flow.yaml:4:5: assistant "c" is the supervisor's member "AB", which another assistant or the supervisor already is`)
	assert.Contains(t, lowerDiags(t, "mode: Autonomous\nname: x\n"), "an Autonomous workflow needs `assistants`")
}
