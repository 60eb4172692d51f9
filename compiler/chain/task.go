package chain

import (
	"math"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/internal/naming"
	"github.com/flowc-dev/flowc/ir"
)

var (
	execKeys = []string{
		"model", "models", "provider", "providers", "temperature", "tools", "hide_tools",
		"tools_policies", "pass_clients_tools", "think", "max_tokens", "shift", "retry_policy",
		"compact_policy", "hooks", "hook_policies",
	}
	retryKeys = []string{
		"max_attempts", "initial_backoff", "max_backoff", "jitter", "rate_limit_min_wait",
		"fallback_model_id", "fallback_after",
	}
	compactKeys = []string{"model", "provider", "trigger_fraction", "keep_recent", "min_replaced_messages", "max_failures"}
	toolsKeys   = []string{"name", "tool_name", "args"}
)

// chainInfo reads the chain's own keys. A chain `id` names the chain as
// `workflow:` names a flowc workflow: mock configs and Go names use it.
func (l *lowerer) chainInfo(m yamlx.Map, w *ir.Workflow) {
	if n := m.Get("id"); !isAbsent(n) {
		if id, ok := l.String(n, "id"); ok && id != "" {
			w.Chain.ID = id
			if name := naming.Exported(id); name != "" {
				w.ID, w.Name = id, name
			}
		}
	}
	if n := m.Get("description"); !isAbsent(n) {
		w.Description, _ = l.String(n, "description")
	}
	if n := m.Get("token_limit"); !isAbsent(n) {
		w.Chain.TokenLimit = l.Int(n, "token_limit", 0, math.MaxInt32)
	}
	if n := m.Get("debug"); !isAbsent(n) {
		w.Chain.Debug = l.Bool(n, "debug")
	}
	if n := m.Get("$schema"); !isAbsent(n) {
		l.String(n, "$schema")
	}
}

// taskFields reads the keys every handler accepts.
func (l *lowerer) taskFields(m yamlx.Map, s *ir.State) {
	c := s.Chain
	c.Description = l.optString(m, "description")
	c.SystemInstruction = l.optString(m, "system_instruction")
	if n := m.Get("system_instruction"); !isAbsent(n) {
		l.checkMacros(n, c.SystemInstruction, "system_instruction")
	}
	if n := m.Get("print"); !isAbsent(n) {
		c.Print = l.template(n, "print", s.ID, true)
	}
	if n := m.Get("output_template"); !isAbsent(n) {
		c.OutputTemplate = l.template(n, "output_template", s.ID, false)
	}
	if n := m.Get("input_var"); !isAbsent(n) {
		ref := l.ref(n, "input_var")
		c.InputVar = &ref
	}
	if n := m.Get("input_max_bytes"); !isAbsent(n) {
		c.InputMaxBytes = l.Int(n, "input_max_bytes", 0, math.MaxInt32)
	}
	if n := m.Get("timeout"); !isAbsent(n) {
		s.Timeout = l.Duration(n, "timeout")
	}
	if n := m.Get("retry_on_failure"); !isAbsent(n) {
		c.RetryOnFailure = l.Int(n, "retry_on_failure", 0, 1000)
	}
	if n := m.Get("execute_config"); !isAbsent(n) {
		c.Exec = l.execConfig(n)
	}
	for _, key := range []string{"tools", "hook"} {
		if n := m.Get(key); !isAbsent(n) {
			c.Tools = l.toolsCall(n, key)
		}
	}
	if n := m.Get("valid_conditions"); !isAbsent(n) {
		c.ValidConditions = l.conditions(n)
	}
}

func (l *lowerer) optString(m yamlx.Map, key string) string {
	n := m.Get(key)
	if isAbsent(n) {
		return ""
	}
	s, _ := l.String(n, key)
	return s
}

// checkKind reports what a handler needs and cannot work without.
func (l *lowerer) checkKind(m yamlx.Map, s *ir.State) {
	c := s.Chain
	switch c.Kind {
	case ir.ChainTools, ir.ChainHook:
		if c.Tools == nil || c.Tools.Name == "" {
			l.Diags.Errorf(s.Handler.Pos, "a `%s` task needs a `%s` block with the provider's `name`", handlerWord(c.Kind), handlerWord(c.Kind))
		}
	case ir.ChainRoute:
		if c.Labels = routeLabels(s.Next); len(c.Labels) == 0 {
			l.Diags.Errorf(s.Handler.Pos, "a `route` task needs `equals` branches: their `when` values are the labels the model picks from")
		}
	}
	if c.OutputTemplate != "" && c.Kind != ir.ChainTools && c.Kind != ir.ChainHook {
		l.Diags.Warnf(l.Pos(m.Get("output_template")), "output_template renders a tool's result; only `tools` tasks use it")
	}
}

func handlerWord(k ir.ChainHandlerKind) string {
	if k == ir.ChainHook {
		return "hook"
	}
	return "tools"
}

// routeLabels are the `when` values of a task's equals branches, in order.
func routeLabels(t *ir.Transition) []string {
	var out []string
	for _, b := range t.Branches {
		if b.Operator == ir.OpEquals && strings.TrimSpace(b.When) != "" && !slices.Contains(out, b.When) {
			out = append(out, b.When)
		}
	}
	return out
}

func (l *lowerer) execConfig(n *yaml.Node) *ir.ExecuteConfig {
	e := &ir.ExecuteConfig{}
	m, ok := l.mapping(n, "execute_config", execKeys...)
	if !ok {
		return e
	}
	e.Model = l.optString(m, "model")
	e.Provider = l.optString(m, "provider")
	e.Think = l.optString(m, "think")
	e.Models = l.optStrings(m, "models")
	e.Providers = l.optStrings(m, "providers")
	e.HideTools = l.optStrings(m, "hide_tools")
	// `hooks` and `hook_policies` are the older names of the tool settings.
	for _, key := range []string{"tools", "hooks"} {
		if v := m.Get(key); v != nil {
			e.ToolsSet = !isAbsent(v)
			e.Tools = append(e.Tools, l.optStrings(m, key)...)
		}
	}
	for _, key := range []string{"tools_policies", "hook_policies"} {
		if v := m.Get(key); !isAbsent(v) {
			e.ToolsPolicies = l.policies(v, key, e.ToolsPolicies)
		}
	}
	if v := m.Get("temperature"); !isAbsent(v) {
		t := l.Float(v, "temperature", 0, 2)
		e.Temperature = &t
	}
	if v := m.Get("pass_clients_tools"); !isAbsent(v) {
		e.PassClientsTools = l.Bool(v, "pass_clients_tools")
	}
	if v := m.Get("shift"); !isAbsent(v) {
		e.Shift = l.Bool(v, "shift")
	}
	if v := m.Get("max_tokens"); !isAbsent(v) {
		e.MaxTokens = l.maxTokens(v)
	}
	if v := m.Get("retry_policy"); !isAbsent(v) {
		e.Retry = l.retryPolicy(v)
	}
	if v := m.Get("compact_policy"); !isAbsent(v) {
		e.Compact = l.compactPolicy(v)
	}
	for _, f := range []struct{ key, text string }{{"model", e.Model}, {"provider", e.Provider}, {"think", e.Think}} {
		if v := m.Get(f.key); !isAbsent(v) {
			l.checkMacros(v, f.text, "execute_config."+f.key)
		}
	}
	return e
}

func (l *lowerer) optStrings(m yamlx.Map, key string) []string {
	n := m.Get(key)
	if isAbsent(n) {
		return nil
	}
	return l.Strings(n, key)
}

// maxTokens is a whole number, or a macro that expands to one when the task
// runs.
func (l *lowerer) maxTokens(n *yaml.Node) string {
	s, ok := l.String(n, "max_tokens")
	if !ok {
		return ""
	}
	if n.Tag == "!!int" {
		l.Int(n, "max_tokens", 0, math.MaxInt32)
		return s
	}
	l.checkMacros(n, s, "execute_config.max_tokens")
	return s
}

// policies reads {"<provider>": {"<key>": "<value>"}} into into.
func (l *lowerer) policies(n *yaml.Node, what string, into map[string]map[string]string) map[string]map[string]string {
	if n.Kind != yaml.MappingNode {
		l.Diags.Errorf(l.Pos(n), "%s must be a mapping of tool providers to their settings", what)
		return into
	}
	if into == nil {
		into = map[string]map[string]string{}
	}
	for _, e := range l.Pairs(n) {
		into[e.Key.Value] = l.stringMap(e.Value, what+"."+e.Key.Value)
	}
	return into
}

// stringMap reads a mapping of scalars, each kept as its text.
func (l *lowerer) stringMap(n *yaml.Node, what string) map[string]string {
	out := map[string]string{}
	if n.Kind != yaml.MappingNode {
		l.Diags.Errorf(l.Pos(n), "%s must be a mapping", what)
		return out
	}
	for _, e := range l.Pairs(n) {
		if e.Value.Kind != yaml.ScalarNode {
			l.Diags.Errorf(l.Pos(e.Value), "%s.%s must be a string", what, e.Key.Value)
			continue
		}
		out[e.Key.Value] = e.Value.Value
	}
	return out
}

func (l *lowerer) retryPolicy(n *yaml.Node) *ir.LLMRetry {
	r := &ir.LLMRetry{}
	m, ok := l.mapping(n, "retry_policy", retryKeys...)
	if !ok {
		return r
	}
	if v := m.Get("max_attempts"); !isAbsent(v) {
		r.MaxAttempts = l.Int(v, "max_attempts", 0, 1000)
	}
	if v := m.Get("fallback_after"); !isAbsent(v) {
		r.FallbackAfter = l.Int(v, "fallback_after", 0, 1000)
	}
	if v := m.Get("jitter"); !isAbsent(v) {
		r.Jitter = l.Float(v, "jitter", 0, 1)
	}
	r.FallbackModel = l.optString(m, "fallback_model_id")
	if v := m.Get("initial_backoff"); !isAbsent(v) {
		r.InitialBackoff = l.duration(v, "initial_backoff")
	}
	if v := m.Get("max_backoff"); !isAbsent(v) {
		r.MaxBackoff = l.duration(v, "max_backoff")
	}
	if v := m.Get("rate_limit_min_wait"); !isAbsent(v) {
		r.RateLimitMinWait = l.duration(v, "rate_limit_min_wait")
	}
	return r
}

func (l *lowerer) compactPolicy(n *yaml.Node) *ir.CompactPolicy {
	c := &ir.CompactPolicy{}
	m, ok := l.mapping(n, "compact_policy", compactKeys...)
	if !ok {
		return c
	}
	c.Model = l.optString(m, "model")
	c.Provider = l.optString(m, "provider")
	if v := m.Get("trigger_fraction"); !isAbsent(v) {
		c.TriggerFraction = l.Float(v, "trigger_fraction", 0, 1)
	}
	for key, to := range map[string]*int{"keep_recent": &c.KeepRecent, "min_replaced_messages": &c.MinReplacedMessages, "max_failures": &c.MaxFailures} {
		if v := m.Get(key); !isAbsent(v) {
			*to = l.Int(v, key, 0, math.MaxInt32)
		}
	}
	return c
}

func (l *lowerer) toolsCall(n *yaml.Node, what string) *ir.ToolsCall {
	t := &ir.ToolsCall{}
	m, ok := l.mapping(n, "`"+what+"`", toolsKeys...)
	if !ok {
		return t
	}
	t.Name = l.optString(m, "name")
	t.ToolName = l.optString(m, "tool_name")
	if v := m.Get("args"); !isAbsent(v) {
		t.Args = l.stringMap(v, "args")
	}
	return t
}

// conditions reads valid_conditions, a mapping of condition to true, or a
// list of conditions.
func (l *lowerer) conditions(n *yaml.Node) []string {
	var out []string
	if n.Kind == yaml.MappingNode {
		for _, e := range l.Pairs(n) {
			if l.Bool(e.Value, "valid_conditions."+e.Key.Value) {
				out = append(out, e.Key.Value)
			}
		}
	} else {
		out = l.Strings(n, "valid_conditions")
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// duration reads a Go duration string, or an integer of nanoseconds as
// contenox's JSON encoding of a time.Duration writes it.
func (l *lowerer) duration(n *yaml.Node, what string) time.Duration {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!int" {
		return time.Duration(l.Int(n, what, 0, math.MaxInt))
	}
	return l.Duration(n, what)
}
