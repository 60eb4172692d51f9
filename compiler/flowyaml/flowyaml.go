// Package flowyaml is the front-end for flowc's own YAML language, the
// *.flow.yaml files, typed or CodeMie's JSON mode: it lowers a definition
// into the IR, reporting every structural problem at its position, and
// decides the mode (typed with a `state:` schema, JSON mode without).
// Meaning (targets, types, expressions) is the checker's job.
package flowyaml

import (
	"go/token"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/compiler/diag"
	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/internal/naming"
	"github.com/flowc-dev/flowc/ir"
)

// Suffixes are the names of flowc YAML files, the first the one docs use.
var Suffixes = []string{".flow.yaml", ".flow.yml"}

var topKeys = []string{"workflow", "package", "description", "state", "start", "states"}

// fieldKeys are the keys of a `state:` field written as a mapping.
var fieldKeys = []string{"type", "reducer"}

var stateKeys = []string{
	"id", "type", "description", "handler", "assistant_id", "tool_id", "task", "tool_args",
	"prompt", "options", "timeout", "retry", "catch", "next", "end", "flow",
}

// Detect reports whether a parsed document is in flowc's YAML language: a
// top-level `states:` list whose items have `id`.
func Detect(root *yaml.Node) bool {
	if root == nil || root.Kind != yaml.MappingNode {
		return false
	}
	if autonomousMode(root) { // a CodeMie supervisor and its team (autonomous.go)
		return true
	}
	if inner := executionConfig(root); inner != nil { // a CodeMie workflow file (codemie.go)
		root = inner
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "states" && root.Content[i+1].Kind == yaml.SequenceNode {
			for _, item := range root.Content[i+1].Content {
				if item.Kind == yaml.MappingNode && hasKey(item, "id") {
					return true
				}
			}
		}
	}
	return false
}

func hasKey(n *yaml.Node, key string) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return true
		}
	}
	return false
}

// Defaults are what a definition may leave out, taken from its surroundings.
type Defaults struct {
	Stem       string // the file name without its suffix: the default workflow name
	Package    string // the default Go package
	DirPackage string // the package of the Go files already in Dir, or ""
	Dir        string // where the generated file goes
}

// Lower turns the root node of a flowc YAML definition into a workflow.
func Lower(r *yamlx.Reader, root *yaml.Node, d Defaults) *ir.Workflow {
	abs, _ := filepath.Abs(r.File)
	l := &lowerer{Reader: r, defaults: d, stack: []string{abs}, names: []string{r.File}}
	return l.workflow(root)
}

type lowerer struct {
	*yamlx.Reader
	defaults Defaults
	json     bool     // the workflow has no `state:` schema: templates are parsed
	jinja    bool     // the template being parsed is rendered by Jinja2, not by paths
	linked   []link   // JSON mode: the states' assistant, tool and custom node references
	itemless []string // JSON mode: states CodeMie reads an item for outside an iteration (conditionIter)
	// statePolicy holds, in JSON mode, the retry_policy of each state that writes one.
	statePolicy map[*ir.State]map[string]any

	flows map[*ir.State]flowUse // the states that run a child workflow (subflow.go)
	child bool                  // lowering a child: its parent finds the fan-outs of both
	stack []string              // absolute paths of the files being lowered, outermost first
	names []string              // the same files as the compiler names them, for cycle messages
}

func (l *lowerer) workflow(root *yaml.Node) *ir.Workflow {
	file := root
	root, about := l.unwrap(root) // a CodeMie workflow file (codemie.go)
	if autonomousMode(file) {
		root = l.autonomous(file, root)
	}
	stem := l.defaults.Stem
	w := &ir.Workflow{Pos: l.Pos(root), ID: stem, Name: naming.Exported(stem), Package: l.defaults.Package, Mode: ir.ModeJSON}
	if w.Name == "" {
		w.Name = "Workflow"
	}
	m, ok := l.Mapping(root, "the workflow", append(slices.Clip(topKeys), codemieTopKeys...)...)
	if !ok {
		return w
	}
	if n := m.Get("workflow"); n != nil {
		w.ID, _ = l.String(n, "workflow")
		w.Name = l.goName(n, "workflow")
	}
	if n := m.Get("package"); n != nil {
		w.Package = l.packageName(n)
	}
	if n := m.Get("description"); n != nil {
		w.Description, _ = l.String(n, "description")
	}
	if w.Description == "" {
		w.Description = about
	}
	if n := m.Get("state"); n != nil {
		w.Mode = ir.ModeTyped
		w.Fields = l.fields(n)
	}
	l.json = w.Mode == ir.ModeJSON
	l.codemie(m, w)
	if n := m.Get("states"); n != nil {
		for _, item := range l.Seq(n, "states") {
			if s := l.state(item); s != nil {
				w.States = append(w.States, s)
			}
		}
		if len(n.Content) == 0 {
			l.Diags.Errorf(l.Pos(n), "a workflow needs at least one state")
		}
	} else {
		l.Diags.Errorf(w.Pos, "a workflow needs a `states:` list")
	}
	l.applyDefaults(m, w)
	l.links(w)
	l.currentTaskSuffix(w)
	w.Start = l.start(m, w)
	l.splice(w)
	if !l.child {
		l.regions(w)
	}
	return w
}

func (l *lowerer) start(m yamlx.Map, w *ir.Workflow) ir.Ref {
	if n := m.Get("start"); n != nil {
		return l.ref(n, "start")
	}
	if len(w.States) > 0 {
		return ir.Ref{Pos: w.States[0].Pos, ID: w.States[0].ID}
	}
	return ir.Ref{Pos: w.Pos}
}

// goName reads a name that becomes a Go identifier prefix.
func (l *lowerer) goName(n *yaml.Node, what string) string {
	s, ok := l.String(n, what)
	if !ok {
		return ""
	}
	id := naming.Exported(s)
	if id == "" {
		l.Diags.Errorf(l.Pos(n), "%s %q does not make a Go identifier", what, s)
	}
	return id
}

// packageName reads `package:`, which must agree with the Go files the
// generated file will sit beside.
func (l *lowerer) packageName(n *yaml.Node) string {
	s, ok := l.String(n, "package")
	switch dirPkg := l.defaults.DirPackage; {
	case ok && (!token.IsIdentifier(s) || token.IsKeyword(s) || s == "_"):
		l.Diags.Errorf(l.ContentPos(n), "package %q is not a Go package name", s)
	case ok && dirPkg != "" && s != dirPkg:
		l.Diags.Errorf(l.ContentPos(n), "package %q does not match package %s of the Go files in %s", s, dirPkg, l.defaults.Dir)
	}
	return s
}

func (l *lowerer) fields(n *yaml.Node) []*ir.Field {
	if n.Kind != yaml.MappingNode {
		l.Diags.Errorf(l.Pos(n), "`state:` must map field names to types")
		return nil
	}
	var out []*ir.Field
	for _, e := range l.Pairs(n) {
		out = append(out, l.field(e))
	}
	return out
}

func (l *lowerer) field(e yamlx.Entry) *ir.Field {
	f := &ir.Field{Pos: l.Pos(e.Key), Name: e.Key.Value, GoName: naming.Exported(e.Key.Value)}
	f.Reducer = ir.Reducer{Pos: l.Pos(e.Value), Kind: ir.ReduceReplace}
	typeNode := e.Value
	if e.Value.Kind == yaml.MappingNode {
		m, _ := l.Mapping(e.Value, "field `"+f.Name+"`", fieldKeys...)
		typeNode = m.Get("type")
		if typeNode == nil {
			l.Diags.Errorf(l.Pos(e.Value), "field `%s` needs a `type`", f.Name)
		}
		if rn := m.Get("reducer"); rn != nil {
			f.Reducer = l.reducer(rn)
		}
	}
	if typeNode != nil {
		f.Type = l.typ(typeNode)
	}
	return f
}

var reducers = map[string]ir.ReducerKind{
	"replace": ir.ReduceReplace, "append": ir.ReduceAppend, "merge": ir.ReduceMerge,
	"add": ir.ReduceAdd, "messages": ir.ReduceMessages,
}

func (l *lowerer) reducer(n *yaml.Node) ir.Reducer {
	red := ir.Reducer{Pos: l.Pos(n)}
	s, _ := l.String(n, "reducer")
	if k, ok := reducers[s]; ok {
		red.Kind = k
		return red
	}
	if token.IsIdentifier(s) && !token.IsKeyword(s) {
		red.Kind, red.Func = ir.ReduceFunc, s
		return red
	}
	l.Diags.Errorf(red.Pos, "unknown reducer %q%s; use replace, append, merge, add, messages or a Go function name",
		s, diag.DidYouMean(s, yamlx.SortedKeys(reducers)))
	return red
}

func (l *lowerer) typ(n *yaml.Node) *ir.Type {
	s, ok := l.String(n, "type")
	if !ok {
		return nil
	}
	t, err := parseType(s)
	if err != "" {
		l.Diags.Errorf(l.ContentPos(n), "invalid type %q: %s", s, err)
		return nil
	}
	setPos(t, l.Pos(n))
	return t
}

func setPos(t *ir.Type, p ir.Pos) {
	for ; t != nil; t = t.Elem {
		t.Pos = p
		if t.Key != nil {
			setPos(t.Key, p)
		}
	}
}

func (l *lowerer) ref(n *yaml.Node, what string) ir.Ref {
	s, _ := l.String(n, what)
	return ir.Ref{Pos: l.ContentPos(n), ID: strings.TrimSpace(s)}
}

func didYouMeanOp(op string) string { return diag.DidYouMean(op, operators) }
