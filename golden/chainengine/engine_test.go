package chainengine

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrun "github.com/flowc-dev/flowc/flowrun"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// run runs the chain on "  an essay " with grade mocked by response, a
// MockedResponses entry.
func run(t *testing.T, response string) (flowcrt.ChainState, error) {
	t.Helper()
	return runOn(t, "  an essay ", response)
}

func runOn(t *testing.T, input, response string) (flowcrt.ChainState, error) {
	t.Helper()
	cfg, err := flowcrun.ParseMockConfig([]byte(fmt.Sprintf(`{
	  "StateMachines": {"engine": {"TestCases": {"t": {"grade": "Grade"}}}},
	  "MockedResponses": {"Grade": {"0": %s}}
	}`, response)))
	require.NoError(t, err)
	m, err := cfg.Case("engine", "t")
	require.NoError(t, err)
	return NewEngineMock(m).Run(context.Background(), input)
}

func grades(eval string) string {
	return fmt.Sprintf(`{"Return": {"Output": %q, "Eval": %q}}`, eval, eval)
}

// contenox runtime/taskengine/taskenv.go, renderTemplate: the Sprig
// functions (trim, upper, quote, replace) and "<no value>" for a key no
// task has set yet; ExecEnv: the rendered prompt is the noop's input, so
// its output (rendertemplate_sprig_test.go covers the functions).
func TestTemplatesAndNoopPrompt(t *testing.T) {
	s, err := run(t, grades("Score: 8/10"))
	require.NoError(t, err)
	assert.Equal(t, `"Score: 8/10" is 8/10`, s.Output)
	frame := "AN ESSAY (8 chars), praised: <no value>"
	assert.Equal(t, frame, s.Results["frame"])
}

// contenox taskenv.go at 0c28a698, compare with parseNumber: `>` reads the
// first number of "Score: 8/10"; in_range takes the engine's "min-max".
func TestNumericOperatorsReadTheFirstNumber(t *testing.T) {
	s, err := run(t, grades("Score: 5/10"))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"low": "Score: 5/10"}, s.Vars)
	assert.Equal(t, "Score: 5/10", s.Output)
}

// contenox taskenv.go, evaluateTransitions: no branch matches and there is
// no default, so the chain fails ("no matching transition found").
func TestNoBranchMatchedFailsTheChain(t *testing.T) {
	_, err := run(t, grades("ungraded"))
	require.ErrorContains(t, err, "no matching transition found for eval: ungraded")
	var se *flowcrt.StateError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "grade", se.State)
	_, err = run(t, grades("Score: 11/10"))
	require.NoError(t, err, "11 > 7")
}

// contenox taskenv.go, ExecEnv: when a task fails and has on_failure, its
// variable and the next task's input are the input that failed, and
// <id>_error holds the error.
func TestFailedTaskHoldsItsInput(t *testing.T) {
	s, err := run(t, `{"Throw": {"Error": "Unavailable", "Cause": "model down"}}`)
	require.NoError(t, err)
	frame := "AN ESSAY (8 chars), praised: <no value>"
	assert.Equal(t, frame, s.Results["grade"])
	assert.Equal(t, frame+" / true", s.Output)
	b, err := json.Marshal(s)
	require.NoError(t, err)
	assert.JSONEq(t, `{"output": "`+frame+` / true", "vars": {}}`, string(b))
}

// contenox taskenv.go, ExecEnv: a prompt_template that fails to render
// returns from the chain ("template error") before the task runs, so
// on_failure does not take it.
func TestPromptErrorFailsTheChain(t *testing.T) {
	s, err := runOn(t, "boom", grades("Score: 9/10"))
	require.ErrorContains(t, err, "no essay")
	var se *flowcrt.StateError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "grade", se.State)
	assert.NotContains(t, s.Results, "recover", "recover never ran")
}
