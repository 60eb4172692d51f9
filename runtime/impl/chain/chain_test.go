package chain_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"text/template"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/runtime/impl"
	"github.com/flowc-dev/flowc/runtime/impl/chain"
)

// value decodes JSON the way chain values are held: numbers as json.Number.
func value(t *testing.T, text string) any {
	t.Helper()
	v, err := impl.DecodeChainInput([]byte(text))
	require.NoError(t, err)
	return v
}

func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func TestComposeStrategies(t *testing.T) {
	const (
		hist1 = `[{"role":"user","content":"hi"}]`
		hist2 = `[{"role":"assistant","content":"hello","name":"bot"}]`
	)
	tests := []struct {
		name              string
		strategy          chain.ComposeStrategy
		current, output   string // "" for a missing variable
		want, errContains string
	}{
		{"override merges maps", chain.ComposeOverride, `{"a":1,"b":2}`, `{"b":3,"c":4}`, `{"a":1,"b":3,"c":4}`, ""},
		{"override replaces a non-map", chain.ComposeOverride, `{"a":1}`, `"text"`, `"text"`, ""},
		{"override replaces with a list", chain.ComposeOverride, hist1, hist2, hist2, ""},
		{"override of a missing variable", chain.ComposeOverride, "", `5`, `5`, ""},
		{"merge puts the output first", chain.ComposeMergeChatHistories, hist1, hist2,
			`[{"content":"hello","name":"bot","role":"assistant"},{"content":"hi","role":"user"}]`, ""},
		{"merge into a missing variable", chain.ComposeMergeChatHistories, "", hist1, hist1, ""},
		{"merge of a non-history output", chain.ComposeMergeChatHistories, hist1, `"text"`, "", "output is not a chat history"},
		{"merge into a non-history variable", chain.ComposeMergeChatHistories, `{"a":1}`, hist1, "", "variable is not a chat history"},
		{"append to a missing variable", chain.ComposeAppendStringToChatHistory, "", `"sure"`, `[{"content":"sure","role":"assistant"}]`, ""},
		{"append to a history", chain.ComposeAppendStringToChatHistory, hist1, `"sure"`,
			`[{"content":"hi","role":"user"},{"content":"sure","role":"assistant"}]`, ""},
		{"append a non-string as JSON", chain.ComposeAppendStringToChatHistory, "", `{"n":1}`, `[{"content":"{\"n\":1}","role":"assistant"}]`, ""},
		{"append to a non-history", chain.ComposeAppendStringToChatHistory, `"text"`, `"sure"`, "", "variable is not a chat history"},
		{"auto merges two histories", chain.ComposeAuto, hist1, hist2,
			`[{"content":"hello","name":"bot","role":"assistant"},{"content":"hi","role":"user"}]`, ""},
		{"auto merges maps", chain.ComposeAuto, `{"a":1}`, `{"b":2}`, `{"a":1,"b":2}`, ""},
		{"auto overrides a history with a string", chain.ComposeAuto, hist1, `"text"`, `"text"`, ""},
		{"auto overrides a missing variable", chain.ComposeAuto, "", hist1, hist1, ""},
		{"empty list is a history", chain.ComposeAuto, `[]`, hist1, hist1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var current any
			if tt.current != "" {
				current = value(t, tt.current)
			}
			output := value(t, tt.output)
			outputBefore := jsonText(t, output)
			got, err := tt.strategy(current, output)
			if tt.errContains != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.errContains)
				return
			}
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, jsonText(t, got))
			assert.Equal(t, outputBefore, jsonText(t, output), "the output must not change")
			if tt.current != "" {
				assert.JSONEq(t, tt.current, jsonText(t, current), "the variable must not change")
			}
		})
	}
}

func TestChatHistory(t *testing.T) {
	got, ok := chain.ChatHistory(value(t, `[{"role":"user","content":"hi","extra":1}]`))
	require.True(t, ok)
	assert.Equal(t, impl.Messages{{Role: "user", Content: "hi"}}, got)
	for _, notHistory := range []string{`"hi"`, `[{"role":"user"}]`, `[{"role":"user","content":null}]`, `[1]`, `{"role":"user","content":"hi"}`} {
		_, ok := chain.ChatHistory(value(t, notHistory))
		assert.False(t, ok, notHistory)
	}
}

func TestNewChainState(t *testing.T) {
	s, err := chain.NewChainState(struct {
		N int `json:"n"`
	}{7})
	require.NoError(t, err)
	assert.Equal(t, `{"output":{"n":7},"vars":{}}`, jsonText(t, s), "vars is always an object")

	_, err = chain.NewChainState(make(chan int))
	assert.Error(t, err)
}

func TestRunTask(t *testing.T) {
	s, err := chain.NewChainState(value(t, `{"items":[1,2]}`))
	require.NoError(t, err)
	s.Vars["name"] = "Ada"
	prompt := template.Must(template.New("greet").Option("missingkey=error").Parse("Hello {{.name}}"))
	var got chain.ChainCall
	eval, err := s.RunTask(context.Background(), &impl.Config{}, &chain.ChainTask{ID: "greet", Prompt: prompt}, func(_ context.Context, call chain.ChainCall) (chain.ChainResult, error) {
		got = call
		// The call is the handler's own: changing it changes nothing.
		call.Vars["name"] = "Bob"
		return chain.ChainResult{Output: impl.Messages{{Role: "assistant", Content: "hi"}}, Eval: "done"}, nil
	})
	require.NoError(t, err)
	assert.Equal(t, "done", eval)
	assert.Equal(t, "greet", got.Task)
	assert.Equal(t, "Hello Ada", got.Prompt)
	assert.Equal(t, "Hello Ada", got.Input, "the rendered prompt is the input (contenox taskenv.go ExecEnv)")
	assert.Equal(t, `{"output":[{"content":"hi","role":"assistant"}],"vars":{"name":"Ada"}}`, jsonText(t, s))
	_, isHistory := chain.ChatHistory(s.Output)
	assert.True(t, isHistory, "outputs are plain JSON values, so Messages count as a chat history")
}

func TestRunTaskFailure(t *testing.T) {
	fail := func(_ context.Context, _ chain.ChainCall) (chain.ChainResult, error) {
		return chain.ChainResult{Output: "ignored"}, impl.NewError("Boom", "it broke")
	}
	crash := func(_ context.Context, _ chain.ChainCall) (chain.ChainResult, error) {
		panic("crash")
	}
	missing := template.Must(template.New("t").Option("missingkey=error").Parse("{{.nope}}"))
	for name, run := range map[string]func(s *chain.ChainState) error{
		"error": func(s *chain.ChainState) error {
			_, err := s.RunTask(context.Background(), &impl.Config{}, &chain.ChainTask{ID: "t"}, fail)
			return err
		},
		"panic": func(s *chain.ChainState) error {
			_, err := s.RunTask(context.Background(), &impl.Config{}, &chain.ChainTask{ID: "t"}, crash)
			return err
		},
		"missing variable": func(s *chain.ChainState) error {
			_, err := s.RunTask(context.Background(), &impl.Config{}, &chain.ChainTask{ID: "t", Prompt: missing}, chain.BuiltinNoop)
			return err
		},
	} {
		s, err := chain.NewChainState("input")
		require.NoError(t, err)
		err = run(&s)
		var se *impl.StateError
		require.ErrorAs(t, err, &se, name)
		assert.Equal(t, "t", se.State, name)
		assert.Equal(t, "input", s.Output, "%s: a failed task leaves its input for on_failure", name)
	}
}

func TestRunTaskStateContext(t *testing.T) {
	s, err := chain.NewChainState(nil)
	require.NoError(t, err)
	var id string
	_, err = s.RunTask(context.Background(), &impl.Config{StateContext: true}, &chain.ChainTask{ID: "tagged"}, func(ctx context.Context, _ chain.ChainCall) (chain.ChainResult, error) {
		id = impl.StateFromContext(ctx)
		return chain.ChainResult{}, nil
	})
	require.NoError(t, err)
	assert.Equal(t, "tagged", id)
}

func TestCompose(t *testing.T) {
	s, err := chain.NewChainState("first")
	require.NoError(t, err)
	require.NoError(t, s.Compose("t", "log", chain.ComposeAppendStringToChatHistory))
	s.Output = "second"
	require.NoError(t, s.Compose("t", "log", chain.ComposeAppendStringToChatHistory))
	assert.JSONEq(t, `[{"role":"assistant","content":"first"},{"role":"assistant","content":"second"}]`, jsonText(t, s.Vars["log"]))

	err = s.Compose("t", "log", chain.ComposeMergeChatHistories)
	var se *impl.StateError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "t", se.State)
	assert.Contains(t, err.Error(), `compose into "log"`)
}

func TestBuiltins(t *testing.T) {
	ctx := context.Background()
	call := func(input any, prompt string) chain.ChainCall {
		return chain.ChainCall{Task: "b", Input: input, Prompt: prompt}
	}

	r, err := chain.BuiltinNoop(ctx, call("as is", ""))
	require.NoError(t, err)
	assert.Equal(t, chain.ChainResult{Output: "as is", Eval: "as is"}, r, "a string mirrors itself")
	r, err = chain.BuiltinNoop(ctx, call(value(t, `{"b":[1,"<x>"],"a":true}`), ""))
	require.NoError(t, err)
	assert.Equal(t, `{"a":true,"b":[1,"<x>"]}`, r.Eval, "any other value mirrors its JSON encoding")

	r, err = chain.BuiltinPromptToString(ctx, call(nil, "rendered"))
	require.NoError(t, err)
	assert.Equal(t, chain.ChainResult{Output: "rendered", Eval: "rendered"}, r)

	r, err = chain.BuiltinPromptToInt(ctx, call(nil, " 042\n"))
	require.NoError(t, err)
	assert.Equal(t, chain.ChainResult{Output: json.Number("42"), Eval: "42"}, r)
	for _, bad := range []string{"4.2", "forty", "", "99999999999999999999"} {
		_, err = chain.BuiltinPromptToInt(ctx, call(nil, bad))
		assert.Error(t, err, bad)
	}

	_, err = chain.BuiltinRaiseError(ctx, call(nil, "quota exceeded"))
	assert.Equal(t, chain.ErrRaised, impl.ErrorName(err))
	assert.EqualError(t, err, "RaiseError: quota exceeded")
	_, err = chain.BuiltinRaiseError(ctx, call(nil, ""))
	assert.EqualError(t, err, `RaiseError: task "b" raised an error`)
}

func TestDecodeChainInput(t *testing.T) {
	v, err := impl.DecodeChainInput([]byte(` [1, "a", null] `))
	require.NoError(t, err)
	assert.Equal(t, []any{json.Number("1"), "a", nil}, v)
	for _, bad := range []string{``, `{`, `1 2`} {
		_, err := impl.DecodeChainInput([]byte(bad))
		assert.Error(t, err, bad)
	}
}

func TestJSONValueErrors(t *testing.T) {
	_, err := impl.JSONValue(map[string]any{"f": func() {}})
	assert.Error(t, err)
	_, err = impl.JSONValue([]any{json.Number("not a number")})
	assert.Error(t, err)
}

// An on_failure target must get the failed task's input as it was, even
// when the handler changed its copy before failing.
func TestRunTaskInputIsACopy(t *testing.T) {
	s, err := chain.NewChainState(value(t, `{"items":[1,2]}`))
	require.NoError(t, err)
	_, err = s.RunTask(context.Background(), &impl.Config{}, &chain.ChainTask{ID: "t"}, func(_ context.Context, call chain.ChainCall) (chain.ChainResult, error) {
		call.Input.(map[string]any)["items"].([]any)[0] = "changed"
		return chain.ChainResult{}, errors.New("failed")
	})
	require.Error(t, err)
	assert.Equal(t, `{"items":[1,2]}`, jsonText(t, s.Output))
}
