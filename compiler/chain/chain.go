// Package chain is the front-end for task chains (JSON or YAML): a top-level
// `tasks:` list whose tasks name a handler, an optional prompt_template and
// a transition of branches. It lowers a chain into the IR and reports, at
// their positions, the problems only a chain can have: operators, `when`
// values, compose strategies, branch order, handlers and templates. Task
// ids, targets and Go names are the shared checker's job.
package chain

import (
	"go/token"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/internal/naming"
	"github.com/flowc-dev/flowc/ir"
)

var (
	topKeys        = []string{"description", "package", "tasks"}
	taskKeys       = []string{"id", "handler", "prompt_template", "transition"}
	transitionKeys = []string{"on_failure", "branches"}
)

// Detect reports whether a parsed document is a task chain: a mapping with
// a top-level `tasks:` key.
func Detect(root *yaml.Node) bool {
	if root == nil || root.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "tasks" {
			return true
		}
	}
	return false
}

// Lower turns the root node of a chain into a workflow. stem is the file
// stem, which names the chain; pkg is the default Go package.
func Lower(r *yamlx.Reader, root *yaml.Node, stem, pkg string) *ir.Workflow {
	l := &lowerer{Reader: r}
	return l.workflow(root, stem, pkg)
}

type lowerer struct {
	*yamlx.Reader
	reads []varRead // variables the prompt templates read, for checkVars
}

func (l *lowerer) workflow(root *yaml.Node, stem, pkg string) *ir.Workflow {
	w := &ir.Workflow{Pos: l.Pos(root), ID: stem, Name: naming.Exported(stem), Package: pkg, Mode: ir.ModeChain}
	if w.Name == "" {
		w.Name = "Chain"
	}
	m, ok := l.Mapping(root, "the chain", topKeys...)
	if !ok {
		return w
	}
	if n := m.Get("description"); n != nil {
		w.Description, _ = l.String(n, "description")
	}
	if n := m.Get("package"); n != nil {
		w.Package = l.packageName(n)
	}
	if n := m.Get("tasks"); n != nil {
		w.States = l.tasks(n)
	} else {
		l.Diags.Errorf(w.Pos, "a chain needs a `tasks:` list")
	}
	if len(w.States) > 0 {
		first := w.States[0]
		w.Start = ir.Ref{Pos: first.Pos, ID: first.ID}
	}
	l.checkVars(w)
	return w
}

func (l *lowerer) tasks(n *yaml.Node) []*ir.State {
	items := l.Seq(n, "tasks")
	if n.Kind == yaml.SequenceNode && len(items) == 0 {
		l.Diags.Errorf(l.Pos(n), "a chain needs at least one task")
	}
	var out []*ir.State
	for _, item := range items {
		if s := l.task(item); s != nil {
			out = append(out, s)
		}
	}
	return out
}

func (l *lowerer) task(n *yaml.Node) *ir.State {
	m, ok := l.Mapping(n, "a task", taskKeys...)
	if !ok {
		return nil
	}
	idNode := m.Get("id")
	if idNode == nil {
		l.Diags.Errorf(l.Pos(n), "a task needs an `id`")
		return nil
	}
	s := &ir.State{Pos: l.ContentPos(idNode), Kind: ir.StateTask}
	s.ID, _ = l.String(idNode, "id")
	s.GoName = naming.Exported(s.ID)
	s.Handler = l.handler(m.Get("handler"), n)
	if t := m.Get("prompt_template"); !isAbsent(t) {
		s.PromptTemplate, _ = l.String(t, "prompt_template")
		l.checkTemplate(t, s.PromptTemplate, s.ID)
	} else if needsPrompt(s.Handler) {
		l.Diags.Errorf(s.Handler.Pos, "handler `%s` renders the task's prompt_template; add one", s.Handler.Builtin)
	}
	s.Next = l.transition(m.Get("transition"), s)
	return s
}

var builtins = map[string]ir.Builtin{
	"noop": ir.BuiltinNoop, "raise_error": ir.BuiltinRaiseError,
	"prompt_to_string": ir.BuiltinPromptToString, "prompt_to_int": ir.BuiltinPromptToInt,
}

// handler reads the task's handler: a built-in, or a user handler whose
// method name is the CamelCase of the name (chat_completion →
// ChatCompletion).
func (l *lowerer) handler(n, task *yaml.Node) *ir.Handler {
	h := &ir.Handler{Pos: l.Pos(task), Kind: ir.HandlerEval}
	if n == nil {
		l.Diags.Errorf(h.Pos, "a task needs a `handler`")
		return h
	}
	h.Pos = l.ContentPos(n)
	name, ok := l.String(n, "handler")
	if !ok {
		return h
	}
	if b, ok := builtins[name]; ok {
		h.Builtin = b
		return h
	}
	if h.Name = naming.Exported(name); h.Name == "" {
		l.Diags.Errorf(h.Pos, "handler %q does not make a Go method name; start it with a letter", name)
	}
	return h
}

func needsPrompt(h *ir.Handler) bool {
	return h.Builtin == ir.BuiltinPromptToString || h.Builtin == ir.BuiltinPromptToInt
}

func (l *lowerer) packageName(n *yaml.Node) string {
	s, ok := l.String(n, "package")
	if ok && (!token.IsIdentifier(s) || token.IsKeyword(s) || s == "_") {
		l.Diags.Errorf(l.Pos(n), "package %q is not a Go package name", s)
	}
	return s
}
