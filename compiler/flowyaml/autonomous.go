package flowyaml

import (
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// `mode: Autonomous` CodeMie workflows have no states: a supervisor hands
// the work to the workflow's assistants one at a time until it answers
// FINISH (supervisor_workflow.py, SupervisorWorkflowExecutor). Such a
// workflow is lowered as the states CodeMie builds for it, written as the
// YAML a user would write, so that every rule of JSON mode applies:
//
//   - Supervisor, the entry (get_workflow_entry_point), runs the handler
//     Supervisor on the task "Decide about next step" (supervisor_node.py,
//     get_task). Its output is CodeMie's NextAction (models.py): `next`,
//     one of FINISH and the members, `task` and `reasoning`; the output
//     schema makes any other choice an error, as an unknown node is in
//     LangGraph. The output changes no key of the context store, as
//     CodeMie's processed output (a sentence) adds none.
//   - Its switch goes to the member `next` names, else ends the run
//     (evaluate_route: FINISH ends it).
//   - Each assistant is a state named as CodeMie names its node, the
//     assistant's name without spaces (its id when it has no name), that
//     runs the assistant on the task "-" (an empty task, as get_task sends
//     it) and goes back to Supervisor (build_workflow's add_edge).

// supervisorID is the state, and the handler, of the supervisor
// (constants.py, SUPERVISOR_NODE).
const supervisorID = "Supervisor"

// finishChoice is the supervisor's answer that ends the run
// (constants.py, SUPERVISOR_FINISH_STEP).
const finishChoice = "FINISH"

// autonomousMode reports whether a workflow file, or the configuration
// it wraps, sets `mode: Autonomous` (the enum's value in CodeMie's
// workflow_models.py).
func autonomousMode(root *yaml.Node) bool {
	if root == nil || root.Kind != yaml.MappingNode {
		return false
	}
	for _, n := range []*yaml.Node{root, executionConfig(root)} {
		if n != nil && scalarAt(n, "mode") == "Autonomous" {
			return true
		}
	}
	return false
}

// scalarAt is the value of key in mapping n when it is a scalar, else "".
func scalarAt(n *yaml.Node, key string) string {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key && n.Content[i+1].Kind == yaml.ScalarNode {
			return n.Content[i+1].Value
		}
	}
	return ""
}

// autonomous returns the configuration cfg of an Autonomous workflow with
// the states CodeMie builds for it in place of any it lists, which CodeMie
// does not run. supervisor_prompt, which CodeMie's supervisor is built
// without, is reported as unused.
func (l *lowerer) autonomous(file, cfg *yaml.Node) *yaml.Node {
	if cfg.Kind != yaml.MappingNode {
		return cfg
	}
	out := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: cfg.Line, Column: cfg.Column}
	var assistants *yaml.Node
	for i := 0; i+1 < len(cfg.Content); i += 2 {
		k, v := cfg.Content[i], cfg.Content[i+1]
		switch k.Value {
		case "states":
			l.Diags.Warnf(l.Pos(k), "an Autonomous workflow runs its supervisor and assistants, not `states` (CodeMie's supervisor_workflow.py, build_workflow); they are ignored")
			continue
		case "assistants":
			assistants = v
		}
		out.Content = append(out.Content, k, v)
	}
	for _, n := range []*yaml.Node{file, cfg} {
		if n == file && file == cfg {
			continue
		}
		if e, ok := mappingEntry(n, "supervisor_prompt"); ok {
			l.Diags.Warnf(l.Pos(e), "CodeMie's supervisor does not read `supervisor_prompt` (supervisor_workflow.py, build_workflow passes it no prompt) and prompts with its own; the Supervisor handler decides how to prompt")
		}
	}
	if assistants == nil || assistants.Kind != yaml.SequenceNode || len(assistants.Content) == 0 {
		l.Diags.Errorf(l.Pos(cfg), "an Autonomous workflow needs `assistants`: the team its supervisor hands work to")
		return out
	}
	states := l.teamStates(assistants)
	if states == nil {
		return out
	}
	out.Content = append(out.Content, scalar(cfg, "states"), states)
	return out
}

// mappingEntry returns the key node of key in mapping n.
func mappingEntry(n *yaml.Node, key string) (*yaml.Node, bool) {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i], true
		}
	}
	return nil, false
}

// teamStates writes the supervisor's state and one state per assistant;
// nil when two assistants would be the same node.
func (l *lowerer) teamStates(assistants *yaml.Node) *yaml.Node {
	seen := map[string]bool{supervisorID: true}
	var members []string
	var memberStates []*yaml.Node
	for _, a := range assistants.Content {
		if a.Kind != yaml.MappingNode {
			continue // the configuration reader reports it
		}
		id, name := scalarAt(a, "id"), memberName(a)
		if id == "" || name == "" {
			continue
		}
		if seen[name] {
			l.Diags.Errorf(l.Pos(a), "assistant %q is the supervisor's member %q, which another assistant or the supervisor already is; CodeMie names a member by its name without spaces", id, name)
			return nil
		}
		seen[name] = true
		members = append(members, name)
		memberStates = append(memberStates, mapping(a,
			"id", scalar(a, name), "assistant_id", scalar(a, id), "task", scalar(a, "-"),
			"next", mapping(a, "state_id", scalar(a, supervisorID))))
	}
	seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: assistants.Line, Column: assistants.Column}
	seq.Content = append([]*yaml.Node{l.supervisorState(assistants, members)}, memberStates...)
	return seq
}

// memberName is the node CodeMie names after an assistant: its name
// without spaces, else (a name CodeMie makes up) its id.
func memberName(a *yaml.Node) string {
	if name := strings.ReplaceAll(scalarAt(a, "name"), " ", ""); name != "" {
		return name
	}
	return scalarAt(a, "id")
}

// supervisorState is the supervisor's state: its NextAction output and
// its choice as a switch over the members.
func (l *lowerer) supervisorState(at *yaml.Node, members []string) *yaml.Node {
	choices := sequence(at, append([]string{finishChoice}, members...)...)
	schema := mapping(at,
		"type", scalar(at, "object"),
		"properties", mapping(at,
			"next", mapping(at, "type", scalar(at, "string"), "enum", choices),
			"task", mapping(at, "type", scalar(at, "string")),
			"reasoning", mapping(at, "type", scalar(at, "string"))),
		"required", sequence(at, "next", "reasoning"))
	cases := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: at.Line, Column: at.Column}
	for _, m := range members {
		cases.Content = append(cases.Content, mapping(at,
			"condition", scalar(at, "next == "+pyString(m)), "state_id", scalar(at, m)))
	}
	return mapping(at,
		"id", scalar(at, supervisorID), "handler", scalar(at, supervisorID),
		"task", scalar(at, "Decide about next step"), "output_schema", schema,
		"next", mapping(at,
			"switch", mapping(at, "cases", cases, "default", scalar(at, "end")),
			"store_in_context", boolean(at, false)))
}

// pyString is s as a Python string literal, quoted as Python's repr()
// quotes it when it can.
func pyString(s string) string {
	if !strings.ContainsAny(s, `'\`) && strconv.CanBackquote(s) {
		return "'" + s + "'"
	}
	return strconv.Quote(s)
}

// The nodes of the YAML written for an Autonomous workflow, placed at the
// node `at` of the file, which diagnostics then point to.

func scalar(at *yaml.Node, v string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v, Line: at.Line, Column: at.Column}
}

func boolean(at *yaml.Node, v bool) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(v), Line: at.Line, Column: at.Column}
}

func sequence(at *yaml.Node, items ...string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: at.Line, Column: at.Column}
	for _, s := range items {
		n.Content = append(n.Content, scalar(at, s))
	}
	return n
}

// mapping builds a mapping of key, value, key, value...; values are nodes.
func mapping(at *yaml.Node, kv ...any) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: at.Line, Column: at.Column}
	for i := 0; i+1 < len(kv); i += 2 {
		n.Content = append(n.Content, scalar(at, kv[i].(string)), kv[i+1].(*yaml.Node))
	}
	return n
}
