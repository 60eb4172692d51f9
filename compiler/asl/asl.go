// Package asl is the front-end for the Amazon/Agent States Language (JSON or
// YAML): a document with top-level `StartAt` and `States`. It lowers the
// state machine into the IR, compiling every path, payload template, choice
// rule and intrinsic call into a tree, and reports at their positions the
// problems AWS would reject: unknown fields, missing required fields,
// transitions, choice rules, retriers and catchers, paths and intrinsic
// calls. The shared checker then resolves the references, each machine as
// a scope of its own.
package asl

import (
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/internal/naming"
	"github.com/flowc-dev/flowc/ir"
)

// Suffixes are the names of States Language files.
var Suffixes = []string{".asl.json", ".asl.yaml"}

var (
	topKeys     = []string{"StartAt", "States", "Comment", "Version", "TimeoutSeconds", "QueryLanguage"}
	machineKeys = []string{"StartAt", "States", "Comment"}
)

// Detect reports whether a parsed document is a States Language machine.
func Detect(root *yaml.Node) bool {
	if root == nil || root.Kind != yaml.MappingNode {
		return false
	}
	found, module := 0, false
	for i := 0; i+1 < len(root.Content); i += 2 {
		switch root.Content[i].Value {
		case "StartAt", "States":
			found++
		case "Module": // an Agent State Language module may go without StartAt
			module = root.Content[i+1].Value == "true"
		}
	}
	return found == 2 || found == 1 && module && mapValue(root, "States") != nil
}

// Lower turns the root node of a state machine into a workflow named after
// stem, in Go package pkg.
func Lower(r *yamlx.Reader, root *yaml.Node, stem, pkg string) *ir.Workflow {
	l := &lowerer{Reader: r, names: map[string]*ir.State{}, handlers: map[string]*ir.Handler{}, assigned: map[string]bool{}}
	// The generated mock marks itself with this method (flowcrt.OrderedHandlers).
	l.methods.Reserve("OrderedValues")
	l.methods.Reserve(naming.VetMethods...) // go vet wants their standard signatures
	w := &ir.Workflow{Pos: r.Pos(root), ID: stem, Name: naming.Exported(stem), Package: pkg, Mode: ir.ModeASL}
	if w.Name == "" {
		w.Name = "StateMachine"
	}
	l.w = w
	l.substitute(root, nil, w.Pos)
	l.moduleRoot(root)
	l.checkAgentValues(root)
	m, ok := l.Mapping(root, "the state machine", topKeys...)
	if !ok {
		return w
	}
	l.jsonata = l.queryLanguage(m, false)
	l.workflowLevel(m)
	if n := m.Get("Comment"); n != nil {
		w.Description, _ = l.String(n, "Comment")
	}
	if n := m.Get("Version"); n != nil {
		l.String(n, "Version")
	}
	top := l.machine(m, l.Pos(root))
	if n := m.Get("TimeoutSeconds"); n != nil {
		l.Int(n, "TimeoutSeconds", 1, 99999999)
	}
	w.Start, w.States = top.Start, top.States
	l.checkExprs(true)
	l.checkVarPaths()
	return w
}

type lowerer struct {
	*yamlx.Reader
	w        *ir.Workflow
	names    map[string]*ir.State   // every state of the machine, by name
	goNames  naming.Namer           // state Go names
	methods  naming.Namer           // handler method names
	handlers map[string]*ir.Handler // by resource, agent or role key
	jsonata  bool                   // the state machine's QueryLanguage is JSONata

	// Agent State Language workflow-level fields (workflow.go).
	runBudget    *ir.Budget     // the workflow's Budget
	defaultTools map[string]any // the workflow's DefaultTools
	imports      *importScope   // Imports: file path by name
	depth        int            // how deep in imports the lowering is
	executions   []string       // the files compiling others in, outermost first

	constVariables map[*yaml.Node]bool // choice Variables a template parameter made constants (skills.go)

	exprs    []checkedExpr   // the JSONata expressions of the file being lowered (query.go)
	varPaths []*ir.Path      // the JSONPaths of the file being lowered that read a variable
	assigned map[string]bool // every variable an Assign of the definition sets
}

// machine lowers StartAt and States of a (sub-)machine; the checker
// resolves the references inside it.
func (l *lowerer) machine(m yamlx.Map, at ir.Pos) *ir.Machine {
	mc := &ir.Machine{Pos: at}
	if n := m.Get("StartAt"); n != nil {
		s, _ := l.String(n, "StartAt")
		mc.Start = ir.Ref{Pos: l.ContentPos(n), ID: s}
	} else {
		l.Diags.Errorf(at, "missing `StartAt`")
	}
	n := m.Get("States")
	if n == nil {
		l.Diags.Errorf(at, "missing `States`")
		return mc
	}
	if n.Kind != yaml.MappingNode {
		l.Diags.Errorf(l.Pos(n), "`States` must be an object of states by name")
		return mc
	}
	for _, e := range l.Pairs(n) {
		if s := l.state(e.Key, e.Value); s != nil {
			mc.States = append(mc.States, s)
		}
	}
	if len(mc.States) == 0 {
		l.Diags.Errorf(l.Pos(n), "`States` needs at least one state")
	}
	if m.Has("StartAt") {
		l.checkTransitions(mc, n, isModule(m))
	}
	return mc
}

// subMachine lowers a Parallel branch or a Map iterator.
func (l *lowerer) subMachine(n *yaml.Node, what string, extra ...string) *ir.Machine {
	m, ok := l.Mapping(n, what, append(append([]string{}, machineKeys...), extra...)...)
	if !ok {
		return &ir.Machine{Pos: l.Pos(n)}
	}
	return l.machine(m, l.Pos(n))
}

// state lowers one state; nil when it is not even an object.
func (l *lowerer) state(key, n *yaml.Node) *ir.State {
	name := key.Value
	s := &ir.State{Pos: l.Pos(key), ID: name, Kind: ir.StateTask, ASL: &ir.ASLState{}}
	terminal(s) // until its fields say where it goes
	s.GoName = l.goNames.Unique(name, "State")
	if len(name) == 0 || len([]rune(name)) > 80 {
		l.Diags.Errorf(s.Pos, "a state name must have 1 to 80 characters")
	}
	if prev := l.names[name]; prev != nil {
		l.Diags.Errorf(s.Pos, "state name %q already used at %s; names must be unique in the whole state machine", name, prev.Pos)
	} else {
		l.names[name] = s
	}
	if n.Kind != yaml.MappingNode {
		l.Diags.Errorf(l.Pos(n), "state %q must be an object", name)
		return nil
	}
	typ := l.stateType(n, s)
	fields, ok := stateFields[typ]
	if !ok {
		return s
	}
	s.ASL.Type = typ
	m, _ := l.Mapping(n, string(typ)+" state "+quote(name), fields...)
	l.common(m, s)
	stateLowerers[typ](l, m, s)
	return s
}

func (l *lowerer) stateType(n *yaml.Node, s *ir.State) ir.ASLType {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value != "Type" {
			continue
		}
		v := n.Content[i+1]
		t, ok := l.String(v, "Type")
		if !ok {
			return ""
		}
		if _, known := stateFields[ir.ASLType(t)]; !known {
			l.Diags.Errorf(l.ContentPos(v), "unknown state type %q%s", t, didYouMean(t, typeNames))
		}
		return ir.ASLType(t)
	}
	l.Diags.Errorf(s.Pos, "state %q needs a `Type`", s.ID)
	return ""
}

// common reads the fields most states share: Comment, the paths and the
// payload templates, Retry and Catch. The field lists have already kept
// out the ones a state type does not allow.
func (l *lowerer) common(m yamlx.Map, s *ir.State) {
	a := s.ASL
	l.queryCommon(m, s)
	if n := m.Get("Comment"); n != nil {
		a.Comment, _ = l.String(n, "Comment")
	}
	a.InputPath = l.pathField(m.Get("InputPath"), "InputPath", false)
	a.OutputPath = l.pathField(m.Get("OutputPath"), "OutputPath", false)
	a.ResultPath = l.pathField(m.Get("ResultPath"), "ResultPath", true)
	if n := m.Get("Parameters"); n != nil {
		a.Parameters = l.parameters(n, a.Type)
	}
	if n := m.Get("ResultSelector"); n != nil {
		a.ResultSelector = l.objectTemplate(n, "ResultSelector")
	}
	if n := m.Get("Retry"); n != nil {
		s.Retry = l.retriers(n)
	}
	if n := m.Get("Catch"); n != nil {
		l.catchers(n, s)
	}
}

// transition reads Next and End: exactly one of them.
func (l *lowerer) transition(m yamlx.Map, s *ir.State) {
	next, end := m.Get("Next"), m.Get("End")
	isEnd := end != nil && l.Bool(end, "End")
	switch {
	case next != nil && end != nil:
		l.Diags.Errorf(l.Pos(m.Entries["End"].Key), "state %q has both `Next` and `End`; keep one", s.ID)
	case next == nil && !isEnd && !outcomeLabel(m, s.ASL):
		l.Diags.Errorf(s.Pos, "state %q needs `Next` or `\"End\": true`", s.ID)
	}
	if next != nil {
		id, _ := l.String(next, "Next")
		s.Next = &ir.Transition{Pos: l.ContentPos(next), Kind: ir.TransGoto, To: ir.Ref{Pos: l.ContentPos(next), ID: id}}
		return
	}
	s.Next = &ir.Transition{Pos: s.Pos, Kind: ir.TransEnd}
}

// terminal marks Succeed and Fail, which end the run and allow neither Next
// nor End.
func terminal(s *ir.State) {
	s.Next = &ir.Transition{Pos: s.Pos, Kind: ir.TransEnd}
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }
