package chain

import (
	"slices"
	"strconv"
	"strings"
	"text/template/parse"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/compiler/diag"
	"github.com/flowc-dev/flowc/ir"
	flowcchain "github.com/flowc-dev/flowc/runtime/impl/chain"
)

// varRead is a variable that a template reads.
type varRead struct {
	pos  ir.Pos
	name string
	what string // the field: prompt_template or print
}

// template reads a Go template field (prompt_template, print,
// output_template) and returns its text with the macros rewritten as
// function calls (flowcchain.MacroTemplate), which is what the generated code
// parses. When reads is set, the variables it reads are kept for
// checkVars; an output_template reads a tool's result instead.
func (l *lowerer) template(n *yaml.Node, what, task string, reads bool) string {
	text, ok := l.String(n, what)
	if !ok {
		return ""
	}
	l.checkMacros(n, text, what)
	text = flowcchain.MacroTemplate(text)
	t, err := flowcchain.ChainTemplate(what, text)
	if err != nil {
		l.templateError(n, what, err)
		return text
	}
	// The generated code names the template after its task, and a
	// {{define}} of that name would make it panic when its package loads.
	if _, err := flowcchain.ChainTemplate(task, text); err != nil {
		l.Diags.Errorf(l.ContentPos(n), "%s defines a template named %q, the id of its task; rename the template", what, task)
		return text
	}
	if reads && t.Tree != nil {
		for _, name := range rootVars(t.Tree.Root) {
			l.reads = append(l.reads, varRead{pos: l.ContentPos(n), name: name, what: what})
		}
	}
	return text
}

// checkMacros reports macros that can never expand.
func (l *lowerer) checkMacros(n *yaml.Node, text, what string) {
	for _, m := range flowcchain.FindMacros(text) {
		switch name, _, _ := strings.Cut(m.Payload, "|"); {
		case m.Namespace == "var" && strings.TrimSpace(name) == "":
			l.Diags.Errorf(l.macroPos(n, text, m.Start), "%s: `{{var:}}` needs a variable name", what)
		case m.Namespace == "edge_count" && !strings.Contains(m.Payload, "->"):
			l.Diags.Errorf(l.macroPos(n, text, m.Start), "%s: `{{edge_count:%s}}` needs an edge `from->to`", what, m.Payload)
		}
	}
}

// macroPos points at the macro at byte offset off of a scalar's text when
// the text before it is written as it reads (one line, no escapes), else at
// the scalar.
func (l *lowerer) macroPos(n *yaml.Node, text string, off int) ir.Pos {
	pos := l.ContentPos(n)
	prefix := text[:off]
	if n.Style == yaml.LiteralStyle || n.Style == yaml.FoldedStyle || strings.ContainsAny(prefix, "\n\"'\\\t") {
		return pos
	}
	return pos.Shift(utf8.RuneCountInString(prefix))
}

// templateError reports a parse error at its line when the scalar keeps
// the template's lines (a literal block), else at the scalar.
func (l *lowerer) templateError(n *yaml.Node, what string, err error) {
	line, msg := splitTemplateError(err.Error(), what)
	pos := l.ContentPos(n)
	switch {
	case n.Style == yaml.LiteralStyle:
		pos.Line += line - 1
	case line > 1:
		msg = "line " + strconv.Itoa(line) + ": " + msg
	}
	l.Diags.Errorf(pos, "%s is not a valid Go template: %s", what, msg)
}

// splitTemplateError takes "template: prompt:LINE: MSG" apart.
func splitTemplateError(s, name string) (line int, msg string) {
	rest, ok := strings.CutPrefix(s, "template: "+name+":")
	if !ok {
		return 1, s
	}
	num, msg, ok := strings.Cut(rest, ": ")
	line, err := strconv.Atoi(num)
	if !ok || err != nil {
		return 1, rest
	}
	return line, msg
}

// checkVars warns about templates that read a variable nothing sets: such
// a template always renders "<no value>" there, as contenox renders a
// missing key. Templates read the chain's input, each task's
// output under its id, the variables branches compose, and after a failure
// the error.
func (l *lowerer) checkVars(w *ir.Workflow) {
	known := map[string]bool{"input": true, "previous_output": true, "last_error": true}
	var names []string
	add := func(name string) {
		if !known[name] {
			known[name] = true
			names = append(names, name)
		}
	}
	for _, s := range w.States {
		add(s.ID)
		add(s.ID + "_error")
		for _, b := range s.Next.Branches {
			if c := b.Compose; c != nil {
				add(c.WithVar)
			}
		}
	}
	for _, r := range l.reads {
		if !known[r.name] {
			l.Diags.Warnf(r.pos, "%s reads %q, which is neither the input, a task's id nor a composed variable%s; it renders as <no value>",
				r.what, r.name, diag.DidYouMean(r.name, names))
		}
	}
	for _, s := range w.States {
		iv := s.Chain.InputVar
		switch {
		case iv == nil || known[iv.ID]:
		case isPlaceholder(iv.ID):
			l.Diags.Warnf(iv.Pos, "input_var %q is a placeholder filled in before the chain runs; here the task fails when it runs", iv.ID)
		default:
			l.Diags.Warnf(iv.Pos, "input_var %q is neither the input, a task's id nor a composed variable%s; the task fails when it runs",
				iv.ID, diag.DidYouMean(iv.ID, names))
		}
	}
}

// rootVars lists, once each and in order, the variables a template reads
// from its data: `.name` where dot is still the data, and `$.name`
// anywhere. Inside range and with, dot is something else.
func rootVars(root *parse.ListNode) []string {
	var out []string
	add := func(name string) {
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	var walk func(n parse.Node, atRoot bool)
	walk = func(n parse.Node, atRoot bool) {
		switch n := n.(type) {
		case *parse.ListNode:
			if n != nil {
				for _, c := range n.Nodes {
					walk(c, atRoot)
				}
			}
		case *parse.ActionNode:
			walk(n.Pipe, atRoot)
		case *parse.TemplateNode:
			walk(n.Pipe, atRoot)
		case *parse.IfNode:
			walk(n.Pipe, atRoot)
			walk(n.List, atRoot)
			walk(n.ElseList, atRoot)
		case *parse.RangeNode:
			walk(n.Pipe, atRoot)
			walk(n.List, false)
			walk(n.ElseList, atRoot)
		case *parse.WithNode:
			walk(n.Pipe, atRoot)
			walk(n.List, false)
			walk(n.ElseList, atRoot)
		case *parse.PipeNode:
			if n != nil {
				for _, cmd := range n.Cmds {
					walk(cmd, atRoot)
				}
			}
		case *parse.CommandNode:
			for _, arg := range n.Args {
				walk(arg, atRoot)
			}
		case *parse.ChainNode:
			walk(n.Node, atRoot)
		case *parse.FieldNode:
			if atRoot {
				add(n.Ident[0])
			}
		case *parse.VariableNode:
			if len(n.Ident) > 1 && n.Ident[0] == "$" {
				add(n.Ident[1])
			}
		}
	}
	walk(root, true)
	return out
}
