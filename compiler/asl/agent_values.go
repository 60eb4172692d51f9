package asl

import (
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/compiler/yamlx"
)

// The Agent State Language's JSON Schema closes some fields of the blocks
// flowc checks as objects and hands on without acting on them: their words
// (enums), the least number they take and the shape of their maps. flowc
// holds definitions to the same, so that what it accepts the schema
// accepts. Paths go from a state ("Block.Field", "[]" for each item, "*"
// for each member) or, in workflowValues, from the workflow.
var (
	stateEnums = map[string][]string{
		"Communication.Style":           {"turn_based", "free_form"},
		"Communication.VisibleHistory":  {"all", "own", "none"},
		"Context.Strategy":              {"sliding_window", "priority_based", "semantic"},
		"Context.Summarize.When":        {"TokensExceed", "Always", "Never"},
		"Budget.Priority":               {"critical", "high", "normal", "low", "background"},
		"Guardrails.Input.Rules[].Type": guardTypes, "Guardrails.Output.Rules[].Type": guardTypes,
		"Guardrails.Input.Rules[].Action": guardActions, "Guardrails.Output.Rules[].Action": guardActions,
		"Reasoning.Format": {"chain_of_thought", "tree_of_thoughts", "reflection", "free_form"},
		"Streaming.Mode":   {"token", "line", "chunk", "sentence"},
	}
	workflowEnums = map[string][]string{
		"Budget.OnExceed": {"Fail", "PauseAndNotify", "UseFallback", "Continue", "Throttle"},
		"Memory.Backend":  {"memory", "file", "redis", "dynamodb", "custom"},
	}
	guardTypes = []string{"length", "pattern", "regex", "semantic", "pii", "custom"}
	// "flag" is not in the schema's enum, but the language's own examples
	// use it; like "warn" it lets the value through.
	guardActions = []string{"block", "redact", "mask", "warn", "retry", "flag"}
)

// checkAgentValues checks the closed fields of the workflow root and of
// every state, nested ones included.
func (l *lowerer) checkAgentValues(root *yaml.Node) {
	if root == nil || root.Kind != yaml.MappingNode {
		return
	}
	for _, path := range yamlx.SortedKeys(workflowEnums) {
		l.checkEnum(root, path, workflowEnums[path])
	}
	for _, n := range l.at(root, "Progress.WeightedProgress.*") {
		l.checkNumber(n, "a progress weight", false)
	}
	l.checkStates(mapValue(root, "States"))
}

func (l *lowerer) checkStates(states *yaml.Node) {
	if states == nil || states.Kind != yaml.MappingNode {
		return
	}
	for i := 1; i < len(states.Content); i += 2 {
		st := states.Content[i]
		for _, path := range yamlx.SortedKeys(stateEnums) {
			l.checkEnum(st, path, stateEnums[path])
		}
		for _, n := range l.at(st, "Context.MaxTokens") {
			l.checkNumber(n, "Context MaxTokens", true)
		}
		for _, n := range l.at(st, "Tools.RateLimits.*") {
			l.rateLimit(n)
		}
		if a := mapValue(st, "Agents"); a != nil && a.Kind == yaml.SequenceNode && len(a.Content) < 2 {
			l.Diags.Errorf(l.Pos(a), "a Debate needs at least two Agents")
		}
		for _, sub := range l.at(st, "Branches[].States") {
			l.checkStates(sub)
		}
		for _, sub := range append(l.at(st, "Iterator.States"), l.at(st, "ItemProcessor.States")...) {
			l.checkStates(sub)
		}
	}
}

func (l *lowerer) checkEnum(n *yaml.Node, path string, words []string) {
	for _, v := range l.at(n, path) {
		if v.Kind != yaml.ScalarNode || !slices.Contains(words, v.Value) {
			l.Diags.Errorf(l.ContentPos(v), "%s must be one of %s, got %s%s", strings.ReplaceAll(path, "[]", ""), strings.Join(words, ", "), jsonText(l.jsonValue(v)), didYouMean(v.Value, words))
		}
	}
}

// checkNumber reports a value that is not a number (a whole one of at
// least 0 when whole).
func (l *lowerer) checkNumber(n *yaml.Node, what string, whole bool) {
	if whole {
		l.Int(n, what, 0, 1<<31-1)
		return
	}
	if n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!float") {
		l.Diags.Errorf(l.ContentPos(n), "%s must be a number", what)
	}
}

// rateLimit checks a tool's rate limit: {"MaxPerMinute": n, "MaxPerHour": n}.
func (l *lowerer) rateLimit(n *yaml.Node) {
	keys := []string{"MaxPerMinute", "MaxPerHour", "MaxConcurrent"}
	m, ok := l.Mapping(n, "a tool's rate limit", keys...)
	if !ok {
		return
	}
	for _, k := range keys {
		if v := m.Get(k); v != nil {
			l.checkNumber(v, k, true)
		}
	}
}

// at returns the nodes at path below n: "." separates members, "[]" takes
// each item of a list, "*" each member of an object; missing parts give
// none.
func (l *lowerer) at(n *yaml.Node, path string) []*yaml.Node {
	nodes := []*yaml.Node{n}
	for _, part := range strings.Split(path, ".") {
		each := strings.HasSuffix(part, "[]")
		part = strings.TrimSuffix(part, "[]")
		var next []*yaml.Node
		for _, c := range nodes {
			if c.Kind != yaml.MappingNode {
				continue
			}
			if part == "*" {
				for i := 1; i < len(c.Content); i += 2 {
					next = append(next, c.Content[i])
				}
				continue
			}
			v := mapValue(c, part)
			switch {
			case v == nil:
			case each && v.Kind == yaml.SequenceNode:
				next = append(next, v.Content...)
			case !each:
				next = append(next, v)
			}
		}
		nodes = next
	}
	return nodes
}
