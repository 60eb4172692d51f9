package asl

import (
	"math"
	"regexp"
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/ir"
)

// modelFields are the fields of an agent task that choose and tune its
// model (the Agent State Language specification, "Agent Primitives":
// "Model Selection" and "Temperature and Sampling").
var modelFields = []string{"Model", "Generation"}

func init() {
	stateFields[ir.ASLTask] = append(stateFields[ir.ASLTask], modelFields...)
}

// model reads `Model`: {Preferred, Fallback, FallbackOn}, or a model name
// alone.
func (l *lowerer) model(n *yaml.Node) *ir.Model {
	if n.Kind == yaml.ScalarNode {
		name, _ := l.modelName(n, "Model")
		return &ir.Model{Preferred: name}
	}
	m, ok := l.Mapping(n, "Model", "Preferred", "Fallback", "FallbackOn")
	if !ok {
		return nil
	}
	out := &ir.Model{}
	if p := m.Get("Preferred"); p != nil {
		out.Preferred, _ = l.modelName(p, "Preferred")
	} else {
		l.Diags.Errorf(l.Pos(n), "Model needs `Preferred`, the model the agent asks")
	}
	if f := m.Get("Fallback"); f != nil {
		out.Fallback, _ = l.modelName(f, "Fallback")
	}
	if e, ok := m.Entries["FallbackOn"]; ok {
		if !m.Has("Fallback") {
			l.Diags.Errorf(l.Pos(e.Key), "FallbackOn needs `Fallback`, the model to switch to")
		}
		if e.Value.Kind != yaml.SequenceNode || len(e.Value.Content) == 0 {
			l.Diags.Errorf(l.Pos(e.Value), "FallbackOn must be a non-empty list of error names")
			return out
		}
		for _, item := range e.Value.Content {
			if s, ok := l.modelName(item, "an error name"); ok {
				out.FallbackOn = append(out.FallbackOn, s)
			}
		}
	}
	return out
}

// modelName reads a non-empty string.
func (l *lowerer) modelName(n *yaml.Node, what string) (string, bool) {
	s, ok := l.String(n, what)
	if ok && s == "" {
		l.Diags.Errorf(l.Pos(n), "%s must not be empty", what)
		return "", false
	}
	return s, ok
}

// generation reads `Generation`: Temperature (0 to 2), TopP (0 to 1),
// MaxTokens (a positive whole number) and StopSequences (strings), the
// ranges OpenAI-compatible endpoints accept.
func (l *lowerer) generation(n *yaml.Node) *ir.Generation {
	m, ok := l.Mapping(n, "Generation", "Temperature", "TopP", "MaxTokens", "StopSequences")
	if !ok {
		return nil
	}
	g := &ir.Generation{}
	if v := m.Get("Temperature"); v != nil {
		t := l.Float(v, "Temperature", 0, 2)
		g.Temperature = &t
	}
	if v := m.Get("TopP"); v != nil {
		p := l.Float(v, "TopP", 0, 1)
		g.TopP = &p
	}
	if v := m.Get("MaxTokens"); v != nil {
		g.MaxTokens = l.Int(v, "MaxTokens", 1, math.MaxInt32)
	}
	if v := m.Get("StopSequences"); v != nil {
		if v.Kind != yaml.SequenceNode {
			l.Diags.Errorf(l.Pos(v), "StopSequences must be a list of strings")
		} else {
			g.StopSequences = l.Strings(v, "a stop sequence")
		}
	}
	return g
}

// fallbackWhen is a budget fallback's trigger other than "Always".
var fallbackWhen = regexp.MustCompile(`^(Budget|Tokens)At([0-9]+)Percent$`)

// modelSwitches reads the workflow Budget's Fallback, `{When, UseModel}` or
// `{Cascade: [...]}` of them, in order (the Agent State Language
// specification, "Cost and Budget": "Model Fallbacks"). A step without
// UseModel (an `Action`) switches nothing. A task's Budget has no Fallback
// in the specification; it is left unread.
func (l *lowerer) modelSwitches(e yamlx.Entry, workflow bool) []ir.ModelSwitch {
	if !workflow {
		return nil
	}
	m, ok := l.Mapping(e.Value, "Budget Fallback", "When", "UseModel", "Notify", "Action", "Cascade")
	if !ok {
		return nil
	}
	c := m.Get("Cascade")
	if c == nil {
		sw, ok := l.modelSwitch(m)
		if !ok {
			return nil
		}
		return []ir.ModelSwitch{sw}
	}
	if m.Has("When") || m.Has("UseModel") {
		l.Diags.Errorf(l.Pos(e.Key), "Budget Fallback has a `Cascade` or one `When` and `UseModel`, not both")
	}
	var out []ir.ModelSwitch
	for _, n := range l.Seq(c, "Cascade") {
		step, ok := l.Mapping(n, "a Cascade step", "When", "UseModel", "Notify", "Action")
		if !ok {
			continue
		}
		if sw, ok := l.modelSwitch(step); ok {
			out = append(out, sw)
		}
	}
	return out
}

// modelSwitch reads one step of a budget fallback; false when it switches
// to no model.
func (l *lowerer) modelSwitch(m yamlx.Map) (ir.ModelSwitch, bool) {
	var sw ir.ModelSwitch
	when := m.Get("When")
	if when == nil {
		l.Diags.Errorf(l.Pos(m.Node), "a budget fallback needs `When`: Always, BudgetAt<N>Percent or TokensAt<N>Percent")
		return sw, false
	}
	s, _ := l.String(when, "When")
	if s != "Always" {
		parts := fallbackWhen.FindStringSubmatch(s)
		pct := 0
		if parts != nil {
			pct, _ = strconv.Atoi(parts[2])
		}
		if pct < 1 || pct > 100 {
			l.Diags.Errorf(l.ContentPos(when), "When must be Always, BudgetAt<N>Percent or TokensAt<N>Percent with N from 1 to 100, got %q", s)
			return sw, false
		}
		sw.At, sw.Tokens = float64(pct)/100, parts[1] == "Tokens"
	}
	u := m.Get("UseModel")
	if u == nil {
		return sw, false
	}
	name, ok := l.modelName(u, "UseModel")
	sw.Model = name
	return sw, ok
}
