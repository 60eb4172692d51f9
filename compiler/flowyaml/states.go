package flowyaml

import (
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/compiler/branchop"
	"github.com/flowc-dev/flowc/compiler/diag"
	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/internal/naming"
	"github.com/flowc-dev/flowc/ir"
)

func (l *lowerer) state(n *yaml.Node) *ir.State {
	m, ok := l.mapping(n, "a state", append(slices.Clip(stateKeys), codemieStateKeys...)...)
	if !ok {
		return nil
	}
	s := &ir.State{Pos: l.Pos(n), Kind: ir.StateTask}
	idNode := m.Get("id")
	if idNode == nil {
		l.Diags.Errorf(s.Pos, "a state needs an `id`")
		return nil
	}
	s.ID, _ = l.String(idNode, "id")
	s.Pos = l.ContentPos(idNode)
	s.GoName = naming.Exported(s.ID)
	s.Handler = l.handler(m, s)
	if t := m.Get("task"); t != nil {
		s.Task, _ = l.String(t, "task")
		// A task is rendered only by Jinja2, with resolve_dynamic_values_in_prompt.
		l.jinja = true
		s.TaskParts = l.template(t, s.Task, "task")
		l.jinja = false
		if r := m.Get("resolve_dynamic_values_in_prompt"); l.json && r != nil && r.Value == "true" {
			l.checkJinja(t, s.Task, "task")
		}
	}
	if t := m.Get("tool_args"); t != nil {
		s.ToolArgs = l.toolArgs(t)
	}
	if t := m.Get("timeout"); t != nil {
		s.Timeout = l.Duration(t, "timeout")
	}
	if r := m.Get("retry"); r != nil {
		for _, item := range l.Seq(r, "retry") {
			s.Retry = append(s.Retry, l.retrier(item))
		}
	}
	if c := m.Get("catch"); c != nil {
		for _, item := range l.Seq(c, "catch") {
			s.Catch = append(s.Catch, l.catcher(item))
		}
	}
	s.Next = l.next(m, s)
	l.codemieState(m, s) // JSON mode: CodeMie's state keys
	l.stateType(m, s)
	l.flowKey(m, s)
	return s
}

// handler names the Go method a state calls: `handler`, else the CamelCase
// of assistant_id, tool_id or id.
func (l *lowerer) handler(m yamlx.Map, s *ir.State) *ir.Handler {
	for _, key := range []string{"handler", "assistant_id", "tool_id", "custom_node_id"} {
		if n := m.Get(key); n != nil {
			name := l.goName(n, key)
			return &ir.Handler{Pos: l.ContentPos(n), Name: name}
		}
	}
	return &ir.Handler{Pos: s.Pos, Name: s.GoName}
}

func (l *lowerer) toolArgs(n *yaml.Node) []ir.TemplateArg {
	if n.Kind != yaml.MappingNode {
		l.Diags.Errorf(l.Pos(n), "tool_args must be a mapping")
		return nil
	}
	var out []ir.TemplateArg
	for _, e := range l.Pairs(n) {
		what := "tool argument `" + e.Key.Value + "`"
		if l.json && !isText(e.Value) {
			out = append(out, ir.TemplateArg{Pos: l.Pos(e.Key), Name: e.Key.Value, JSON: compact(l.anyValue(e.Value))})
			continue
		}
		v, _ := l.String(e.Value, what)
		// CodeMie renders a tool argument with Jinja2 (dynamic_value_utils.py, process_values).
		l.jinja = l.json
		parts := l.template(e.Value, v, what)
		l.jinja = false
		if l.json {
			l.checkJinja(e.Value, v, what)
		}
		out = append(out, ir.TemplateArg{Pos: l.Pos(e.Key), Name: e.Key.Value, Value: v, Parts: parts})
	}
	return out
}

func (l *lowerer) retrier(n *yaml.Node) *ir.Retrier {
	m, ok := l.Mapping(n, "a retry rule", retrierKeys...)
	// Defaults as in Step Functions: three attempts, 1s apart, doubling.
	r := &ir.Retrier{Pos: l.Pos(n), Errors: []string{"ALL"}, MaxAttempts: 3, Interval: time.Second, BackoffRate: 2}
	if !ok {
		return r
	}
	if e := m.Get("errors"); e != nil {
		r.Errors = l.Strings(e, "errors")
	}
	if v := m.Get("max_attempts"); v != nil {
		r.MaxAttempts = l.Int(v, "max_attempts", 1, 1000)
	}
	if v := m.Get("interval"); v != nil {
		r.Interval = l.Duration(v, "interval")
	}
	if v := m.Get("backoff_rate"); v != nil {
		r.BackoffRate = l.Float(v, "backoff_rate", 1, 100)
	}
	if v := m.Get("max_delay"); v != nil {
		r.MaxDelay = l.Duration(v, "max_delay")
	}
	if v := m.Get("jitter"); v != nil {
		r.Jitter = l.jitter(v)
	}
	return r
}

// jitter accepts a boolean or the ASL spellings FULL and NONE.
func (l *lowerer) jitter(n *yaml.Node) bool {
	switch strings.ToUpper(n.Value) {
	case "FULL":
		return true
	case "NONE":
		return false
	}
	return l.Bool(n, "jitter")
}

func (l *lowerer) catcher(n *yaml.Node) *ir.Catcher {
	c := &ir.Catcher{Pos: l.Pos(n), Errors: []string{"ALL"}}
	m, ok := l.Mapping(n, "a catch rule", catcherKeys...)
	if !ok {
		return c
	}
	if e := m.Get("errors"); e != nil {
		c.Errors = l.Strings(e, "errors")
	}
	if nx := m.Get("next"); nx != nil {
		c.Next = l.ref(nx, "next")
	} else {
		l.Diags.Errorf(c.Pos, "a catch rule needs `next`")
		c.Next.Pos = c.Pos // later checks of the edge point here too
	}
	return c
}

// The keys of the mappings inside a state; schema.go describes them too.
var (
	retrierKeys   = []string{"errors", "max_attempts", "interval", "backoff_rate", "max_delay", "jitter"}
	catcherKeys   = []string{"errors", "next"}
	conditionKeys = []string{"expression", "then", "otherwise"}
	switchKeys    = []string{"cases", "default"}
	caseKeys      = []string{"condition", "state_id", "iter_key"}
	branchKeys    = []string{"operator", "when", "goto", "compose"}
	composeKeys   = []string{"with_var", "strategy"}
)

var nextKeys = []string{
	"state_id", "state_ids", "iter_key", "max_concurrency", "condition", "switch",
	"actions", "branches", "on_failure",
}

// next reads `next:` (or `end: true`); a state with neither ends the run.
func (l *lowerer) next(m yamlx.Map, s *ir.State) *ir.Transition {
	endNode, nextNode := m.Get("end"), m.Get("next")
	if endNode != nil && l.Bool(endNode, "end") && nextNode != nil {
		l.Diags.Errorf(l.Pos(endNode), "a state cannot have both `end: true` and `next`")
	}
	if nextNode == nil {
		return &ir.Transition{Pos: s.Pos, Kind: ir.TransEnd}
	}
	nm, ok := l.mapping(nextNode, "next", append(slices.Clip(nextKeys), codemieNextKeys...)...)
	if !ok {
		return &ir.Transition{Pos: l.Pos(nextNode), Kind: ir.TransEnd}
	}
	if l.json && len(presentForms(nm)) == 0 && len(nm.Entries) > 0 { // CodeMie: context flags alone end the run
		l.codemieNext(nm, s)
		return &ir.Transition{Pos: l.Pos(nextNode), Kind: ir.TransEnd}
	}
	return l.transition(nm, s)
}

func (l *lowerer) transition(m yamlx.Map, s *ir.State) *ir.Transition {
	t := &ir.Transition{Pos: l.Pos(m.Node)}
	forms := presentForms(m)
	if len(forms) != 1 {
		l.Diags.Errorf(t.Pos, "next must have exactly one of state_id, state_ids, condition, switch, actions or branches; got %s", describeForms(forms))
		return t
	}
	if m.Has("on_failure") && forms[0] != "branches" {
		l.Diags.Errorf(l.Pos(m.Get("on_failure")), "`on_failure` goes with `branches`")
	}
	switch forms[0] {
	case "state_id":
		l.gotoTransition(t, m.Get("state_id"))
	case "state_ids":
		l.parallel(t, m.Get("state_ids"))
	case "condition":
		l.condition(t, m.Get("condition"))
	case "switch":
		l.switchTransition(t, m.Get("switch"))
	case "actions":
		l.actions(t, m.Get("actions"), s)
	case "branches":
		l.branches(t, m.Get("branches"), m.Get("on_failure"), s)
	}
	l.iter(t, m, forms[0])
	l.codemieNext(m, s) // JSON mode: context management
	return t
}

var transitionForms = []string{"state_id", "state_ids", "condition", "switch", "actions", "branches"}

func presentForms(m yamlx.Map) []string {
	var out []string
	for _, k := range transitionForms {
		if m.Has(k) {
			out = append(out, k)
		}
	}
	return out
}

func describeForms(forms []string) string {
	if len(forms) == 0 {
		return "none"
	}
	return strings.Join(forms, " and ")
}

func (l *lowerer) gotoTransition(t *ir.Transition, n *yaml.Node) {
	t.To = l.ref(n, "state_id")
	t.Kind = ir.TransGoto
	if t.To.IsEnd() {
		t.Kind = ir.TransEnd
	}
}

func (l *lowerer) condition(t *ir.Transition, n *yaml.Node) {
	t.Kind = ir.TransCondition
	m, ok := l.Mapping(n, "condition", conditionKeys...)
	if !ok {
		return
	}
	t.Cond = l.expr(m.Get("expression"), n, "condition")
	t.Then = l.requiredRef(m.Get("then"), n, "then")
	t.Otherwise = l.requiredRef(m.Get("otherwise"), n, "otherwise")
}

func (l *lowerer) switchTransition(t *ir.Transition, n *yaml.Node) {
	t.Kind = ir.TransSwitch
	m, ok := l.Mapping(n, "switch", switchKeys...)
	if !ok {
		return
	}
	if cs := m.Get("cases"); cs != nil {
		for _, item := range l.Seq(cs, "cases") {
			cm, ok := l.Mapping(item, "a switch case", caseKeys...)
			if !ok {
				continue
			}
			c := &ir.Case{Pos: l.Pos(item)}
			c.Cond = l.expr(cm.Get("condition"), item, "case")
			c.To = l.requiredRef(cm.Get("state_id"), item, "state_id")
			c.Iter = l.caseIter(cm.Get("iter_key")) // JSON mode: jsonmode_iter.go
			t.Cases = append(t.Cases, c)
		}
	} else {
		l.Diags.Errorf(l.Pos(n), "switch needs `cases`")
	}
	if d := m.Get("default"); d != nil {
		ref := l.ref(d, "default")
		t.Default = &ref
	} else {
		l.Diags.Errorf(l.Pos(n), "switch needs a `default` state")
	}
}

// actions maps action strings to targets; the key `default` is the fallback.
func (l *lowerer) actions(t *ir.Transition, n *yaml.Node, s *ir.State) {
	t.Kind = ir.TransActions
	s.Handler.Kind = ir.HandlerAction
	if n.Kind != yaml.MappingNode {
		l.Diags.Errorf(l.Pos(n), "actions must map action names to states")
		return
	}
	for _, e := range l.Pairs(n) {
		ref := l.ref(e.Value, "action target")
		if e.Key.Value == "default" {
			t.Default = &ref
			continue
		}
		t.Actions = append(t.Actions, &ir.Action{Pos: l.Pos(e.Key), Name: e.Key.Value, To: ref})
	}
}

var operators = []string{"equals", "contains", "starts_with", "ends_with", ">", "<", "in_range", "default"}

func (l *lowerer) branches(t *ir.Transition, n, onFailure *yaml.Node, s *ir.State) {
	t.Kind = ir.TransBranches
	s.Handler.Kind = ir.HandlerEval
	if onFailure != nil {
		ref := l.ref(onFailure, "on_failure")
		t.OnFailure = &ref
	}
	for _, item := range l.Seq(n, "branches") {
		if b := l.branch(item); b != nil {
			t.Branches = append(t.Branches, b)
		}
	}
}

func (l *lowerer) branch(n *yaml.Node) *ir.Branch {
	m, ok := l.Mapping(n, "a branch", branchKeys...)
	if !ok {
		return nil
	}
	b := &ir.Branch{Pos: l.Pos(n)}
	if op := m.Get("operator"); op != nil {
		s, _ := l.String(op, "operator")
		b.Operator = ir.Operator(s)
		b.Pos = l.ContentPos(op)
	} else {
		l.Diags.Errorf(b.Pos, "a branch needs an `operator`")
	}
	if w := m.Get("when"); w != nil {
		b.When, _ = l.String(w, "when")
		l.parseWhen(b, l.ContentPos(w))
	} else if b.Operator != ir.OpDefault {
		l.Diags.Errorf(b.Pos, "a `%s` branch needs `when`", b.Operator)
	}
	b.To = l.requiredRef(m.Get("goto"), n, "goto")
	if c := m.Get("compose"); c != nil {
		b.Compose = l.compose(c)
	}
	return b
}

// parseWhen checks `when` for the operator and keeps its numbers.
func (l *lowerer) parseWhen(b *ir.Branch, at ir.Pos) {
	switch b.Operator {
	case ir.OpGreater, ir.OpLess, ir.OpInRange:
		if msg := branchop.Numbers(b); msg != "" {
			l.Diags.Errorf(at, "%s", msg)
		}
	case ir.OpEquals, ir.OpContains, ir.OpStartsWith, ir.OpEndsWith, ir.OpDefault:
	default:
		l.Diags.Errorf(b.Pos, "unknown operator %q%s", b.Operator, didYouMeanOp(string(b.Operator)))
	}
}

func (l *lowerer) compose(n *yaml.Node) *ir.Compose {
	m, ok := l.Mapping(n, "compose", composeKeys...)
	c := &ir.Compose{Pos: l.Pos(n)}
	if !ok {
		return c
	}
	if v := m.Get("with_var"); v != nil {
		c.WithVar, _ = l.String(v, "with_var")
	} else {
		l.Diags.Errorf(c.Pos, "compose needs `with_var`")
	}
	if v := m.Get("strategy"); v != nil {
		c.Strategy, _ = l.String(v, "strategy")
	}
	return c
}

// requiredRef reads a reference that must be present in parent.
func (l *lowerer) requiredRef(n, parent *yaml.Node, key string) ir.Ref {
	if n == nil {
		l.Diags.Errorf(l.Pos(parent), "missing `%s`", key)
		return ir.Ref{Pos: l.Pos(parent)}
	}
	return l.ref(n, key)
}

// expr keeps the expression text and where it starts; the checker parses it.
func (l *lowerer) expr(n, parent *yaml.Node, what string) *ir.Expr {
	if n == nil {
		l.Diags.Errorf(l.Pos(parent), "%s needs an expression", what)
		return nil
	}
	s, ok := l.String(n, "expression")
	if !ok {
		return nil
	}
	return &ir.Expr{Pos: l.ContentPos(n), Source: s, Where: l.Locate(n)}
}

// mapping reads a state or its `next` with the given keys. In JSON mode a
// key CodeMie does not know is ignored with a warning, as CodeMie's models
// ignore it (workflow_models.py, WorkflowState and WorkflowNextState are
// pydantic models, which drop unknown fields); elsewhere it is an error.
func (l *lowerer) mapping(n *yaml.Node, what string, known ...string) (yamlx.Map, bool) {
	if l.json && n != nil && n.Kind == yaml.MappingNode {
		kept := *n
		kept.Content = nil
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Kind == yaml.ScalarNode && !slices.Contains(known, k.Value) {
				l.Diags.Warnf(l.Pos(k), "unknown key `%s` in %s is ignored, as CodeMie ignores it%s", k.Value, what, diag.DidYouMean(k.Value, known))
				continue
			}
			kept.Content = append(kept.Content, n.Content[i], n.Content[i+1])
		}
		n = &kept
	}
	return l.Mapping(n, what, known...)
}
