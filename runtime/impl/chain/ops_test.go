package chain_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/runtime/impl"
	"github.com/flowc-dev/flowc/runtime/impl/chain"
)

// render runs a one-task chain whose prompt is text and returns the prompt.
func render(t *testing.T, input any, text string) string {
	t.Helper()
	s, err := chain.NewChainState(input)
	require.NoError(t, err)
	var got string
	_, err = s.RunTask(context.Background(), &impl.Config{}, &chain.ChainTask{ID: "t", Prompt: tmpl(t, text)},
		func(_ context.Context, c chain.ChainCall) (chain.ChainResult, error) {
			got = c.Prompt
			return chain.ChainResult{}, nil
		})
	require.NoError(t, err)
	return got
}

// contenox runtime/taskengine/rendertemplate_sprig_test.go,
// TestUnit_RenderTemplate_SprigFuncsWired: renderTemplate has Sprig's
// TxtFuncMap.
func TestChainTemplateSprig(t *testing.T) {
	assert.Equal(t, "up=HI cut=abc arr=[1,2,3]",
		render(t, nil, `up={{ "hi" | upper }} cut={{ trunc 3 "abcdef" }} arr={{ list 1 2 3 | toJson }}`))
	// TestUnit_RenderTemplate_ToJsonStringifiesStructCleanly: toJson writes
	// a value as JSON, not as Go prints it.
	assert.Equal(t, `[{"content":"hi","role":"user"}]`,
		render(t, []any{map[string]any{"role": "user", "content": "hi"}}, `{{ .input | toJson }}`))
	assert.Equal(t, "a-b, 3", render(t, "a b", `{{ .input | replace " " "-" }}, {{ add 1 2 }}`))
}

// contenox runtime/taskengine/taskenv.go renderTemplate: missingkey=error
// is not set, so a key nothing has set renders "<no value>".
func TestChainTemplateMissingKey(t *testing.T) {
	assert.Equal(t, "[<no value>]", render(t, "x", "[{{.not_yet}}]"))
}

// contenox runtime/taskengine/taskenv.go at 0c28a698, parseNumber: quotes
// and spaces are dropped, then the text is a number, or its first number.
func TestChainNumber(t *testing.T) {
	for text, want := range map[string]float64{
		"8": 8, " 7.5 ": 7.5, `"42"`: 42, "Score: 8/10": 8, "1 000": 1000, "-3 degrees": -3, "about .5": 0.5,
	} {
		got, ok := chain.ChainNumber(text)
		assert.True(t, ok, text)
		assert.Equal(t, want, got, text)
	}
	for _, text := range []string{"", "none", `""`} {
		_, ok := chain.ChainNumber(text)
		assert.False(t, ok, text)
	}
	assert.True(t, chain.EvalGreater("Score: 8/10", 7))
	assert.False(t, chain.EvalGreater("Score: 8/10", 8))
	assert.True(t, chain.EvalLess("rated 3 stars", 4))
	assert.False(t, chain.EvalLess("no number", 4), "an eval without a number matches no numeric branch")
	assert.True(t, chain.EvalInRange("status 201", 200, 299))
	assert.False(t, chain.EvalInRange("status 404", 200, 299))
}

// contenox taskenv.go at 0c28a698, compare OpInRange: "min-max", negative
// bounds allowed; the seed's task-chain-transitions page writes "min,max".
func TestChainRange(t *testing.T) {
	for text, want := range map[string][2]float64{
		"200-299": {200, 299}, "-10--2": {-10, -2}, "-5-5": {-5, 5}, "1.5-2.5": {1.5, 2.5},
		"200,299": {200, 299}, " -1 , 1 ": {-1, 1}, "3-3": {3, 3},
	} {
		lo, hi, ok := chain.ChainRange(text)
		assert.True(t, ok, text)
		assert.Equal(t, want, [2]float64{lo, hi}, text)
	}
	for _, text := range []string{"5-1", "1", "a-b", "1-2-3", "1,", "9,1"} {
		_, _, ok := chain.ChainRange(text)
		assert.False(t, ok, text)
	}
}

// contenox taskenv.go evaluateTransitions: "no matching transition found
// for eval", which fails the chain.
func TestNoBranchMatched(t *testing.T) {
	err := chain.NoBranchMatched("judge", "maybe")
	var se *impl.StateError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "judge", se.State)
	assert.ErrorContains(t, err, "no matching transition found for eval: maybe")
}

// contenox taskenv.go ExecEnv: a failed task's variable, previous_output
// and the next input are the input that failed, the rendered prompt when
// the task has one.
func TestFailedTaskKeepsItsInput(t *testing.T) {
	s, err := chain.NewChainState("question")
	require.NoError(t, err)
	task := &chain.ChainTask{ID: "ask", Prompt: tmpl(t, "Q: {{.input}}")}
	_, err = s.RunTask(context.Background(), &impl.Config{}, task, func(context.Context, chain.ChainCall) (chain.ChainResult, error) {
		return chain.ChainResult{Output: "half an answer"}, errors.New("model down")
	})
	require.Error(t, err)
	assert.Equal(t, "Q: question", s.Output)
	assert.Equal(t, "Q: question", s.Results["ask"])
	assert.Contains(t, s.Results["ask_error"], "model down")
}

// contenox taskenv.go ExecEnv renders prompt_template into the input of
// every handler; a noop then passes it on (chain-step-executor-gated's
// plan_step_gate_fail_msg), its eval mirroring it (contenox's transitions documentation).
func TestNoopPassesItsPrompt(t *testing.T) {
	s, err := chain.NewChainState(map[string]any{"ignored": true})
	require.NoError(t, err)
	eval, err := s.RunTask(context.Background(), &impl.Config{}, &chain.ChainTask{ID: "msg", Prompt: tmpl(t, "refusing {{ .input.ignored }}")}, chain.BuiltinNoop)
	require.NoError(t, err)
	assert.Equal(t, "refusing true", eval)
	assert.Equal(t, "refusing true", s.Output)
	assert.Equal(t, "refusing true", s.Results["msg"])
}

// contenox taskenv.go, ExecEnv: a missing input_var or a template error
// returns from the chain; only the handler's error (TaskExec) takes
// on_failure.
func TestChainTaskFailed(t *testing.T) {
	s, err := chain.NewChainState("in")
	require.NoError(t, err)
	cfg := &impl.Config{}
	_, err = s.RunTask(context.Background(), cfg, &chain.ChainTask{ID: "a", InputVar: "nowhere"}, chain.BuiltinNoop)
	require.ErrorContains(t, err, `input_var "nowhere"`)
	assert.False(t, chain.ChainTaskFailed(err), "input_var")
	_, err = s.RunTask(context.Background(), cfg, &chain.ChainTask{ID: "b", Prompt: tmpl(t, `{{ fail "no" }}`)}, chain.BuiltinNoop)
	assert.False(t, chain.ChainTaskFailed(err), "prompt_template")
	_, err = s.RunTask(context.Background(), cfg, &chain.ChainTask{ID: "c", Print: tmpl(t, `{{ fail "no" }}`)}, chain.BuiltinNoop)
	assert.False(t, chain.ChainTaskFailed(err), "print")
	_, err = s.RunTask(context.Background(), cfg, &chain.ChainTask{ID: "d"}, chain.BuiltinRaiseError)
	assert.True(t, chain.ChainTaskFailed(err), "the handler")
	assert.False(t, chain.ChainTaskFailed(nil))
}

// contenox taskexec.go at 0c28a698, number: prompt_to_int reads the answer
// with parseNumber and requires a whole number.
func TestPromptToIntReadsANumber(t *testing.T) {
	toInt := func(prompt string) (string, error) {
		r, err := chain.BuiltinPromptToInt(context.Background(), chain.ChainCall{Prompt: prompt})
		return r.Eval, err
	}
	for text, want := range map[string]string{"42": "42", " 7 ": "7", "Score: 8/10": "8", "-3": "-3", "10.0": "10", "about 12 words": "12"} {
		got, err := toInt(text)
		require.NoError(t, err, text)
		assert.Equal(t, want, got, text)
	}
	for _, text := range []string{"", "none", "7.5", "1e20"} {
		_, err := toInt(text)
		assert.Error(t, err, text)
	}
}

func raised(t *testing.T, in any) string {
	t.Helper()
	_, err := chain.BuiltinRaiseError(context.Background(), chain.ChainCall{Task: "t", Input: in})
	var e *impl.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, chain.ErrRaised, e.Name)
	return e.Cause
}

// contenox taskexec.go at 0c28a698, TaskExec HandleRaiseError: the error
// is the input read as a prompt (getPrompt).
func TestRaiseErrorCause(t *testing.T) {
	for name, in := range map[string]any{
		"string":       "disk full",
		"chat history": []any{map[string]any{"role": "user", "content": "hi"}, map[string]any{"role": "assistant", "content": "disk full"}},
	} {
		assert.Equal(t, "disk full", raised(t, in), name)
	}
	assert.Equal(t, "42", raised(t, json.Number("42")))
	assert.Equal(t, `task "t" raised an error`, raised(t, map[string]any{}))
}
