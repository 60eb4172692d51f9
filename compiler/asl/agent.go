package asl

import (
	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/ir"
)

// agent reads an agent task's Agent and its agent-specific fields. Each
// field is an object handed to the handler as a JSON value; Tools lists
// tool names and Budget holds non-negative numbers, which is all the
// States Language seed says of them.
func (l *lowerer) agent(m yamlx.Map, n *yaml.Node) *ir.Agent {
	a := &ir.Agent{Pos: l.ContentPos(n)}
	a.Name, _ = l.String(n, "Agent")
	fields := []struct {
		key  string
		into *any
	}{
		{"Memory", &a.Memory}, {"Context", &a.Context}, {"Tools", &a.Tools},
		{"Budget", &a.Budget}, {"Guardrails", &a.Guardrails}, {"Reasoning", &a.Reasoning},
	}
	for _, f := range fields {
		if v := m.Get(f.key); v != nil {
			*f.into = l.agentObject(v, f.key)
		}
	}
	if v := m.Get("Tools"); v != nil && v.Kind == yaml.MappingNode {
		l.tools(v)
	}
	if v := m.Get("Budget"); v != nil && v.Kind == yaml.MappingNode {
		l.budget(v)
	}
	return a
}

func (l *lowerer) agentObject(n *yaml.Node, what string) any {
	if n.Kind != yaml.MappingNode {
		l.Diags.Errorf(l.Pos(n), "%s must be an object", what)
		return nil
	}
	return l.jsonValue(n)
}

func (l *lowerer) tools(n *yaml.Node) {
	for _, e := range l.Pairs(n) {
		if e.Key.Value == "Allowed" || e.Key.Value == "Denied" {
			if e.Value.Kind != yaml.SequenceNode {
				l.Diags.Errorf(l.Pos(e.Value), "Tools %s must be a list of tool names", e.Key.Value)
				continue
			}
			l.Strings(e.Value, "a tool name")
		}
	}
}

func (l *lowerer) budget(n *yaml.Node) {
	for _, e := range l.Pairs(n) {
		if e.Value.Kind == yaml.ScalarNode && (e.Value.Tag == "!!int" || e.Value.Tag == "!!float") {
			l.Float(e.Value, "Budget "+e.Key.Value, 0, 1e18)
		}
	}
}

// agentFieldsWithoutAgent rejects agent fields on a Resource task.
func (l *lowerer) agentFieldsWithoutAgent(m yamlx.Map) {
	for _, k := range agentFields {
		if e, ok := m.Entries[k]; ok {
			l.Diags.Errorf(l.Pos(e.Key), "`%s` configures an agent; it needs `Agent` instead of `Resource`", k)
		}
	}
}

// approval reads an Approval state. With Choices it routes on its output
// like a Choice state, else it goes to Next or ends.
func (l *lowerer) approval(m yamlx.Map, s *ir.State) {
	ap := &ir.Approval{}
	s.ASL.Approval = ap
	if n := m.Get("Prompt"); n != nil {
		ap.Prompt, _ = l.String(n, "Prompt")
	} else {
		l.Diags.Errorf(s.Pos, "Approval state %q needs a `Prompt`", s.ID)
	}
	if n := m.Get("Options"); n != nil {
		ap.Options = l.options(n)
	}
	if n := m.Get("Timeout"); n != nil {
		ap.Timeout = l.duration(n, "Timeout")
	}
	if n := m.Get("Escalation"); n != nil {
		ap.Escalation = l.agentObject(n, "Escalation")
	}
	s.Kind = ir.StateApproval
	s.Handler = l.handler("approval", "Approve", s.Pos)
	if m.Has("Choices") {
		for _, k := range flowFields {
			if e, ok := m.Entries[k]; ok {
				l.Diags.Errorf(l.Pos(e.Key), "Approval state %q routes with `Choices`; `%s` does not go with them", s.ID, k)
			}
		}
		l.routes(m, s, false)
		return
	}
	if e, ok := m.Entries["Default"]; ok {
		l.Diags.Errorf(l.Pos(e.Key), "`Default` needs `Choices`")
	}
	l.transition(m, s)
}

func (l *lowerer) options(n *yaml.Node) []string {
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		l.Diags.Errorf(l.Pos(n), "Options must be a non-empty list of strings")
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, item := range n.Content {
		s, ok := l.String(item, "an option")
		if ok && seen[s] {
			l.Diags.Errorf(l.ContentPos(item), "option %q repeated", s)
		}
		seen[s] = true
		out = append(out, s)
	}
	return out
}

// debate reads a Debate state: Agents take turns for Rounds rounds.
func (l *lowerer) debate(m yamlx.Map, s *ir.State) {
	d := &ir.Debate{Rounds: 1}
	s.ASL.Debate = d
	if n := m.Get("Agents"); n != nil {
		if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
			l.Diags.Errorf(l.Pos(n), "Agents must be a non-empty list of agent names")
		}
		for _, item := range l.Seq(n, "Agents") {
			name, ok := l.String(item, "an agent name")
			if !ok {
				continue
			}
			d.Names = append(d.Names, name)
			d.Agents = append(d.Agents, l.handler("agent\x00"+name, name, l.ContentPos(item)))
		}
	} else {
		l.Diags.Errorf(s.Pos, "Debate state %q needs `Agents`", s.ID)
	}
	if n := m.Get("Topic"); n != nil {
		d.Topic, _ = l.String(n, "Topic")
	}
	if n := m.Get("TopicPath"); n != nil {
		d.TopicPath = l.path(n, "TopicPath", false, true)
		if m.Has("Topic") {
			l.Diags.Errorf(l.Pos(m.Entries["TopicPath"].Key), "Debate state %q has both `Topic` and `TopicPath`; keep one", s.ID)
		}
	}
	if n := m.Get("Rounds"); n != nil {
		d.Rounds = l.Int(n, "Rounds", 1, 100)
	}
	if n := m.Get("Communication"); n != nil {
		d.Communication = l.agentObject(n, "Communication")
	}
	if n := m.Get("Consensus"); n != nil {
		d.Consensus = l.agentObject(n, "Consensus")
	}
	l.transition(m, s)
}
