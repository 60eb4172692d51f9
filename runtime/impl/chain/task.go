package chain

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"text/template"
	"time"
	"unicode/utf8"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// ChainTask is what the generated code knows about one task of a chain:
// everything its definition says besides the handler and the transition.
type ChainTask struct {
	ID      string
	Chain   string // the chain's id, for {{chain:id}}
	Debug   bool   // the chain's debug flag, handed to handlers
	Kind    HandlerKind
	Prompt  *template.Template // prompt_template, nil for none
	Print   *template.Template // print, nil for none
	Output  *template.Template // output_template, nil for none
	System  string             // system_instruction, macros unexpanded
	Exec    *ExecuteConfig     // execute_config, macros unexpanded; nil for none
	Tools   *ToolsBlock        // the `tools` (or `hook`) block; nil for none
	Labels  []string           // route: the labels of its equals branches
	Conds   []string           // condition_key: valid_conditions
	Timeout time.Duration      // per attempt; 0 for none
	Retries int                // retry_on_failure: attempts after the first
	// InputVar names the value the task reads as its input: "input", a
	// task's id or a composed variable; "" is the previous task's output.
	InputVar      string
	InputMaxBytes int // caps a string or chat-history input; 0 for no cap
}

// HandlerKind is the documented handler a task names, which decides the
// control token its branches see when the handler leaves Eval empty.
type HandlerKind int

const (
	kindUser             HandlerKind = iota // a handler of your own: its Eval as returned
	KindChatCompletion                      // "tool_call" or "executed"
	KindExecuteToolCalls                    // "tools_executed"
	KindTools                               // "tools_executed", or the rendered output_template
	KindRoute                               // the chosen label
	KindConditionKey                        // "true" or "false"
	KindPromptToString                      // the answer
	KindPromptToInt                         // the answer as a decimal integer
)

// Control tokens: the eval strings the documented handlers produce.
const (
	evalToolCall      = "tool_call"
	evalExecuted      = "executed"
	evalToolsExecuted = "tools_executed"
	evalNoCallsFound  = "no_calls_found"
	evalNoop          = "noop"
)

// ExecuteConfig is a task's execute_config: the model, provider, tools and
// policies an LLM or tool handler should use. Its strings are expanded
// ({{var:model}}) when the task runs.
type ExecuteConfig struct {
	Model            string
	Models           []string // fallback models, tried in order
	Provider         string
	Providers        []string // paired with Models
	Temperature      *float64 // nil: the provider's default
	Tools            []string // allowlist: nil none, ["*"] all, ["*", "!x"] all but x
	HideTools        []string
	ToolsPolicies    map[string]map[string]string // tools provider -> policy key -> value
	PassClientsTools bool
	Think            string
	MaxTokens        int    // 0: the provider's default
	MaxTokensText    string // max_tokens as written when it is a macro, until it expands into MaxTokens
	Shift            bool
	Retry            *LLMRetryPolicy
	Compact          *CompactPolicy
	TokenLimit       int // the chain's token_limit: the chat history's budget
}

// LLMRetryPolicy is execute_config.retry_policy.
type LLMRetryPolicy struct {
	MaxAttempts      int
	InitialBackoff   time.Duration
	MaxBackoff       time.Duration
	Jitter           float64
	RateLimitMinWait time.Duration
	FallbackModel    string
	FallbackAfter    int
}

// CompactPolicy is execute_config.compact_policy.
type CompactPolicy struct {
	Model               string
	Provider            string
	TriggerFraction     float64
	KeepRecent          int
	MinReplacedMessages int
	MaxFailures         int
}

// ToolsBlock is the tool a `tools` task calls: Tool of provider Name.
type ToolsBlock struct {
	Name     string
	ToolName string
	Args     map[string]string
}

// ChainPrint is a task's rendered `print`, emitted when the task succeeds.
type ChainPrint struct {
	Task string
	Text string
}

type chainPrinterKey struct{}

// WithChainPrinter makes chain runs under ctx send each task's `print`
// to f, on the goroutine that runs the chain.
func WithChainPrinter(ctx context.Context, f func(ChainPrint)) context.Context {
	return context.WithValue(ctx, chainPrinterKey{}, f)
}

// RunTask runs task t with handler h and returns its eval string. On
// success the task's print is emitted, and then the output becomes
// s.Output and is kept under the task's id for later templates. When the handler fails
// (ChainTaskFailed), the task's input (its rendered prompt, when it has
// one) becomes s.Output and is kept under the task's id, so that an
// on_failure target receives it, and the error (a *StateError) is kept as
// "<id>_error" and "last_error", as contenox's ExecEnv
// (runtime/taskengine/taskenv.go) does. The handler runs under the task's
// timeout, and again, up to retry_on_failure times, while it fails.
func (s *ChainState) RunTask(ctx context.Context, cfg *impl.Config, t *ChainTask, h ChainHandler) (string, error) {
	if cfg.StateContext {
		ctx = impl.WithState(ctx, t.ID)
	}
	env := &macroEnv{chainID: t.Chain, edges: s.Edges, vars: chainVars(ctx), now: cfg.Now()}
	call, err := s.call(t, env)
	if err != nil {
		return "", &impl.StateError{State: t.ID, Err: &chainSetupError{err}}
	}
	r, err := s.attempt(ctx, cfg, t, h, call)
	if err == nil {
		r, err = s.finish(t, env, call, r)
	}
	if err != nil {
		err = &impl.StateError{State: t.ID, Err: err}
		s.Output = call.Input
		s.results()[t.ID] = call.Input
		s.results()[t.ID+"_error"] = err.Error()
		s.results()["last_error"] = err.Error()
		return "", err
	}
	// print renders before the output is stored, so it reads the values
	// the task started with, as contenox's ExecEnv renders it.
	if err := s.print(ctx, t, env); err != nil {
		return "", &impl.StateError{State: t.ID, Err: &chainSetupError{err}}
	}
	s.Output = r.Output
	s.results()[t.ID] = r.Output
	return r.Eval, nil
}

// attempt calls the handler under the task's timeout and retries.
func (s *ChainState) attempt(ctx context.Context, cfg *impl.Config, t *ChainTask, h ChainHandler, call ChainCall) (ChainResult, error) {
	p := &impl.Policy{State: t.ID, Timeout: t.Timeout}
	if t.Retries > 0 {
		p.Retry = []impl.Retrier{{Errors: []string{impl.ErrALL}, MaxAttempts: t.Retries + 1}}
	}
	var r ChainResult
	err := impl.Call(ctx, cfg, p, func(ctx context.Context) error {
		// Each attempt gets its own input: a failed attempt may have
		// changed its copy, and on_failure gets the original.
		c := call
		c.Input, c.Vars = impl.CloneValue(call.Input), impl.CloneVars(call.Vars)
		var err error
		r, err = h(ctx, c)
		return err
	})
	return r, err
}

// chainSetupError is a failure around a task's handler rather than of it:
// its input_var, prompt, settings or print. contenox's ExecEnv fails the
// chain on those without taking on_failure.
type chainSetupError struct{ err error }

func (e *chainSetupError) Error() string { return e.err.Error() }
func (e *chainSetupError) Unwrap() error { return e.err }

// ChainTaskFailed reports whether err, from RunTask, is a failure of the
// task's handler (or of its output), which on_failure takes; any other
// error fails the chain.
func ChainTaskFailed(err error) bool {
	var setup *chainSetupError
	return err != nil && !errors.As(err, &setup)
}

func (s *ChainState) results() map[string]any {
	if s.Results == nil {
		s.Results = map[string]any{}
	}
	return s.Results
}

// data is what templates read: the chain's input, the last output, each
// task's output under its id, and the composed variables, which win.
func (s *ChainState) data() map[string]any {
	d := make(map[string]any, len(s.Results)+len(s.Vars)+2)
	for k, v := range s.Results {
		d[k] = v
	}
	d["input"] = s.Input
	d["previous_output"] = s.Output
	for k, v := range s.Vars {
		d[k] = v
	}
	return d
}

// call prepares the handler's call: the input (input_var, capped by
// input_max_bytes), the rendered prompt, and the expanded settings.
func (s *ChainState) call(t *ChainTask, env *macroEnv) (ChainCall, error) {
	call := ChainCall{Task: t.ID, Vars: s.Vars, Debug: t.Debug, task: t}
	data := s.data()
	env.data = data
	in := s.Output
	if t.InputVar != "" {
		v, ok := data[t.InputVar]
		if !ok {
			return call, fmt.Errorf("input_var %q: no such task output or variable yet", t.InputVar)
		}
		in = v
	}
	call.Input = capInput(in, t.InputMaxBytes)
	if t.Prompt != nil {
		// The rendered prompt replaces the input of every handler, noop
		// included (contenox's ExecEnv).
		text, err := env.render(t.Prompt, data)
		if err != nil {
			return call, fmt.Errorf("rendering the prompt: %w", err)
		}
		call.Prompt = capString(text, t.InputMaxBytes)
		call.Input = call.Prompt
	}
	var err error
	if call.system, err = env.expand(t.System); err != nil {
		return call, fmt.Errorf("system_instruction: %w", err)
	}
	if t.Exec != nil {
		if call.exec, err = t.Exec.expand(env); err != nil {
			return call, fmt.Errorf("execute_config: %w", err)
		}
	}
	return call, nil
}

// expand returns a copy of e with its macros expanded. flowc calls no
// model itself, so a variable with no value and no default is handed over
// as written ({{var:model}}) rather than failing the task.
func (e *ExecuteConfig) expand(env *macroEnv) (ExecuteConfig, error) {
	lenient := *env
	lenient.lenient = true
	env = &lenient
	out := *e
	for _, f := range []*string{&out.Model, &out.Provider, &out.Think, &out.MaxTokensText} {
		v, err := env.expand(*f)
		if err != nil {
			return out, err
		}
		*f = v
	}
	if out.MaxTokensText != "" && !strings.HasPrefix(out.MaxTokensText, "{{") {
		n, err := strconv.Atoi(strings.TrimSpace(out.MaxTokensText))
		if err != nil || n < 0 {
			return out, fmt.Errorf("max_tokens must expand to a whole number, got %q", out.MaxTokensText)
		}
		out.MaxTokens, out.MaxTokensText = n, ""
	}
	return out, nil
}

// finish brings a handler's result into chain values and gives it the
// control token of its handler when it left Eval empty.
func (s *ChainState) finish(t *ChainTask, env *macroEnv, call ChainCall, r ChainResult) (ChainResult, error) {
	out, err := impl.JSONValue(r.Output)
	if err != nil {
		return r, fmt.Errorf("output: %w", err)
	}
	r.Output = out
	if t.Output != nil {
		text, err := env.render(t.Output, out)
		if err != nil {
			return r, fmt.Errorf("rendering the output_template: %w", err)
		}
		return ChainResult{Output: text, Eval: text}, nil
	}
	if r.Eval == "" {
		r.Eval = controlToken(t.Kind, out)
	}
	return r, nil
}

func controlToken(k HandlerKind, out any) string {
	switch k {
	case KindChatCompletion:
		if hasToolCalls(out) {
			return evalToolCall
		}
		return evalExecuted
	case KindExecuteToolCalls, KindTools:
		return evalToolsExecuted
	}
	return ""
}

// hasToolCalls reports whether the last message of a chat history asks for
// tools, under any of the names providers use for them.
func hasToolCalls(v any) bool {
	if m, ok := v.(map[string]any); ok {
		v = m["messages"]
	}
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return false
	}
	last, _ := list[len(list)-1].(map[string]any)
	for _, key := range []string{"tool_calls", "callTools", "CallTools"} {
		if calls, ok := last[key].([]any); ok && len(calls) > 0 {
			return true
		}
	}
	return false
}

// print renders the task's print against the values before the task's
// output is stored and sends it to the printer of ctx, if any.
func (s *ChainState) print(ctx context.Context, t *ChainTask, env *macroEnv) error {
	if t.Print == nil {
		return nil
	}
	env.data = s.data()
	text, err := env.render(t.Print, env.data)
	if err != nil {
		return fmt.Errorf("rendering print: %w", err)
	}
	if f, ok := ctx.Value(chainPrinterKey{}).(func(ChainPrint)); ok && f != nil {
		f(ChainPrint{Task: t.ID, Text: text})
	}
	return nil
}

// Traverse counts one traversal of the edge from->to, which
// edge_traversed_at_least branches and {{edge_count:from->to}} read.
func (s *ChainState) Traverse(from, to string) {
	if s.Edges == nil {
		s.Edges = map[string]int{}
	}
	s.Edges[from+"->"+to]++
}

// Traversed reports how many times the edge "from->to" has been taken in
// this run.
func (s *ChainState) Traversed(edge string) int { return s.Edges[edge] }

// capInput caps a string or a chat history at max bytes of text: a string
// keeps its start, a history its newest messages. Other values are kept.
func capInput(v any, max int) any {
	if max <= 0 {
		return v
	}
	if text, ok := v.(string); ok {
		return capString(text, max)
	}
	if !isChatHistory(v) {
		return v
	}
	list := v.([]any)
	var kept []any
	left := max
	for i := len(list) - 1; i >= 0 && left > 0; i-- {
		m := list[i].(map[string]any)
		content := m["content"].(string)
		if len(content) > left {
			m = impl.MergeMap(m, map[string]any{"content": capString(content, left)})
		}
		left -= len(content)
		kept = append(kept, m)
	}
	for i, j := 0, len(kept)-1; i < j; i, j = i+1, j-1 {
		kept[i], kept[j] = kept[j], kept[i]
	}
	return kept
}

// capString cuts s to at most max bytes without splitting a character.
func capString(s string, max int) string {
	if max <= 0 || len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}
