package asl

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/ir"
)

// Composition of the Agent State Language beyond plain templates: import
// scopes, modules (`Module`, `Exports`, and an Include's `EntryPoint` and
// `ExitPoint`), and an Include's `Override`. All of it rewrites the
// imported document before it is lowered, so the compiled-in machine is an
// ordinary one.

// importScope is the Imports of one workflow, with the file their paths
// are relative to; a template sees those of the workflows including it.
type importScope struct {
	file   string
	byName map[string]*yaml.Node
	// handlers are the imports named in HandlerImports: their Include
	// states call the handler method, file or no file.
	handlers map[string]bool
	outer    *importScope
}

// readImports reads a workflow's Imports, its HandlerImports (names of
// imports to call as handlers), and its `_lock`, whose members pin imports
// by name; the members of both are checked to name an import.
func (l *lowerer) readImports(n, handlers, lock *yaml.Node) {
	if n != nil && n.Kind != yaml.MappingNode {
		l.Diags.Errorf(l.Pos(n), "Imports must be an object of file paths by name")
		n = nil
	}
	scope := &importScope{file: l.File, byName: map[string]*yaml.Node{}, handlers: map[string]bool{}, outer: l.imports}
	if n != nil {
		for _, e := range l.Pairs(n) {
			if _, ok := l.String(e.Value, "an import"); ok {
				scope.byName[e.Key.Value] = e.Value
			}
		}
		l.imports = scope
	}
	l.readHandlerImports(handlers, scope)
	if lock == nil {
		return
	}
	if lock.Kind != yaml.MappingNode {
		l.Diags.Errorf(l.Pos(lock), "_lock must be an object of pinned imports by name")
		return
	}
	for _, e := range l.Pairs(lock) {
		l.String(e.Value, "a locked import")
		if _, ok := scope.byName[e.Key.Value]; !ok {
			l.Diags.Errorf(l.Pos(e.Key), "_lock pins %q, which is not one of the Imports%s", e.Key.Value, didYouMean(e.Key.Value, yamlx.SortedKeys(scope.byName)))
		}
	}
}

// readHandlerImports reads HandlerImports, a list of names of Imports.
func (l *lowerer) readHandlerImports(n *yaml.Node, scope *importScope) {
	if n == nil {
		return
	}
	for _, item := range l.Seq(n, "HandlerImports") {
		name, ok := l.String(item, "a handler import")
		if !ok {
			continue
		}
		if _, known := scope.byName[name]; !known {
			l.Diags.Errorf(l.ContentPos(item), "HandlerImports names %q, which is not one of the Imports%s", name, didYouMean(name, yamlx.SortedKeys(scope.byName)))
			continue
		}
		scope.handlers[name] = true
	}
}

// lookupImport finds an import by name in this workflow's Imports, then
// in those of the workflows including it (a template that takes a
// workflow's name as a parameter names one its includer imports). base is
// the file the import's path is relative to.
func (l *lowerer) lookupImport(name string) (src *yaml.Node, base string, ok bool) {
	if s := l.importScopeOf(name); s != nil {
		return s.byName[name], s.file, true
	}
	return nil, "", false
}

// importScopeOf is the innermost scope that imports name, or nil.
func (l *lowerer) importScopeOf(name string) *importScope {
	for s := l.imports; s != nil; s = s.outer {
		if _, ok := s.byName[name]; ok {
			return s
		}
	}
	return nil
}

// subWorkflow compiles the imported file src (relative to base, the file
// that imports it) into s. A URL, and an import named in HandlerImports,
// make s call the import's handler instead; a file that is not there is
// an error at the import, which says how to ask for the handler.
func (l *lowerer) subWorkflow(s *ir.State, src *yaml.Node, base string, at ir.Pos, inc *inclusion) {
	name, rel := s.ASL.Include.Template, src.Value
	if scope := l.importScopeOf(name); strings.Contains(rel, "://") || (scope != nil && scope.handlers[name]) {
		s.Handler = l.handler("include\x00"+name, name, s.Pos)
		return
	}
	file := rel
	if !filepath.IsAbs(file) {
		file = filepath.Join(filepath.Dir(base), rel)
	}
	if _, err := os.Stat(file); err != nil {
		l.Diags.Errorf(l.ContentPos(src), "import %q: %v; to call a handler method for it instead, add %q to the workflow's `HandlerImports`", rel, err, name)
		return
	}
	l.compileIn(s, file, at, "import", inc)
}

// inclusion is how an Include state takes its template. Its nodes belong
// to the including file, read by parent.
type inclusion struct {
	params      *given
	entry, exit *yaml.Node
	override    []yamlx.Entry // state name: the fields that replace the template's
	parent      *yamlx.Reader
}

// pointField reads an Include's EntryPoint or ExitPoint.
func (l *lowerer) pointField(m yamlx.Map, key string) *yaml.Node {
	n := m.Get(key)
	if n == nil {
		return nil
	}
	if _, ok := l.String(n, key); !ok {
		return nil
	}
	return n
}

// overrides reads an Include's Override: {"States": {name: {fields}}}.
func (l *lowerer) overrides(n *yaml.Node) []yamlx.Entry {
	if n == nil {
		return nil
	}
	m, ok := l.Mapping(n, "Override", "States")
	if !ok || m.Get("States") == nil {
		return nil
	}
	states := m.Get("States")
	if states.Kind != yaml.MappingNode {
		l.Diags.Errorf(l.Pos(states), "Override `States` must be an object of state fields by state name")
		return nil
	}
	var out []yamlx.Entry
	for _, e := range l.Pairs(states) {
		if e.Value.Kind != yaml.MappingNode {
			l.Diags.Errorf(l.Pos(e.Value), "the Override of state %q must be an object of its fields", e.Key.Value)
			continue
		}
		out = append(out, e)
	}
	return out
}

// compose prepares an imported document for lowering into s: the
// Override, a module's fall-through and default start, the EntryPoint and
// ExitPoint; a module, or a template entered or left elsewhere than its
// ends, keeps only the states reachable from where it is entered.
func (l *lowerer) compose(root *yaml.Node, inc *inclusion, s *ir.State) {
	states := mapValue(root, "States")
	if root.Kind != yaml.MappingNode || states == nil || states.Kind != yaml.MappingNode {
		return
	}
	l.override(states, inc, s)
	exports, isModule := l.module(root, states)
	l.enter(root, states, exports, inc, s)
	if start := mapValue(root, "StartAt"); start != nil && (isModule || inc.entry != nil || inc.exit != nil) {
		prune(states, start.Value)
	}
}

// moduleRoot links the states of a module compiled on its own, which
// starts at its StartAt or first export and keeps every state.
func (l *lowerer) moduleRoot(root *yaml.Node) {
	if states := mapValue(root, "States"); root.Kind == yaml.MappingNode && states != nil && states.Kind == yaml.MappingNode {
		l.module(root, states)
	}
}

// module reads a module's Exports and links its states: one with neither
// Next nor End (nor an outcome label) goes on to the state after it in the file, the last one
// ends; a module without StartAt starts at its first export. It reports
// false for a document that is not a module.
func (l *lowerer) module(root, states *yaml.Node) (exports []*yaml.Node, isModule bool) {
	n, e := mapValue(root, "Module"), mapValue(root, "Exports")
	if n == nil || !l.Bool(n, "Module") {
		if e != nil {
			l.Diags.Errorf(l.Pos(e), "`Exports` belong to a module: add `\"Module\": true`")
		}
		return nil, false
	}
	if e != nil {
		for _, item := range l.Seq(e, "Exports") {
			name, ok := l.String(item, "an export")
			if ok && mapValue(states, name) == nil {
				l.Diags.Errorf(l.ContentPos(item), "export %q names no state of the module%s", name, didYouMean(name, stateNames(states)))
				continue
			}
			exports = append(exports, item)
		}
	}
	for i := 0; i+1 < len(states.Content); i += 2 {
		key, st := states.Content[i], states.Content[i+1]
		t := mapValue(st, "Type")
		if st.Kind != yaml.MappingNode || t == nil || !slices.Contains(stateFields[ir.ASLType(t.Value)], "Next") ||
			mapValue(st, "Next") != nil || mapValue(st, "End") != nil || hasLabel(st, usesJSONata(root) || usesJSONata(st)) {
			continue // an outcome label ends the module there
		}
		if i+2 < len(states.Content) {
			setNodeField(st, "Next", scalarAt(key, states.Content[i+2].Value, "!!str"))
		} else {
			setNodeField(st, "End", scalarAt(key, "true", "!!bool"))
		}
	}
	if mapValue(root, "StartAt") == nil && len(states.Content) > 0 {
		first := states.Content[0]
		if len(exports) > 0 {
			first = exports[0]
		}
		setNodeField(root, "StartAt", scalarAt(first, first.Value, "!!str"))
	}
	return exports, true
}

// enter starts the document at the Include's EntryPoint, which must be an
// export of a module or a state of a template, and ends it after its
// ExitPoint; a wrong one is reported in the including file, naming the
// imported one.
func (l *lowerer) enter(root, states *yaml.Node, exports []*yaml.Node, inc *inclusion, s *ir.State) {
	if inc.entry == nil && inc.exit == nil {
		return
	}
	what := quote(s.ASL.Include.Template) + " (its States at " + l.Pos(states).String() + ")"
	ok := true
	if n := inc.entry; n != nil {
		switch {
		case exports != nil && !slices.ContainsFunc(exports, func(e *yaml.Node) bool { return e.Value == n.Value }):
			l.Diags.Errorf(inc.parent.ContentPos(n), "unknown export %q: module %s exports %s%s",
				n.Value, what, strings.Join(nodeValues(exports), ", "), didYouMean(n.Value, nodeValues(exports)))
			ok = false
		case mapValue(states, n.Value) == nil:
			l.Diags.Errorf(inc.parent.ContentPos(n), "EntryPoint %q names no state of template %s%s", n.Value, what, didYouMean(n.Value, stateNames(states)))
			ok = false
		default:
			setNodeField(root, "StartAt", scalarAt(stateKey(states, n.Value), n.Value, "!!str"))
		}
	}
	n := inc.exit
	if n == nil || !ok {
		return
	}
	st := mapValue(states, n.Value)
	start := mapValue(root, "StartAt")
	switch {
	case st == nil:
		l.Diags.Errorf(inc.parent.ContentPos(n), "ExitPoint %q names no state of template %s%s", n.Value, what, didYouMean(n.Value, stateNames(states)))
	case mapValue(st, "Type") != nil && mapValue(st, "Type").Value == string(ir.ASLChoice):
		l.Diags.Errorf(inc.parent.ContentPos(n), "ExitPoint %q is a Choice state (at %s), which cannot end the include", n.Value, l.Pos(stateKey(states, n.Value)))
	case start != nil && !reachable(states, start.Value)[n.Value]:
		l.Diags.Errorf(inc.parent.ContentPos(n), "ExitPoint %q is not reached from %q in template %s", n.Value, start.Value, what)
	case mapValue(st, "Next") != nil:
		deleteField(st, "Next")
		setNodeField(st, "End", scalarAt(stateKey(states, n.Value), "true", "!!bool"))
	}
}

// override replaces fields of the template's states with the Include's
// (a Next drops the state's End and an End its Next). The grafted nodes
// keep the including file's positions.
func (l *lowerer) override(states *yaml.Node, inc *inclusion, s *ir.State) {
	for _, o := range inc.override {
		st := findState(states, o.Key.Value)
		if st == nil || st.Kind != yaml.MappingNode {
			l.Diags.Errorf(inc.parent.Pos(o.Key), "Override names no state of template %q (its States at %s)%s",
				s.ASL.Include.Template, l.Pos(states), didYouMean(o.Key.Value, stateNames(states)))
			continue
		}
		for i := 0; i+1 < len(o.Value.Content); i += 2 {
			k, v := o.Value.Content[i], o.Value.Content[i+1]
			switch k.Value {
			case "Next":
				deleteField(st, "End")
			case "End":
				deleteField(st, "Next")
			}
			l.graft(k, inc.parent)
			l.graft(v, inc.parent)
			deleteField(st, k.Value)
			st.Content = append(st.Content, k, v)
		}
	}
}

// findState finds a state by name among states and the states of their
// Parallel branches and Map iterators (names are unique in the machine).
func findState(states *yaml.Node, name string) *yaml.Node {
	if states == nil || states.Kind != yaml.MappingNode {
		return nil
	}
	if st := mapValue(states, name); st != nil {
		return st
	}
	for i := 1; i < len(states.Content); i += 2 {
		st := states.Content[i]
		if st.Kind != yaml.MappingNode {
			continue
		}
		var machines []*yaml.Node
		if b := mapValue(st, "Branches"); b != nil {
			machines = append(machines, b.Content...)
		}
		for _, k := range []string{"Iterator", "ItemProcessor"} {
			if m := mapValue(st, k); m != nil {
				machines = append(machines, m)
			}
		}
		for _, m := range machines {
			if m.Kind != yaml.MappingNode {
				continue
			}
			if found := findState(mapValue(m, "States"), name); found != nil {
				return found
			}
		}
	}
	return nil
}

// graft records n and what it holds as nodes of the document read by from.
func (l *lowerer) graft(n *yaml.Node, from *yamlx.Reader) {
	if l.Foreign == nil {
		l.Foreign = map[*yaml.Node]*yamlx.Reader{}
	}
	l.Foreign[n] = from
	for _, c := range n.Content {
		l.graft(c, from)
	}
}

// prune removes the states not reachable from start.
func prune(states *yaml.Node, start string) {
	keep := reachable(states, start)
	var content []*yaml.Node
	for i := 0; i+1 < len(states.Content); i += 2 {
		if keep[states.Content[i].Value] {
			content = append(content, states.Content[i], states.Content[i+1])
		}
	}
	states.Content = content
}

// reachable is the set of states that start leads to through Next,
// Default, choice rules and catchers.
func reachable(states *yaml.Node, start string) map[string]bool {
	seen := map[string]bool{}
	todo := []string{start}
	for len(todo) > 0 {
		name := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		st := mapValue(states, name)
		if seen[name] || st == nil || st.Kind != yaml.MappingNode {
			continue
		}
		seen[name] = true
		for _, k := range []string{"Next", "Default"} {
			if n := mapValue(st, k); n != nil {
				todo = append(todo, n.Value)
			}
		}
		for _, k := range []string{"Choices", "Catch"} {
			if list := mapValue(st, k); list != nil {
				for _, c := range list.Content {
					if c.Kind == yaml.MappingNode && mapValue(c, "Next") != nil {
						todo = append(todo, mapValue(c, "Next").Value)
					}
				}
			}
		}
	}
	return seen
}

func stateNames(states *yaml.Node) []string {
	var names []string
	for i := 0; i+1 < len(states.Content); i += 2 {
		names = append(names, states.Content[i].Value)
	}
	return names
}

func stateKey(states *yaml.Node, name string) *yaml.Node {
	for i := 0; i+1 < len(states.Content); i += 2 {
		if states.Content[i].Value == name {
			return states.Content[i]
		}
	}
	return nil
}

func nodeValues(ns []*yaml.Node) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = n.Value
	}
	return out
}

// scalarAt is a new scalar at the position of at.
func scalarAt(at *yaml.Node, value, tag string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: value, Line: at.Line, Column: at.Column}
}

// setNodeField sets key in the mapping n, replacing its value or adding it.
func setNodeField(n *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			n.Content[i+1] = v
			return
		}
	}
	n.Content = append(n.Content, scalarAt(v, key, "!!str"), v)
}

func deleteField(n *yaml.Node, key string) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			n.Content = append(n.Content[:i], n.Content[i+2:]...)
			return
		}
	}
}
