package chain

import (
	"slices"
	"strconv"
	"strings"
	"text/template"
	"text/template/parse"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/compiler/diag"
	"github.com/flowc-dev/flowc/ir"
)

// varRead is a chain variable that a prompt_template reads.
type varRead struct {
	pos  ir.Pos
	name string
}

// checkTemplate parses a prompt_template as the generated code will, and
// remembers the variables it reads for checkVars.
func (l *lowerer) checkTemplate(n *yaml.Node, text, task string) {
	t, err := template.New("prompt").Parse(text)
	if err != nil {
		l.templateError(n, err)
		return
	}
	// The generated code names the template after its task, and a
	// {{define}} of that name would make it panic when its package loads.
	if _, err := template.New(task).Parse(text); err != nil {
		l.Diags.Errorf(l.ContentPos(n), "prompt_template defines a template named %q, the id of its task; rename the template", task)
		return
	}
	if t.Tree == nil {
		return
	}
	for _, name := range rootVars(t.Tree.Root) {
		l.reads = append(l.reads, varRead{pos: l.ContentPos(n), name: name})
	}
}

// templateError reports a parse error at its line when the scalar keeps
// the template's lines (a literal block), else at the scalar.
func (l *lowerer) templateError(n *yaml.Node, err error) {
	line, msg := splitTemplateError(err.Error())
	pos := l.ContentPos(n)
	switch {
	case n.Style == yaml.LiteralStyle:
		pos.Line += line - 1
	case line > 1:
		msg = "line " + strconv.Itoa(line) + ": " + msg
	}
	l.Diags.Errorf(pos, "prompt_template is not a valid Go template: %s", msg)
}

// splitTemplateError takes "template: prompt:LINE: MSG" apart.
func splitTemplateError(s string) (line int, msg string) {
	rest, ok := strings.CutPrefix(s, "template: prompt:")
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

// checkVars warns about templates that read a variable no branch composes:
// the chain variables start empty, and the generated code renders with
// missingkey=error, so rendering such a template always fails.
func (l *lowerer) checkVars(w *ir.Workflow) {
	composed := map[string]bool{}
	var names []string
	for _, s := range w.States {
		for _, b := range s.Next.Branches {
			if c := b.Compose; c != nil && !composed[c.WithVar] {
				composed[c.WithVar] = true
				names = append(names, c.WithVar)
			}
		}
	}
	for _, r := range l.reads {
		if !composed[r.name] {
			l.Diags.Warnf(r.pos, "prompt_template reads variable %q, which no branch composes%s; rendering it fails",
				r.name, diag.DidYouMean(r.name, names))
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
