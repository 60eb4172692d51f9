package flowyaml

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/compiler/diag"
	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/ir"
)

// CodeMie's configuration reference, read in JSON mode. Every key of it is
// either lowered into behaviour (context flags, retry_policy,
// recursion_limit, ...) or checked and handed to the handler typed (an
// assistant's model, tools, MCP servers, ...); see ir.CodeMie.

// kind is the JSON type a configuration value must have.
type kind int

const (
	kString kind = iota
	kInt
	kNumber
	kBool
	kStrings
	kStringMap
	kAny    // any YAML value
	kObject // fields
	kObjects
)

type field struct {
	key  string
	kind kind
	sub  []field
}

var mcpConfigFields = []field{
	{"command", kString, nil}, {"args", kStrings, nil}, {"env", kStringMap, nil}, {"url", kString, nil},
	{"headers", kStringMap, nil}, {"type", kString, nil}, {"auth_token", kString, nil}, {"single_usage", kBool, nil},
}

var mcpFields = []field{
	{"name", kString, nil}, {"description", kString, nil}, {"enabled", kBool, nil}, {"config", kObject, mcpConfigFields},
	{"mcp_config_id", kString, nil}, {"use_custom_config", kBool, nil}, {"mcp_connect_url", kString, nil},
	{"tools_tokens_size_limit", kInt, nil}, {"command", kString, nil}, {"arguments", kString, nil},
	{"integration_alias", kString, nil}, {"resolve_dynamic_values_in_arguments", kBool, nil}, {"tools", kStrings, nil},
	{"settings", kAny, nil}, {"mcp_connect_auth_token", kAny, nil},
}

var assistantFields = []field{
	{"id", kString, nil}, {"assistant_id", kString, nil}, {"name", kString, nil}, {"model", kString, nil},
	{"temperature", kNumber, nil}, {"system_prompt", kString, nil}, {"limit_tool_output_tokens", kInt, nil},
	{"tools", kObjects, []field{{"name", kString, nil}, {"integration_alias", kString, nil}}},
	{"datasource_ids", kStrings, nil}, {"skill_ids", kStrings, nil}, {"exclude_extra_context_tools", kBool, nil},
	{"mcp_servers", kObjects, mcpFields},
}

var toolFields = []field{
	{"id", kString, nil}, {"tool", kString, nil}, {"tool_args", kAny, nil}, {"integration_alias", kString, nil},
	{"tool_result_json_pointer", kString, nil}, {"trace", kBool, nil}, {"resolve_dynamic_values_in_response", kBool, nil},
	{"mcp_server", kObject, mcpFields}, {"input_key", kString, nil}, {"tokens_size_limit", kInt, nil},
	{"toolset", kString, nil},
}

var customNodeFields = []field{
	{"id", kString, nil}, {"custom_node_id", kString, nil}, {"name", kString, nil}, {"model", kString, nil},
	{"system_prompt", kString, nil}, {"config", kAny, nil},
}

// retryFields: the _seconds spellings appear in CodeMie's katas.
var retryFields = []field{
	{"initial_interval", kNumber, nil}, {"backoff_factor", kNumber, nil}, {"max_interval", kNumber, nil}, {"max_attempts", kInt, nil},
	{"initial_interval_seconds", kNumber, nil}, {"max_interval_seconds", kNumber, nil},
}

// codemieTopKeys are the workflow-level keys of the reference, and those
// CodeMie's own workflow files carry around them.
var codemieTopKeys = []string{
	"assistants", "tools", "custom_nodes", "messages_limit_before_summarization", "tokens_limit_before_summarization",
	"enable_summarization_node", "recursion_limit", "max_concurrency", "verbose", "type", "max_iteration_key_output_limit",
	"retry_policy", "name", "mode", "slug", "icon_url", "project", "shared", "supervisor_prompt", "start_hint",
	"limit_tool_output_tokens",
}

var codemieStateKeys = []string{
	"mcp_servers", "custom_node_id", "output_schema", "retry_policy", "interrupt_before", "wait_for_user_confirmation",
	"finish_iteration", "resolve_dynamic_values_in_prompt", "result_as_human_message",
}

var codemieNextKeys = []string{
	"output_key", "keep_history", "store_in_context", "include_in_llm_history", "clear_prior_messages",
	"clear_context_store", "reset_keys_in_context_store", "include_in_iterator_context", "append_to_context",
	"override_task", "meta_iter_state_id", "meta_next_state_id", "use_flyweight_history",
}

// value converts n to the JSON value of kind k, reporting a mismatch.
func (l *lowerer) value(n *yaml.Node, k kind, sub []field, what string) any {
	switch k {
	case kString:
		s, _ := l.String(n, what)
		return s
	case kInt:
		return l.Int(n, what, 0, math.MaxInt32)
	case kNumber:
		return l.Float(n, what, -1e15, 1e15)
	case kBool:
		return l.Bool(n, what)
	case kStrings:
		if n.Kind != yaml.SequenceNode {
			l.Diags.Errorf(l.Pos(n), "%s must be a list of strings", what)
			return []string{}
		}
		return l.Strings(n, what)
	case kStringMap:
		out := map[string]any{}
		if n.Kind != yaml.MappingNode {
			l.Diags.Errorf(l.Pos(n), "%s must be a mapping", what)
			return out
		}
		for _, e := range l.Pairs(n) {
			out[e.Key.Value], _ = l.String(e.Value, what+" `"+e.Key.Value+"`")
		}
		return out
	case kObject:
		return l.object(n, sub, what)
	case kObjects:
		out := []any{}
		for _, item := range l.Seq(n, what) {
			out = append(out, l.object(item, sub, "an item of "+what))
		}
		return out
	}
	return l.anyValue(n)
}

// object reads a mapping with the given fields.
func (l *lowerer) object(n *yaml.Node, fields []field, what string) map[string]any {
	keys := make([]string, len(fields))
	for i, f := range fields {
		keys[i] = f.key
	}
	out := map[string]any{}
	m, ok := l.Mapping(n, what, keys...)
	if !ok {
		return out
	}
	for _, f := range fields {
		if v := m.Get(f.key); v != nil {
			out[f.key] = l.value(v, f.kind, f.sub, "`"+f.key+"`")
		}
	}
	return out
}

// anyValue converts any YAML value to JSON: null, booleans, numbers and
// strings as YAML resolves them, lists and mappings recursively. Aliases
// are followed, within a bound on depth and size, so that a recursive or
// exponential alias is an error rather than a crash.
func (l *lowerer) anyValue(n *yaml.Node) any {
	budget := maxValueNodes
	v, ok := l.jsonOf(n, 0, &budget)
	if !ok {
		l.Diags.Errorf(l.Pos(n), "value nested more than %d deep or larger than %d nodes (a recursive alias?)", maxValueDepth, maxValueNodes)
		return nil
	}
	return v
}

const (
	maxValueDepth = 64
	maxValueNodes = 100000
)

func (l *lowerer) jsonOf(n *yaml.Node, depth int, budget *int) (any, bool) {
	if *budget--; depth > maxValueDepth || *budget < 0 {
		return nil, false
	}
	switch n.Kind {
	case yaml.AliasNode:
		return l.jsonOf(n.Alias, depth+1, budget)
	case yaml.SequenceNode:
		out := []any{}
		for _, item := range n.Content {
			v, ok := l.jsonOf(item, depth+1, budget)
			if !ok {
				return nil, false
			}
			out = append(out, v)
		}
		return out, true
	case yaml.MappingNode:
		out := map[string]any{}
		for _, e := range l.Pairs(n) {
			v, ok := l.jsonOf(e.Value, depth+1, budget)
			if !ok {
				return nil, false
			}
			out[e.Key.Value] = v
		}
		return out, true
	}
	return scalarValue(n), true
}

// scalarValue is a scalar as YAML resolves it; numbers JSON cannot hold
// (.inf, .nan) stay text.
func scalarValue(n *yaml.Node) any {
	switch n.Tag {
	case "!!null":
		return nil
	case "!!bool", "!!int", "!!float":
		var v any
		if n.Decode(&v) == nil {
			if f, ok := v.(float64); ok && (math.IsInf(f, 0) || math.IsNaN(f)) {
				return n.Value
			}
			return v
		}
	}
	return n.Value
}

// compact encodes a JSON value; map keys come out sorted.
func compact(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// notJSON reports the keys of m that only CodeMie workflows have, when
// the workflow is typed, and whether it is.
func (l *lowerer) notJSON(m yamlx.Map, keys []string) bool {
	if l.json {
		return false
	}
	for _, k := range keys {
		if e, ok := m.Entries[k]; ok {
			l.Diags.Errorf(l.Pos(e.Key), "`%s` belongs to CodeMie workflows, which have no `state:` schema", k)
		}
	}
	return true
}

// codemie reads the workflow-level CodeMie keys of m.
func (l *lowerer) codemie(m yamlx.Map, w *ir.Workflow) {
	if l.notJSON(m, codemieTopKeys) {
		return
	}
	cm := &ir.CodeMie{}
	w.CodeMie = cm
	cm.Assistants = l.configs(m.Get("assistants"), "assistants", assistantFields)
	cm.Tools = l.configs(m.Get("tools"), "tools", toolFields)
	cm.CustomNodes = l.configs(m.Get("custom_nodes"), "custom_nodes", customNodeFields)
	l.settings(m, cm)
}

// configs reads a list of assistants, tools or custom nodes; nil when the
// workflow has no such list.
func (l *lowerer) configs(n *yaml.Node, what string, fields []field) map[string]*ir.Config {
	if n == nil {
		return nil
	}
	out := map[string]*ir.Config{}
	for _, item := range l.Seq(n, what) {
		obj := l.object(item, fields, "an entry of `"+what+"`")
		id, _ := obj["id"].(string)
		c := &ir.Config{Pos: l.Pos(item), ID: id}
		if item.Kind == yaml.MappingNode {
			l.configDetails(item, c, obj, what)
		}
		switch {
		case id == "":
			l.Diags.Errorf(c.Pos, "an entry of `%s` needs an `id`", what)
			continue
		case out[id] != nil:
			l.Diags.Errorf(c.Pos, "%s id %q repeated", strings.TrimSuffix(what, "s"), id)
			continue
		}
		if what == "custom_nodes" {
			l.customNodeType(c, obj)
		}
		servers, _ := obj["mcp_servers"].([]any)
		c.MCP = obj["mcp_server"] != nil || len(servers) > 0
		c.Datasources = namesDatasources(obj)
		c.JSON = compact(obj)
		out[id] = c
	}
	return out
}

// engineNodes are the modules of CodeMie's workflows/nodes package that
// init_custom_node (workflow.py) can load as a custom node: a custom node's
// custom_node_id must name one.
var engineNodes = []string{
	"agent_node", "bedrock_flow_node", "generate_documents_tree", "result_finalizer_node", "state_processor_node",
	"summarize_conversation_node", "supervisor_node", "tool_node", "transform_node",
}

// customNodeType defaults a custom node's custom_node_id to its id, as
// CodeMie does, and warns when it names no node CodeMie has: CodeMie
// cannot load it, where flowc hands it to the handler like any other.
func (l *lowerer) customNodeType(c *ir.Config, obj map[string]any) {
	if obj["custom_node_id"] == nil {
		obj["custom_node_id"] = c.ID
	}
	if node, _ := obj["custom_node_id"].(string); !slices.Contains(engineNodes, node) {
		l.Diags.Warnf(c.Pos, "custom node %q runs %q, which is none of CodeMie's nodes (%s): CodeMie cannot load it (workflow.py, init_custom_node); flowc hands it to its handler",
			c.ID, node, strings.Join(engineNodes, ", "))
	}
}

// configDetails parses what the runtime renders: an assistant's system
// prompt and a tool's default tool_args.
func (l *lowerer) configDetails(item *yaml.Node, c *ir.Config, obj map[string]any, what string) {
	m := yamlx.Map{Entries: map[string]yamlx.Entry{}}
	for _, e := range l.Pairs(item) {
		m.Entries[e.Key.Value] = e
	}
	if n := m.Get("system_prompt"); n != nil && what == "assistants" {
		l.jinja = true
		c.SystemPrompt = l.template(n, n.Value, "system_prompt")
		l.jinja = false
	}
	if n := m.Get("tool_args"); n != nil && what == "tools" {
		c.ToolArgs = l.toolArgs(n)
	}
	if n := m.Get("assistant_id"); n == nil && what == "assistants" && m.Get("system_prompt") == nil && m.Get("model") == nil {
		l.Diags.Errorf(c.Pos, "assistant %q needs `assistant_id` (an existing assistant) or an inline definition with `system_prompt`", obj["id"])
	}
}

// settings reads the workflow-level settings.
func (l *lowerer) settings(m yamlx.Map, cm *ir.CodeMie) {
	for _, k := range codemieTopKeys[3:] {
		n := m.Get(k)
		if n == nil {
			continue
		}
		var v any
		switch k {
		case "messages_limit_before_summarization", "tokens_limit_before_summarization", "recursion_limit",
			"max_concurrency", "max_iteration_key_output_limit", "limit_tool_output_tokens":
			v = l.Int(n, k, 1, settingMax[k])
		case "enable_summarization_node", "verbose", "shared":
			v = l.Bool(n, k)
		case "retry_policy":
			v = l.object(n, retryFields, "retry_policy")
		default:
			v, _ = l.String(n, k)
		}
		cm.Settings = append(cm.Settings, ir.Setting{Key: k, Value: compact(v)})
		l.setting(cm, k, v)
	}
}

// settingMax are the upper bounds of execution_config_schema.yaml, which
// CodeMie validates a workflow against; the lower bound is 1 for all.
var settingMax = map[string]int{
	"messages_limit_before_summarization": 10000, "tokens_limit_before_summarization": math.MaxInt32,
	"recursion_limit": 5000, "max_concurrency": 100, "max_iteration_key_output_limit": 10000,
	"limit_tool_output_tokens": math.MaxInt32,
}

func (l *lowerer) setting(cm *ir.CodeMie, k string, v any) {
	n, _ := v.(int)
	switch k {
	case "recursion_limit":
		cm.RecursionLimit = n
	case "max_concurrency":
		cm.MaxConcurrency = n
	case "messages_limit_before_summarization":
		cm.MessagesLimit = n
	case "tokens_limit_before_summarization":
		cm.TokensLimit = n
	}
}

// applyDefaults fills what the reference leaves to defaults once every
// setting is read: the summarization limits, the concurrency bound, and
// the retry policy of every state.
func (l *lowerer) applyDefaults(m yamlx.Map, w *ir.Workflow) {
	cm := w.CodeMie
	if cm == nil {
		return
	}
	// CodeMie builds every assistant node with summarize_history=True
	// (workflow.py, init_agent_node), and no setting turns it off:
	// enable_summarization_node only adds the result finalizer node. The
	// limits default as should_summarize_memory's (utils.py).
	cm.Summarize = slices.ContainsFunc(w.States, l.runsAssistant)
	if cm.Summarize {
		cm.MessagesLimit = cmp0(cm.MessagesLimit, 25)
		cm.TokensLimit = cmp0(cm.TokensLimit, 50000)
	}
	if cm.RecursionLimit == 0 {
		cm.RecursionLimit = 50 // CodeMie's default
	}
	cm.MaxConcurrency = l.maxConcurrencyOf(m, cm.MaxConcurrency)
	workflowPolicy := l.policyFields(m.Get("retry_policy"))
	for _, s := range w.States {
		if s.Kind == ir.StateTask && s.Handler != nil && !handlesFailures(s) {
			s.Retry = l.codemieRetry(s, workflowPolicy)
		}
		if s.Next.Iter != nil && s.Next.Iter.MaxConcurrency == 0 {
			s.Next.Iter.MaxConcurrency = cm.MaxConcurrency
		}
	}
}

// CodeMie runs at most this many nodes at once unless max_concurrency says
// otherwise, and never more than the cap (config.py,
// WORKFLOW_DEFAULT_CONCURRENCY and WORKFLOW_MAX_CONCURRENCY).
const (
	defaultConcurrency = 2
	concurrencyCap     = 5
)

// maxConcurrencyOf is the bound CodeMie's workflow_config.py
// (get_max_concurrency) derives from max_concurrency, n (0 when unset).
func (l *lowerer) maxConcurrencyOf(m yamlx.Map, n int) int {
	switch {
	case n == 0:
		return defaultConcurrency
	case n > concurrencyCap:
		l.Diags.Warnf(l.Pos(m.Get("max_concurrency")), "max_concurrency %d is more than CodeMie runs at once: it caps it at %d, and so does flowc", n, concurrencyCap)
		return concurrencyCap
	}
	return n
}

func cmp0(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// CodeMie retries every node (workflow_config.py,
// get_effective_retry_policy): the defaults of
// core/workflow_models/constants.py, overridden key by key by the
// workflow's retry_policy, then by the state's.
const (
	retryAttempts = 10
	retryInterval = 0.5 // seconds
	retryBackoff  = 2.0
	retryMaxDelay = 128.0 // seconds
)

// notRetried are the failures CodeMie's retry_on refuses, by the names a
// handler gives them with flowcrt.NewError: the Python exceptions that
// LangGraph's default_retry_on refuses, those of CodeMie's custom_retry_on
// (workflow_models.py, WorkflowRetryPolicy), an HTTP status it refuses
// (HTTP.401, HTTP.403, HTTP.404; other 4xx are refused by default_retry_on
// too, which the built-in LLM handler names LLM.RequestRejected), and the
// built-in LLM handler's missing model, a configuration error. An output
// that does not match its schema is one too: pydantic's ValidationError
// and LangChain's OutputParserException are ValueErrors.
var notRetried = []string{
	"OutputSchemaMismatch",
	"ValueError", "TypeError", "ArithmeticError", "ImportError", "LookupError", "NameError", "SyntaxError",
	"RuntimeError", "ReferenceError", "StopIteration", "StopAsyncIteration", "OSError",
	"InvalidCredentialsError", "TruncatedOutputError", "HTTP.401", "HTTP.403", "HTTP.404",
	"LLM.RequestRejected", "LLM.NoModel",
}

// handlesFailures reports whether a state handles its failures with
// flowc's own rules (`retry`, `catch`, `on_failure`), which CodeMie does
// not have: they alone then apply.
func handlesFailures(s *ir.State) bool {
	return len(s.Retry) > 0 || len(s.Catch) > 0 || s.Next.OnFailure != nil
}

// codemieRetry is the retry of a state as CodeMie runs it: a rule that
// stops at the failures it does not retry, then its effective policy for
// every other error.
func (l *lowerer) codemieRetry(s *ir.State, workflow map[string]any) []*ir.Retrier {
	pos := s.Pos
	r := &ir.Retrier{Pos: pos, Errors: []string{"ALL"}, MaxAttempts: retryAttempts, Interval: seconds(retryInterval),
		BackoffRate: retryBackoff, MaxDelay: seconds(retryMaxDelay)}
	for _, policy := range []map[string]any{workflow, l.statePolicy[s]} {
		applyPolicy(r, policy)
	}
	stop := &ir.Retrier{Pos: pos, Errors: slices.Clone(notRetried), MaxAttempts: 1}
	return []*ir.Retrier{stop, r}
}

// policyFields reads a retry_policy; nil when there is none.
func (l *lowerer) policyFields(n *yaml.Node) map[string]any {
	if n == nil {
		return nil
	}
	return l.object(n, retryFields, "retry_policy")
}

// applyPolicy sets the fields a retry_policy writes; the bounds are those
// of execution_config_schema.yaml, which CodeMie validates against.
func applyPolicy(r *ir.Retrier, obj map[string]any) {
	if v, ok := obj["max_attempts"].(int); ok && v >= 1 {
		r.MaxAttempts = min(v, 100)
	}
	for _, k := range []string{"initial_interval", "initial_interval_seconds"} {
		if v, ok := obj[k].(float64); ok && v >= 0 {
			r.Interval = seconds(v)
		}
	}
	if v, ok := obj["backoff_factor"].(float64); ok && v >= 1 {
		r.BackoffRate = v
	}
	for _, k := range []string{"max_interval", "max_interval_seconds"} {
		if v, ok := obj[k].(float64); ok && v >= 0 {
			r.MaxDelay = seconds(v)
		}
	}
}

// codemieState reads a state's CodeMie keys; outside JSON mode they are
// errors.
func (l *lowerer) codemieState(m yamlx.Map, s *ir.State) {
	if l.notJSON(m, codemieStateKeys) {
		return
	}
	for _, key := range []string{"assistant_id", "tool_id", "custom_node_id"} {
		if n := m.Get(key); n != nil {
			l.linked = append(l.linked, link{state: s, key: key, ref: l.ref(n, key)})
		}
	}
	c := stateCodeMie(s)
	for key, dst := range map[string]*bool{
		"resolve_dynamic_values_in_prompt": &c.Resolve, "result_as_human_message": &c.HumanMessage,
		"interrupt_before": &c.InterruptBefore, "wait_for_user_confirmation": &c.InterruptBefore,
		"finish_iteration": &c.FinishIteration,
	} {
		if n := m.Get(key); n != nil && l.Bool(n, key) {
			*dst = true
		}
	}
	if m.Has("interrupt_before") && m.Has("wait_for_user_confirmation") {
		l.Diags.Errorf(l.Pos(m.Entries["wait_for_user_confirmation"].Key), "`wait_for_user_confirmation` is the older name of `interrupt_before`; give one of them")
	}
	if n := m.Get("retry_policy"); n != nil {
		if l.statePolicy == nil {
			l.statePolicy = map[*ir.State]map[string]any{}
		}
		l.statePolicy[s] = l.policyFields(n)
	}
	if n := m.Get("output_schema"); n != nil {
		l.outputSchema(n, c)
	}
	if n := m.Get("mcp_servers"); n != nil {
		if servers, _ := l.value(n, kObjects, mcpFields, "mcp_servers").([]any); len(servers) > 0 {
			c.MCPServers = compact(servers)
		}
	}
}

func stateCodeMie(s *ir.State) *ir.CodeMieState {
	if s.CodeMie == nil {
		s.CodeMie = &ir.CodeMieState{}
	}
	return s.CodeMie
}

// codemieNext reads the context-management keys of a state's `next`.
func (l *lowerer) codemieNext(m yamlx.Map, s *ir.State) {
	if l.notJSON(m, codemieNextKeys) {
		return
	}
	c := stateCodeMie(s)
	for key, dst := range map[string]*bool{
		"store_in_context": &c.NoStore, "include_in_llm_history": &c.NoHistory, "keep_history": &c.NoHistory,
	} {
		if n := m.Get(key); n != nil && !l.Bool(n, key) {
			*dst = true
		}
	}
	if n := m.Get("include_in_llm_history"); n != nil && m.Has("keep_history") && l.Bool(n, "include_in_llm_history") {
		c.NoHistory = false // the newer name wins
	}
	for key, dst := range map[string]*bool{
		"clear_prior_messages": &c.ClearMessages, "append_to_context": &c.Append, "override_task": &c.OverrideTask,
	} {
		if n := m.Get(key); n != nil && l.Bool(n, key) {
			*dst = true
		}
	}
	if e, ok := m.Entries["use_flyweight_history"]; ok {
		l.Bool(e.Value, "use_flyweight_history")
		l.Diags.Warnf(l.Pos(e.Key), "`use_flyweight_history` is obsolete: CodeMie replaced it by `store_in_context`, whose default (true) applies")
	}
	if n := m.Get("clear_context_store"); n != nil {
		c.ClearStore = l.clearStore(n)
	}
	if n := m.Get("reset_keys_in_context_store"); n != nil {
		c.ResetKeys = l.value(n, kStrings, nil, "reset_keys_in_context_store").([]string)
	}
	if n := m.Get("include_in_iterator_context"); n != nil {
		keys := l.value(n, kStrings, nil, "include_in_iterator_context").([]string)
		if len(keys) != 1 || keys[0] != "*" {
			c.IteratorKeys, c.HasIterKeys = append([]string{}, keys...), true
		}
	}
	for key, dst := range map[string]*string{
		"output_key": &c.OutputKey, "meta_iter_state_id": &c.MetaIterStateID, "meta_next_state_id": &c.MetaNextStateID,
	} {
		if n := m.Get(key); n != nil {
			*dst, _ = l.String(n, key)
		}
	}
}

// clearStore reads clear_context_store: true, false or "keep_current".
func (l *lowerer) clearStore(n *yaml.Node) int {
	switch {
	case n.Tag == "!!str" && n.Value == "keep_current":
		return 2
	case n.Tag == "!!bool":
		if l.Bool(n, "clear_context_store") {
			return 1
		}
		return 0
	}
	l.Diags.Errorf(l.Pos(n), "clear_context_store must be true, false or \"keep_current\", got %q", n.Value)
	return 0
}

// outputSchema reads output_schema: a JSON Schema (an object with `type`,
// `properties`, `$schema`, ... ) or an example of the output, written as
// YAML or as a string of JSON. An example object becomes the schema of an
// object with the example's keys, each required and of the example
// value's type.
func (l *lowerer) outputSchema(n *yaml.Node, c *ir.CodeMieState) {
	v := l.anyValue(n)
	if text, ok := v.(string); ok {
		c.OutputSchemaText = text
		if strings.TrimSpace(text) == "" {
			return // CodeMie's editor writes '' for none
		}
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			// CodeMie only shows such text to the model as the format to follow.
			l.Diags.Warnf(l.ContentPos(n), "output_schema is not JSON (%v): the handler gets it as text, and outputs are not checked against it", err)
			return
		}
	} else {
		c.OutputSchemaText = compact(v)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		l.Diags.Warnf(l.Pos(n), "output_schema is neither a JSON Schema nor an example object: the handler gets it as text, and outputs are not checked against it")
		return
	}
	if !isSchema(obj) {
		obj = exampleSchema(obj)
	}
	c.OutputSchema = compact(obj)
}

var schemaKeywords = []string{"$schema", "type", "properties", "items", "anyOf", "oneOf", "allOf", "enum", "const", "$ref", "required"}

func isSchema(obj map[string]any) bool {
	for _, k := range schemaKeywords {
		if _, ok := obj[k]; ok {
			return true
		}
	}
	return false
}

// exampleSchema is the schema an example value stands for.
func exampleSchema(v any) map[string]any {
	switch v := v.(type) {
	case map[string]any:
		props := map[string]any{}
		req := []any{}
		for _, k := range yamlx.SortedKeys(v) {
			props[k] = exampleSchema(v[k])
			req = append(req, k)
		}
		return map[string]any{"type": "object", "properties": props, "required": req}
	case []any:
		if len(v) > 0 {
			return map[string]any{"type": "array", "items": exampleSchema(v[0])}
		}
		return map[string]any{"type": "array"}
	case string:
		return map[string]any{"type": "string"}
	case bool:
		return map[string]any{"type": "boolean"}
	case int, float64:
		return map[string]any{"type": "number"}
	}
	return map[string]any{}
}

func seconds(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }

// link is a state's reference to an assistant, tool or custom node.
type link struct {
	state *ir.State
	key   string // assistant_id, tool_id or custom_node_id
	ref   ir.Ref
}

// links checks that the assistants, tools and custom nodes states name are
// defined, when the workflow has such a list (custom nodes always need
// theirs), and records which each state runs.
func (l *lowerer) links(w *ir.Workflow) {
	cm := w.CodeMie
	if cm == nil {
		return
	}
	lists := map[string]map[string]*ir.Config{"assistant_id": cm.Assistants, "tool_id": cm.Tools, "custom_node_id": cm.CustomNodes}
	names := map[string]string{"assistant_id": "assistants", "tool_id": "tools", "custom_node_id": "custom_nodes"}
	for _, ln := range l.linked {
		list := lists[ln.key]
		c := stateCodeMie(ln.state)
		switch {
		case list[ln.ref.ID] != nil:
			*map[string]*string{"assistant_id": &c.Assistant, "tool_id": &c.Tool, "custom_node_id": &c.CustomNode}[ln.key] = ln.ref.ID
			if ln.key == "tool_id" && list[ln.ref.ID].MCP {
				ln.state.Handler.Name = ir.MCPHandler // the MCP service runs the tool
			}
			if ln.key == "custom_node_id" {
				l.processorReadsItself(ln, list[ln.ref.ID])
			}
		case list != nil || ln.key == "custom_node_id":
			l.Diags.Errorf(ln.ref.Pos, "%s %q is not defined under `%s`%s", ln.key, ln.ref.ID, names[ln.key],
				diag.DidYouMean(ln.ref.ID, yamlx.SortedKeys(list)))
		}
	}
	l.mergeToolArgs(w)
	l.reservedHandlers(w)
}

// processorReadsItself warns of a state_processor_node that always fails:
// the states it reads include itself, in progress, when its own state id
// starts with its state_id (an empty one names all) and its status filter
// lists IN_PROGRESS, as the default does; CodeMie's _fetch_states
// (state_processor_node.py) then raises "No Completed States".
func (l *lowerer) processorReadsItself(ln link, c *ir.Config) {
	var node struct {
		Type   string `json:"custom_node_id"`
		Config struct {
			StateID string           `json:"state_id"`
			Filter  *json.RawMessage `json:"states_status_filter"`
		} `json:"config"`
	}
	if json.Unmarshal([]byte(c.JSON), &node) != nil || node.Type != "state_processor_node" || !strings.HasPrefix(ln.state.ID, node.Config.StateID) {
		return
	}
	var filter []string
	if node.Config.Filter != nil && json.Unmarshal(*node.Config.Filter, &filter) == nil && len(filter) > 0 && !slices.Contains(filter, "IN_PROGRESS") {
		return
	}
	l.Diags.Warnf(ln.ref.Pos, "state %q reads the states whose id starts with %q, itself among them, in progress: it fails with \"No Completed States\", as CodeMie's state_processor_node does (_fetch_states); set the custom node's state_id to the states it should read",
		ln.state.ID, node.Config.StateID)
}

// reservedHandlers rejects handler names that the services the workflow
// needs already take: Summarize (flowcrt.Summarizer) and, beside
// interrupt_before, Approve (flowcrt.Approver, which the mock implements).
func (l *lowerer) reservedHandlers(w *ir.Workflow) {
	interrupts := slices.ContainsFunc(w.States, func(s *ir.State) bool { return s.CodeMie != nil && s.CodeMie.InterruptBefore })
	for _, s := range w.States {
		h := s.Handler
		switch {
		case h == nil:
		case h.Name == "Summarize" && w.CodeMie.Summarize:
			l.Diags.Errorf(h.Pos, "handler Summarize would be the summarizer of the history (flowcrt.Summarizer); choose another name")
		case h.Name == ir.DatasourceHandler:
			l.Diags.Errorf(h.Pos, "handler %s is the datasource search of CodeMie workflows; choose another name", h.Name)
		case h.Name == "Approve" && interrupts:
			l.Diags.Errorf(h.Pos, "handler Approve would answer interrupt_before (flowcrt.Approver); choose another name")
		}
	}
}

// mergeToolArgs gives each tool state without tool_args its tool's: a
// state's own replace the tool's whole, as CodeMie's tool node takes one
// or the other (tool_node.py, _execute_tool_with_args). A key of the
// tool's that the state's leave out is reported, for a reader may expect
// it to be kept.
func (l *lowerer) mergeToolArgs(w *ir.Workflow) {
	for _, s := range w.States {
		if s.CodeMie == nil || s.CodeMie.Tool == "" {
			continue
		}
		defaults := w.CodeMie.Tools[s.CodeMie.Tool].ToolArgs
		if len(s.ToolArgs) == 0 {
			s.ToolArgs = slices.Clone(defaults)
			continue
		}
		for _, a := range defaults {
			if !slices.ContainsFunc(s.ToolArgs, func(b ir.TemplateArg) bool { return b.Name == a.Name }) {
				l.Diags.Warnf(s.ToolArgs[0].Pos, "the tool_args of state %q replace those of tool %q, as in CodeMie, which does not merge them: its `%s` is not passed",
					s.ID, s.CodeMie.Tool, a.Name)
			}
		}
	}
}

// isText reports whether n is a string or a number, which a template
// argument keeps as text.
func isText(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && (n.Tag == "!!str" || n.Tag == "!!int" || n.Tag == "!!float")
}

// CodeMie's own workflow files wrap the configuration in
// `execution_config:`, beside the workflow's catalogue entry.
var wrapperKeys = []string{
	"execution_config", "name", "description", "mode", "slug", "icon_url", "project", "shared",
	"supervisor_prompt", "start_hint", "yaml_config", "meta_config",
}

// executionConfig returns the mapping under `execution_config:`, or nil.
func executionConfig(root *yaml.Node) *yaml.Node {
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "execution_config" && root.Content[i+1].Kind == yaml.MappingNode {
			return root.Content[i+1]
		}
	}
	return nil
}

// unwrap returns the configuration of a CodeMie workflow file and its
// description; any other root is returned as it is.
func (l *lowerer) unwrap(root *yaml.Node) (*yaml.Node, string) {
	inner := executionConfig(root)
	if inner == nil {
		return root, ""
	}
	m, _ := l.Mapping(root, "a CodeMie workflow file", wrapperKeys...)
	for _, k := range wrapperKeys[1:] {
		if n := m.Get(k); n != nil && n.Kind != yaml.ScalarNode {
			l.Diags.Errorf(l.Pos(n), "`%s` must be a single value", k)
		}
	}
	about := ""
	if n := m.Get("description"); n != nil {
		about, _ = l.String(n, "description")
	}
	if n := m.Get("name"); n != nil && about == "" {
		about, _ = l.String(n, "name")
	}
	return inner, strings.TrimSpace(about)
}

// namesDatasources reports whether an entry names datasources, itself or
// in a custom node's config.
func namesDatasources(obj map[string]any) bool {
	ids, _ := obj["datasource_ids"].([]string)
	if cfg, ok := obj["config"].(map[string]any); ok {
		more, _ := cfg["datasource_ids"].([]any)
		return len(ids) > 0 || len(more) > 0
	}
	return len(ids) > 0
}
