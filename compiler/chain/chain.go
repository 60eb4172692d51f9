// Package chain is the front-end for task chains (JSON or YAML): contenox
// chain definitions, whose top-level `tasks:` list holds tasks that name a
// handler, its settings (system_instruction, execute_config, tools, ...),
// templates and a transition of branches, and the older form of contenox's
// documentation with compose. It lowers a chain into the IR and reports, at
// their positions, the problems only a chain can have: operators, `when`
// values, edges, compose strategies, branch order, handlers, templates and
// macros. Task ids, targets and Go names are the shared checker's job.
package chain

import (
	"go/token"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/compiler/diag"
	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/internal/naming"
	"github.com/flowc-dev/flowc/ir"
)

// Suffixes are the names of task-chain files.
var Suffixes = []string{".chain.yaml", ".chain.json"}

var (
	// `$schema` names the JSON schema editors validate against; `package`
	// is flowc's own.
	topKeys  = []string{"$schema", "id", "description", "package", "tasks", "token_limit", "debug"}
	taskKeys = []string{
		"id", "description", "handler", "system_instruction", "execute_config", "tools", "hook",
		"valid_conditions", "print", "prompt_template", "output_template", "input_var",
		"input_max_bytes", "timeout", "retry_on_failure", "transition",
	}
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
	w := &ir.Workflow{Pos: l.Pos(root), ID: stem, Name: naming.Exported(stem), Package: pkg, Mode: ir.ModeChain, Chain: &ir.ChainInfo{}}
	if w.Name == "" {
		w.Name = "Chain"
	}
	m, ok := l.mapping(root, "the chain", topKeys...)
	if !ok {
		return w
	}
	l.chainInfo(m, w)
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
	l.checkEdges(w)
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
	m, ok := l.mapping(n, "a task", taskKeys...)
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
	s.Chain = &ir.ChainTask{Kind: ir.ChainKindOf(s.Handler.Name)}
	if t := m.Get("prompt_template"); !isAbsent(t) {
		s.PromptTemplate = l.template(t, "prompt_template", s.ID, true)
	}
	l.taskFields(m, s)
	l.promptHandler(s)
	s.Next = l.transition(m.Get("transition"), s)
	l.checkKind(m, s)
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

// promptHandler settles prompt_to_string and prompt_to_int: with an
// execute_config they ask its model (contenox), else they render their own
// prompt_template (contenox's earlier documentation), which they then need.
func (l *lowerer) promptHandler(s *ir.State) {
	h := s.Handler
	kind, ok := promptKinds[h.Builtin]
	switch {
	case !ok:
	case s.Chain.Exec != nil:
		s.Chain.Kind = kind
		h.Name = naming.Exported(string(h.Builtin)) // PromptToString, PromptToInt: ir.ChainKindOf agrees
		h.Builtin = ir.BuiltinNone
	case s.PromptTemplate == "":
		l.Diags.Errorf(h.Pos, "handler `%s` renders the task's prompt_template; add one, or an execute_config to ask a model", h.Builtin)
	}
}

var promptKinds = map[ir.Builtin]ir.ChainHandlerKind{
	ir.BuiltinPromptToString: ir.ChainPromptToString,
	ir.BuiltinPromptToInt:    ir.ChainPromptToInt,
}

func (l *lowerer) packageName(n *yaml.Node) string {
	s, ok := l.String(n, "package")
	if ok && (!token.IsIdentifier(s) || token.IsKeyword(s) || s == "_") {
		l.Diags.Errorf(l.Pos(n), "package %q is not a Go package name", s)
	}
	return s
}

// mapping reads a mapping of known keys. A key the engine does not know is
// a positioned warning and is skipped: contenox decodes chains with
// encoding/json, which ignores unknown members, so every file it runs
// stays accepted.
func (l *lowerer) mapping(n *yaml.Node, what string, known ...string) (yamlx.Map, bool) {
	m := yamlx.Map{Node: n, Entries: map[string]yamlx.Entry{}}
	if n == nil || n.Kind != yaml.MappingNode {
		l.Diags.Errorf(l.Pos(n), "%s must be a mapping", what)
		return m, false
	}
	for _, e := range l.Pairs(n) {
		if !slices.Contains(known, e.Key.Value) {
			l.Diags.Warnf(l.Pos(e.Key), "unknown key `%s` in %s is ignored%s", e.Key.Value, what, diag.DidYouMean(e.Key.Value, known))
			continue
		}
		m.Entries[e.Key.Value] = e
	}
	return m, true
}
