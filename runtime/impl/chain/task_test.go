package chain_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"text/template"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/runtime/impl"
	"github.com/flowc-dev/flowc/runtime/impl/chain"
)

func tmpl(t *testing.T, text string) *template.Template {
	t.Helper()
	tp, err := chain.ChainTemplate("t", chain.MacroTemplate(text))
	require.NoError(t, err)
	return tp
}

func returns(out any, eval string) chain.ChainHandler {
	return func(context.Context, chain.ChainCall) (chain.ChainResult, error) {
		return chain.ChainResult{Output: out, Eval: eval}, nil
	}
}

// Templates read the chain's input and each task's output by id; the
// composed variables win over both.
func TestTaskOutputsInTemplates(t *testing.T) {
	s, err := chain.NewChainState("question")
	require.NoError(t, err)
	cfg := &impl.Config{}
	_, err = s.RunTask(context.Background(), cfg, &chain.ChainTask{ID: "first"}, returns("one", ""))
	require.NoError(t, err)
	_, err = s.RunTask(context.Background(), cfg, &chain.ChainTask{ID: "second"}, returns("two", ""))
	require.NoError(t, err)
	var got chain.ChainCall
	task := &chain.ChainTask{ID: "third", InputVar: "first", Prompt: tmpl(t, "{{.input}}/{{.first}}/{{.second}}/{{.previous_output}}")}
	_, err = s.RunTask(context.Background(), cfg, task, func(_ context.Context, c chain.ChainCall) (chain.ChainResult, error) {
		got = c
		return chain.ChainResult{Output: c.Prompt}, nil
	})
	require.NoError(t, err)
	assert.Equal(t, "question/one/two/two", got.Prompt)
	assert.Equal(t, got.Prompt, got.Input, "the rendered prompt replaces the input (contenox taskenv.go ExecEnv)")
	_, err = s.RunTask(context.Background(), cfg, &chain.ChainTask{ID: "fourth", InputVar: "first"}, func(_ context.Context, c chain.ChainCall) (chain.ChainResult, error) {
		got = c
		return chain.ChainResult{}, nil
	})
	require.NoError(t, err)
	assert.Equal(t, "one", got.Input, "input_var picks the task's input")

	_, err = s.RunTask(context.Background(), cfg, &chain.ChainTask{ID: "bad", InputVar: "later"}, returns("x", ""))
	require.ErrorContains(t, err, `input_var "later"`)
}

func TestMacros(t *testing.T) {
	clock := impl.NewFakeClock(time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC))
	cfg := &impl.Config{Clock: clock}
	s, err := chain.NewChainState(nil)
	require.NoError(t, err)
	s.Traverse("chat", "tools")
	s.Traverse("chat", "tools")
	ctx := chain.WithChainVars(context.Background(), map[string]string{"model": "qwen", "empty": ""})
	task := &chain.ChainTask{
		ID: "t", Chain: "demo",
		Prompt: tmpl(t, "{{edge_count:chat->tools}} {{edge_count:x->y}} {{var:model}} {{var:empty|fallback}} {{var:none|var:model}} {{date}} {{chain:id}} {{tools}}"),
		System: "Model {{var:model}} on {{now:2006}}; {{ .not_a_macro }}",
		Exec:   &chain.ExecuteConfig{Model: "{{var:model}}", MaxTokensText: "{{var:max|512}}"},
	}
	var got chain.LLMCall
	_, err = s.RunTask(ctx, cfg, task, chain.ChatHandler(func(_ context.Context, c chain.LLMCall) (chain.ChainResult, error) {
		got = c
		return chain.ChainResult{}, nil
	}))
	require.NoError(t, err)
	assert.Equal(t, "2 0 qwen fallback qwen 2026-03-04 demo {{tools}}", got.Prompt)
	assert.Equal(t, "Model qwen on 2026; {{ .not_a_macro }}", got.System, "system_instruction expands macros only")
	assert.Equal(t, "qwen", got.Config.Model)
	assert.Equal(t, 512, got.Config.MaxTokens)
	assert.Equal(t, impl.Messages{{Role: "user", Content: got.Prompt}}, got.Messages)

	_, err = s.RunTask(context.Background(), cfg, &chain.ChainTask{ID: "u", System: "{{var:model}}"}, returns("", ""))
	require.ErrorContains(t, err, `template variable "model" is not set`)

	// Without a template variable, {{var:name}} reads the run's values; an
	// execute_config whose variable has no value gets the macro as written.
	s.Vars["topic"] = "rain"
	_, err = s.RunTask(context.Background(), cfg, &chain.ChainTask{ID: "w"}, returns("sun", ""))
	require.NoError(t, err)
	task = &chain.ChainTask{ID: "v", System: "{{var:topic}} after {{var:w}}", Exec: &chain.ExecuteConfig{Model: "{{var:model}}", MaxTokensText: "{{var:max}}"}}
	_, err = s.RunTask(context.Background(), cfg, task, chain.ChatHandler(func(_ context.Context, c chain.LLMCall) (chain.ChainResult, error) {
		got = c
		return chain.ChainResult{}, nil
	}))
	require.NoError(t, err)
	assert.Equal(t, "rain after sun", got.System)
	assert.Equal(t, "{{var:model}}", got.Config.Model)
	assert.Zero(t, got.Config.MaxTokens)
}

// A var value is text, never template syntax.
func TestMacroValueIsNotTemplate(t *testing.T) {
	s, err := chain.NewChainState(nil)
	require.NoError(t, err)
	ctx := chain.WithChainVars(context.Background(), map[string]string{"x": "{{.input}}"})
	var prompt string
	_, err = s.RunTask(ctx, &impl.Config{}, &chain.ChainTask{ID: "t", Prompt: tmpl(t, "[{{var:x}}]")}, func(_ context.Context, c chain.ChainCall) (chain.ChainResult, error) {
		prompt = c.Prompt
		return chain.ChainResult{}, nil
	})
	require.NoError(t, err)
	assert.Equal(t, "[{{.input}}]", prompt)
}

func TestSelectRoute(t *testing.T) {
	labels := []string{"urgent", "Normal"}
	for answer, want := range map[string]string{
		"urgent":                  "urgent",
		"  NORMAL ":               "Normal",
		"I think this is Urgent.": "urgent",
		"none of these":           "none of these",
	} {
		assert.Equal(t, want, chain.SelectRoute(answer, labels), answer)
	}
}

// A route passes its input through, and its eval is the chosen label; the
// model sees the labels in its system instruction.
func TestRouteHandler(t *testing.T) {
	s, err := chain.NewChainState("ticket text")
	require.NoError(t, err)
	var system string
	task := &chain.ChainTask{ID: "r", Kind: chain.KindRoute, System: "Triage.", Labels: []string{"bug", "question"}}
	eval, err := s.RunTask(context.Background(), &impl.Config{}, task, chain.RouteHandler(func(_ context.Context, c chain.RouteCall) (string, error) {
		system = c.System
		return "Looks like a BUG to me", nil
	}))
	require.NoError(t, err)
	assert.Equal(t, "bug", eval)
	assert.Equal(t, "ticket text", s.Output)
	assert.True(t, strings.HasPrefix(system, "Triage.\n\n") && strings.HasSuffix(system, "bug, question"), system)
}

func TestControlTokens(t *testing.T) {
	history := value(t, `[{"role":"user","content":"hi"}]`)
	calling := value(t, `[{"role":"assistant","content":"","tool_calls":[{"id":"1"}]}]`)
	run := func(kind chain.HandlerKind, input any, h chain.ChainHandler) string {
		s, err := chain.NewChainState(input)
		require.NoError(t, err)
		eval, err := s.RunTask(context.Background(), &impl.Config{}, &chain.ChainTask{ID: "t", Kind: kind}, h)
		require.NoError(t, err)
		return eval
	}
	chat := func(out any) chain.ChainHandler {
		return chain.ChatHandler(func(context.Context, chain.LLMCall) (chain.ChainResult, error) {
			return chain.ChainResult{Output: out}, nil
		})
	}
	tools := chain.ToolCallsHandler(func(_ context.Context, c chain.ToolCallsCall) (chain.ChainResult, error) {
		return chain.ChainResult{Output: c.Input}, nil
	})
	assert.Equal(t, "tool_call", run(chain.KindChatCompletion, history, chat(calling)))
	assert.Equal(t, "executed", run(chain.KindChatCompletion, history, chat(history)))
	assert.Equal(t, "tools_executed", run(chain.KindExecuteToolCalls, calling, tools))
	assert.Equal(t, "no_calls_found", run(chain.KindExecuteToolCalls, history, tools))
	assert.Equal(t, "noop", run(chain.KindExecuteToolCalls, []any{}, tools))
	assert.Equal(t, "stop", run(chain.KindChatCompletion, history, returns(history, "stop")), "an eval the handler gives is kept")
}

// output_template renders over the tool's JSON result; print is emitted
// and changes nothing.
func TestToolsOutputTemplateAndPrint(t *testing.T) {
	s, err := chain.NewChainState(nil)
	require.NoError(t, err)
	var prints []chain.ChainPrint
	ctx := chain.WithChainPrinter(context.Background(), func(p chain.ChainPrint) { prints = append(prints, p) })
	task := &chain.ChainTask{
		ID: "fetch", Kind: chain.KindTools,
		Tools:  &chain.ToolsBlock{Name: "http", ToolName: "get", Args: map[string]string{"url": "u"}},
		Output: tmpl(t, "code={{.code}}"),
		Print:  tmpl(t, "fetched: {{.fetch}} after {{.previous_output}}"),
	}
	var call chain.ToolCall
	eval, err := s.RunTask(ctx, &impl.Config{}, task, chain.ToolsHandler(func(_ context.Context, c chain.ToolCall) (chain.ChainResult, error) {
		call = c
		return chain.ChainResult{Output: map[string]any{"code": 200}}, nil
	}))
	require.NoError(t, err)
	assert.Equal(t, "code=200", eval)
	assert.Equal(t, "code=200", s.Output)
	// contenox taskenv.go ExecEnv renders print before it stores the
	// task's output ("a task's Print that references its own id ... renders
	// <no value>").
	assert.Equal(t, []chain.ChainPrint{{Task: "fetch", Text: "fetched: <no value> after <no value>"}}, prints)
	assert.Equal(t, "http", call.Name)
	assert.Equal(t, "get", call.Tool)
	assert.Equal(t, map[string]string{"url": "u"}, call.Args)
}

// retry_on_failure runs a failing task again; after the last attempt the
// error is kept for templates as <id>_error and last_error.
func TestRetryOnFailure(t *testing.T) {
	s, err := chain.NewChainState("in")
	require.NoError(t, err)
	calls := 0
	flaky := func(context.Context, chain.ChainCall) (chain.ChainResult, error) {
		calls++
		if calls < 3 {
			return chain.ChainResult{}, errors.New("flaky")
		}
		return chain.ChainResult{Output: "ok"}, nil
	}
	_, err = s.RunTask(context.Background(), &impl.Config{}, &chain.ChainTask{ID: "t", Retries: 2}, flaky)
	require.NoError(t, err)
	assert.Equal(t, 3, calls)

	calls = 0
	_, err = s.RunTask(context.Background(), &impl.Config{}, &chain.ChainTask{ID: "u", Retries: 1}, flaky)
	require.Error(t, err)
	assert.Equal(t, 2, calls)
	assert.Contains(t, s.Results["u_error"], "flaky")
	assert.Equal(t, s.Results["u_error"], s.Results["last_error"])
	assert.Equal(t, "ok", s.Output, "a failed task leaves the last output")
}

func TestTaskTimeout(t *testing.T) {
	s, err := chain.NewChainState(nil)
	require.NoError(t, err)
	slow := func(ctx context.Context, _ chain.ChainCall) (chain.ChainResult, error) {
		<-ctx.Done()
		return chain.ChainResult{}, ctx.Err()
	}
	_, err = s.RunTask(context.Background(), &impl.Config{}, &chain.ChainTask{ID: "t", Timeout: time.Millisecond}, slow)
	assert.Equal(t, "Timeout", impl.ErrorName(err))
}

func TestInputMaxBytes(t *testing.T) {
	for _, c := range []struct{ input, want string }{
		{`"héllo world"`, `"héll"`},
		{`[{"role":"user","content":"old message"},{"role":"assistant","content":"abc"}]`, `[{"content":"ol","role":"user"},{"content":"abc","role":"assistant"}]`},
		{`{"kept": "as it is"}`, `{"kept":"as it is"}`},
	} {
		s, err := chain.NewChainState(value(t, c.input))
		require.NoError(t, err)
		var got any
		_, err = s.RunTask(context.Background(), &impl.Config{}, &chain.ChainTask{ID: "t", InputMaxBytes: 5}, func(_ context.Context, call chain.ChainCall) (chain.ChainResult, error) {
			got = call.Input
			return chain.ChainResult{}, nil
		})
		require.NoError(t, err)
		assert.Equal(t, c.want, jsonText(t, got), c.input)
	}
}
