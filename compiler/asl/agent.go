package asl

import (
	"maps"
	"math"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/ir"
)

// agent reads an agent task's Agent and its agent-specific fields. Each
// field is an object handed to the handler as a JSON value; Tools lists
// tool names and Budget holds non-negative numbers, which is all the
// "State Types" chapter of the Agent State Language specification says of
// them.
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
	if v := m.Get("Model"); v != nil {
		a.Model = l.model(v)
	}
	if v := m.Get("Generation"); v != nil {
		a.Generation = l.generation(v)
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

// agentFieldsWithoutAgent rejects keys, agent fields, on a task without
// `Agent`. A Resource task is denied only the model's fields: it has
// always been accepted with the others, which it ignores.
func (l *lowerer) agentFieldsWithoutAgent(m yamlx.Map, keys []string) {
	for _, k := range keys {
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
	switch n := m.Get("Prompt"); {
	case l.approvalPrompt(m, s):
	case n != nil:
		ap.Prompt, _ = l.String(n, "Prompt")
	default:
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

// agentExtras reads what an agent task adds to its agent: the limits of
// its Budget and the workflow's, and its Memory reads and writes.
func (l *lowerer) agentExtras(m yamlx.Map, s *ir.State) {
	if a := s.ASL.Agent; a != nil {
		if n := m.Get("Budget"); n != nil && n.Kind == yaml.MappingNode {
			a.Limit = l.budgetLimits(n, false)
		}
		a.RunLimit = l.runBudget
		a.Tools = withDefaults(l.defaultTools, a.Tools)
		if n := m.Get("Guardrails"); n != nil && n.Kind == yaml.MappingNode {
			a.Guards = l.guardrails(n)
		}
	}
	for _, k := range agentTaskKeys {
		if n := m.Get(k); n != nil {
			l.agentObject(n, k)
		}
	}
	l.memory(m, s)
}

// memory reads a state's Memory: Read (a list of keys, or {Keys,
// InjectAt, Default}) and Write (one {Key, Value or Value.$} or a list).
func (l *lowerer) memory(m yamlx.Map, s *ir.State) {
	n := m.Get("Memory")
	if n == nil || n.Kind != yaml.MappingNode && s.ASL.Agent != nil { // an agent's was checked with its fields
		return
	}
	mm, ok := l.Mapping(n, "Memory", "Read", "Write", "Namespace")
	if !ok {
		return
	}
	mem := &ir.Memory{}
	if r := mm.Get("Read"); r != nil {
		mem.Reads = []*ir.MemoryRead{l.memoryRead(r)}
	}
	if w := mm.Get("Write"); w != nil {
		items := []*yaml.Node{w}
		if w.Kind == yaml.SequenceNode {
			items = w.Content
		}
		for _, item := range items {
			if wr := l.memoryWrite(item); wr != nil {
				mem.Writes = append(mem.Writes, wr)
			}
		}
	}
	if ns := mm.Get("Namespace"); ns != nil {
		l.String(ns, "Namespace")
	}
	s.ASL.Memory = mem
}

func (l *lowerer) memoryRead(n *yaml.Node) *ir.MemoryRead {
	r := &ir.MemoryRead{}
	if n.Kind == yaml.SequenceNode {
		r.Keys = l.Strings(n, "a memory key")
		return r
	}
	m, ok := l.Mapping(n, "Memory Read", "Keys", "InjectAt", "Default")
	if !ok {
		return r
	}
	if k := m.Get("Keys"); k != nil {
		r.Keys = l.Strings(k, "a memory key")
	} else {
		l.Diags.Errorf(l.Pos(n), "Memory Read needs `Keys`")
	}
	if p := m.Get("InjectAt"); p != nil {
		r.InjectAt = l.path(p, "InjectAt", true, false)
	}
	if d := m.Get("Default"); d != nil {
		r.Default = l.literal(d)
	}
	return r
}

func (l *lowerer) memoryWrite(n *yaml.Node) *ir.MemoryWrite {
	m, ok := l.Mapping(n, "Memory Write", "Key", "Value", "Value.$", "TTL", "Merge", "Overwrite")
	if !ok {
		return nil
	}
	w := &ir.MemoryWrite{}
	if k := m.Get("Key"); k != nil {
		w.Key, _ = l.String(k, "Key")
	} else {
		l.Diags.Errorf(l.Pos(n), "Memory Write needs `Key`")
	}
	for _, e := range l.Pairs(n) {
		if e.Key.Value == "Value" || e.Key.Value == "Value.$" {
			w.Value = l.templateField(e.Key, e.Value).Value
		}
	}
	if w.Value == nil {
		l.Diags.Errorf(l.Pos(n), "Memory Write needs `Value` or `Value.$`")
	}
	if t := m.Get("TTL"); t != nil && t.Value != "never" {
		l.duration(t, "TTL")
	}
	for _, k := range []string{"Merge", "Overwrite"} {
		if b := m.Get(k); b != nil {
			l.Bool(b, k)
		}
	}
	return w
}

// approvalPrompt reads a structured (object) or computed (`Prompt.$`)
// prompt; the request's Prompt text is then its Title, or the state name.
func (l *lowerer) approvalPrompt(m yamlx.Map, s *ir.State) bool {
	ap := s.ASL.Approval
	if e := m.Get("Editable"); e != nil {
		l.agentObject(e, "Editable")
	}
	if e, ok := m.Entries["Prompt.$"]; ok {
		ap.PromptTemplate = l.templateField(e.Key, e.Value).Value
		ap.Prompt = s.ID
		return true
	}
	n := m.Get("Prompt")
	if n == nil || n.Kind != yaml.MappingNode {
		return false
	}
	ap.PromptTemplate = l.objectTemplate(n, "Prompt")
	ap.Prompt = s.ID
	for _, e := range l.Pairs(n) {
		if e.Key.Value == "Title" && e.Value.Kind == yaml.ScalarNode {
			ap.Prompt = e.Value.Value
		}
	}
	return true
}

// failDollar reads the agent language's `Error.$` and `Cause.$` of a Fail
// state as the ErrorPath and CausePath they stand for.
func (l *lowerer) failDollar(m yamlx.Map) {
	for short, long := range map[string]string{"Error.$": "ErrorPath", "Cause.$": "CausePath"} {
		e, ok := m.Entries[short]
		if !ok {
			continue
		}
		if m.Has(long) {
			l.Diags.Errorf(l.Pos(e.Key), "`%s` and `%s` say the same; keep one", short, long)
			continue
		}
		m.Entries[long] = e
	}
}

// computedVariable reads the agent language's `Variable.$`: a path, or an
// intrinsic call whose value the rule tests. It reports whether it was
// there.
func (l *lowerer) computedVariable(m yamlx.Map, r *ir.ChoiceRule) bool {
	e, ok := m.Entries["Variable.$"]
	if !ok {
		return false
	}
	if m.Has("Variable") {
		l.Diags.Errorf(l.Pos(e.Key), "a choice rule has `Variable` or `Variable.$`, not both")
	}
	t := l.templateField(e.Key, e.Value).Value
	switch {
	case t.Kind == ir.TmplPath:
		r.Variable = t.Path
	case t.Kind == ir.TmplIntrinsic && t.Call != nil:
		r.Call = t.Call
		r.Variable = &ir.Path{Pos: t.Pos, Source: e.Value.Value} // no segments: the call's value itself
		if strings.HasSuffix(r.Op, "Path") {
			l.Diags.Errorf(l.Pos(e.Key), "%s compares with a path of the input; `Variable.$` with an intrinsic takes a literal comparison", r.Op)
		}
	}
	return true
}

// guardrails reads the rules of Guardrails that flowc applies itself:
// length (Max), pattern (Block) and regex (Pattern, Action). The others
// are the agent's to apply.
func (l *lowerer) guardrails(n *yaml.Node) *ir.Guardrails {
	g := &ir.Guardrails{}
	for _, e := range l.Pairs(n) {
		var into *[]*ir.GuardRule
		switch e.Key.Value {
		case "Input":
			into = &g.Input
		case "Output":
			into = &g.Output
		default:
			continue
		}
		if e.Value.Kind != yaml.MappingNode {
			l.Diags.Errorf(l.Pos(e.Value), "Guardrails %s must be an object", e.Key.Value)
			continue
		}
		for _, r := range l.Pairs(e.Value) {
			if r.Key.Value == "Rules" {
				for _, item := range l.Seq(r.Value, "Rules") {
					if rule := l.guardRule(item); rule != nil {
						*into = append(*into, rule)
					}
				}
			}
		}
	}
	if len(g.Input) == 0 && len(g.Output) == 0 {
		return nil
	}
	return g
}

func (l *lowerer) guardRule(n *yaml.Node) *ir.GuardRule {
	if n.Kind != yaml.MappingNode {
		l.Diags.Errorf(l.Pos(n), "a guardrail rule must be an object")
		return nil
	}
	r := &ir.GuardRule{}
	for _, e := range l.Pairs(n) {
		switch e.Key.Value {
		case "Type":
			r.Type, _ = l.String(e.Value, "Type")
		case "Max":
			r.Max = l.Int(e.Value, "Max", 0, math.MaxInt32)
		case "Block":
			r.Block = l.Strings(e.Value, "a blocked pattern")
		case "Pattern":
			r.Pattern, _ = l.String(e.Value, "Pattern")
			if _, err := regexp.Compile(r.Pattern); err != nil {
				l.Diags.Errorf(l.ContentPos(e.Value), "Pattern %q is not a regular expression: %v", r.Pattern, err)
			}
		case "Action":
			r.Action, _ = l.String(e.Value, "Action")
		}
	}
	switch r.Type {
	case "length", "pattern", "regex":
		return r
	case "":
		l.Diags.Errorf(l.Pos(n), "a guardrail rule needs a `Type`")
	}
	return nil
}

// withDefaults is a task's Tools over the workflow's DefaultTools: the
// task's members win.
func withDefaults(defaults map[string]any, tools any) any {
	if defaults == nil {
		return tools
	}
	own, _ := tools.(map[string]any)
	out := maps.Clone(defaults)
	maps.Copy(out, own)
	return out
}
