package asl

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/compiler/diag"
	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/ir"
)

// Workflow-level fields of the Agent State Language, and the fields its
// examples give states beyond the ones flowc acts on: they are checked
// (objects where the spec has objects) and documented as not acted on.
var (
	agentTopKeys  = []string{"Budget", "Memory", "Progress", "Parameters", "Imports", "DefaultTools", "Checkpointing"}
	agentTaskKeys = []string{"Cache", "Feedback", "Streaming", "Progress", "Events", "Audit", "Idempotency"}
)

func init() {
	topKeys = append(topKeys, agentTopKeys...)
	stateFields[ir.ASLTask] = append(stateFields[ir.ASLTask], agentTaskKeys...)
	stateFields[ir.ASLPass] = append(stateFields[ir.ASLPass], "Memory")
	stateFields[ir.ASLMap] = append(stateFields[ir.ASLMap], "Progress")
	stateFields[ir.ASLParallel] = append(stateFields[ir.ASLParallel], "Progress")
	stateFields[ir.ASLDebate] = append(stateFields[ir.ASLDebate], "Parameters")
	stateFields[ir.ASLApproval] = append(stateFields[ir.ASLApproval], "Prompt.$", "Editable")
	stateFields[ir.ASLFail] = append(stateFields[ir.ASLFail], "Error.$", "Cause.$")
	stateFields[ir.ASLInclude] = fieldsOf(ioFields, flowFields,
		[]string{"Template", "Parameters", "ResultPath", "ResultSelector", "Retry", "Catch"})
	stateFields[ir.ASLWorkflow] = fieldsOf(ioFields, flowFields,
		[]string{"WorkflowId", "Input", "Timeout", "ResultPath", "ResultSelector", "Retry", "Catch"})
	stateLowerers[ir.ASLInclude] = (*lowerer).include
	stateLowerers[ir.ASLWorkflow] = (*lowerer).workflowState
	typeNames = append(typeNames, string(ir.ASLInclude), string(ir.ASLWorkflow))
}

// workflowLevel reads the machine's Agent State Language fields. Budget
// limits every agent task; Imports name the sub-workflows of Include
// states.
func (l *lowerer) workflowLevel(m yamlx.Map) {
	if n := m.Get("Budget"); n != nil {
		l.runBudget = l.budgetLimits(n, true)
	}
	for _, k := range []string{"Memory", "Progress", "Checkpointing"} {
		if n := m.Get(k); n != nil {
			l.agentObject(n, k)
		}
	}
	if n := m.Get("DefaultTools"); n != nil {
		l.defaultTools, _ = l.agentObject(n, "DefaultTools").(map[string]any)
	}
	if n := m.Get("Imports"); n != nil && n.Kind != yaml.MappingNode {
		l.Diags.Errorf(l.Pos(n), "Imports must be an object of file paths by name")
	} else if n != nil {
		l.imports = map[string]*yaml.Node{}
		for _, e := range l.Pairs(n) {
			if _, ok := l.String(e.Value, "an import"); ok {
				l.imports[e.Key.Value] = e.Value
			}
		}
	}
}

// budgetLimits reads a Budget: MaxTokens a whole number, MaxCost a number
// or an amount such as "$5.00"; the workflow's may say OnExceed.
func (l *lowerer) budgetLimits(n *yaml.Node, workflow bool) *ir.Budget {
	if n.Kind != yaml.MappingNode {
		l.Diags.Errorf(l.Pos(n), "Budget must be an object")
		return nil
	}
	b := &ir.Budget{}
	for _, e := range l.Pairs(n) {
		switch e.Key.Value {
		case "MaxTokens":
			if workflow { // a task's numbers were checked with its other agent fields
				l.Int(e.Value, "Budget MaxTokens", 0, math.MaxInt32)
			}
			b.MaxTokens, _ = strconv.ParseFloat(e.Value.Value, 64)
		case "MaxCost":
			b.MaxCost = l.amount(e.Value, workflow)
		case "Fallback":
			b.Switches = l.modelSwitches(e, workflow)
		case "OnExceed":
			s, _ := l.String(e.Value, "OnExceed")
			b.Continue = s == "Continue"
			b.UseFallback = s == "UseFallback"
			if !workflow {
				l.Diags.Errorf(l.Pos(e.Key), "OnExceed belongs to the workflow's Budget")
			}
		}
	}
	return b
}

// amount reads a cost: a number, or a string such as "$5.00".
func (l *lowerer) amount(n *yaml.Node, check bool) float64 {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
		v, err := strconv.ParseFloat(strings.TrimPrefix(n.Value, "$"), 64)
		if err != nil || v < 0 {
			l.Diags.Errorf(l.ContentPos(n), "MaxCost must be an amount such as \"$5.00\", got %q", n.Value)
		}
		return v
	}
	if !check {
		v, _ := strconv.ParseFloat(n.Value, 64)
		return v
	}
	return l.Float(n, "MaxCost", 0, 1e18)
}

// include lowers an Include state. An import whose file is at hand is
// compiled into the state as a nested machine, its {{parameters}} set from
// the state's literal Parameters; any other (a URL, a registry, a missing
// file) is the handler named after the import, given the Parameters as its
// input.
func (l *lowerer) include(m yamlx.Map, s *ir.State) {
	s.Kind = ir.StateTask
	n := m.Get("Template")
	if n == nil {
		l.Diags.Errorf(s.Pos, "Include state %q needs a `Template` naming one of the Imports", s.ID)
		l.transition(m, s)
		return
	}
	name, _ := l.String(n, "Template")
	src, ok := l.imports[name]
	if !ok {
		l.Diags.Errorf(l.ContentPos(n), "unknown template %q: name it in the workflow's `Imports`", name)
	}
	s.ASL.Include = &ir.Include{Template: name}
	if ok {
		l.subWorkflow(s, src, m.Get("Parameters"))
		if s.ASL.Include.Inline {
			s.ASL.Parameters = nil // the template's parameters, not a payload
		}
	}
	l.transition(m, s)
}

// workflowState lowers a Workflow state: the nested workflow runs on Input
// (or the effective input), compiled in when the WorkflowId names one of
// the Imports, else as the handler named after the WorkflowId.
func (l *lowerer) workflowState(m yamlx.Map, s *ir.State) {
	s.Kind = ir.StateTask
	id := ""
	if n := m.Get("WorkflowId"); n != nil {
		id, _ = l.String(n, "WorkflowId")
	} else {
		l.Diags.Errorf(s.Pos, "Workflow state %q needs a `WorkflowId`", s.ID)
	}
	if n := m.Get("Input"); n != nil {
		s.ASL.Parameters = l.objectTemplate(n, "Input")
	}
	if n := m.Get("Timeout"); n != nil {
		s.Timeout = l.duration(n, "Timeout")
	}
	s.ASL.Include = &ir.Include{Template: id}
	if src, ok := l.imports[id]; ok { // a WorkflowId that names an import
		l.subWorkflow(s, src, nil)
	} else {
		s.Handler = l.handler("workflow\x00"+id, id, s.Pos)
	}
	l.transition(m, s)
}

// subWorkflow compiles the imported file src (relative to this one) into
// s, or makes s call the import's handler when the file is not at hand.
func (l *lowerer) subWorkflow(s *ir.State, src, params *yaml.Node) {
	a := s.ASL
	rel := src.Value
	file := rel
	if !filepath.IsAbs(file) {
		file = filepath.Join(filepath.Dir(l.File), rel)
	}
	data, err := os.ReadFile(file)
	if strings.Contains(rel, "://") || err != nil {
		if err != nil && !strings.Contains(rel, "://") {
			l.Diags.Warnf(l.ContentPos(src), "import %q: %v; Include states of it call the handler method instead", rel, err)
		}
		s.Handler = l.handler("include\x00"+a.Include.Template, a.Include.Template, s.Pos)
		return
	}
	if l.depth >= maxImportDepth {
		l.Diags.Errorf(s.Pos, "imports nest more than %d deep (an import cycle?)", maxImportDepth)
		return
	}
	l.lowerFile(file, data, "an imported workflow", l.includeValues(params), s)
}

// lowerFile compiles the definition data, read from file, into s.
func (l *lowerer) lowerFile(file string, data []byte, what string, values map[string]any, s *ir.State) {
	r := &yamlx.Reader{File: filepath.ToSlash(file)}
	root := r.Parse(data)
	if root != nil && !Detect(root) {
		r.Diags.Errorf(r.Pos(root), "%s needs `StartAt` and `States`", what)
		root = nil
	}
	l.Diags = append(l.Diags, l.lowerImport(r, root, values, s)...)
}

const maxImportDepth = 8

// lowerImport lowers an imported workflow with its own reader and state
// names into s.ASL.Branches, returning its diagnostics.
func (l *lowerer) lowerImport(r *yamlx.Reader, root *yaml.Node, values map[string]any, s *ir.State) diag.List {
	if root == nil {
		return r.Diags
	}
	saved, savedNames, savedJSONata := l.Reader, l.names, l.jsonata
	l.Reader, l.names = r, map[string]*ir.State{}
	l.depth++
	defer func() { l.Reader, l.names, l.jsonata = saved, savedNames, savedJSONata; l.depth-- }()
	l.substitute(root, values, s.Pos)
	m, ok := l.Mapping(root, "the imported workflow", append(append([]string{}, machineKeys...), "Version", "QueryLanguage", "TimeoutSeconds", "Parameters", "Imports", "Budget", "Memory", "Progress", "DefaultTools", "Checkpointing")...)
	if !ok {
		return r.Diags
	}
	l.jsonata = l.queryLanguage(m, false) // a document of its own: JSONPath unless it says otherwise
	savedImports := l.imports
	l.imports = nil
	l.workflowLevel(m)
	s.ASL.Include.Inline = true
	regions := len(l.w.Regions)
	sub := l.machine(m, l.Pos(root))
	prefixIDs(sub, s.ID+"/")
	prefixRegions(l.w.Regions[regions:], s.ID+"/")
	s.ASL.Branches = []*ir.Machine{sub}
	l.imports = savedImports
	l.region(s, ir.RegionParallel)
	return r.Diags
}

// includeValues are the template parameters an Include state sets: its
// literal Parameters (`key.$` members are run-time values, which a
// compiled-in template cannot take).
func (l *lowerer) includeValues(n *yaml.Node) map[string]any {
	values := map[string]any{}
	if n == nil {
		return values
	}
	if n.Kind != yaml.MappingNode {
		l.Diags.Errorf(l.Pos(n), "Parameters must be an object")
		return values
	}
	for _, e := range l.Pairs(n) {
		if strings.HasSuffix(e.Key.Value, ".$") {
			l.Diags.Errorf(l.Pos(e.Key), "template parameter %q: a compiled-in template takes literal parameters only", e.Key.Value)
			continue
		}
		values[e.Key.Value] = l.jsonValue(e.Value)
	}
	return values
}

// prefixIDs renames the states of a compiled-in template after the Include
// state, "Include/State", so that they stay apart from the including
// workflow's states (and from another Include of the same template).
func prefixIDs(m *ir.Machine, prefix string) {
	rename := func(r *ir.Ref) {
		if r != nil && r.ID != "" && r.ID != ir.EndID {
			r.ID = prefix + r.ID
		}
	}
	rename(&m.Start)
	for _, st := range m.States {
		st.ID = prefix + st.ID
		for _, c := range st.Catch {
			rename(&c.Next)
		}
		if t := st.Next; t != nil {
			rename(&t.To)
			for _, c := range t.Cases {
				rename(&c.To)
			}
			rename(t.Default)
		}
		for _, b := range st.ASL.Branches {
			prefixIDs(b, prefix)
		}
	}
}

// prefixRegions renames the states of the template's own Parallel and Map
// regions as prefixIDs renamed them.
func prefixRegions(regions []*ir.Region, prefix string) {
	rename := func(refs []ir.Ref) {
		for i := range refs {
			refs[i].ID = prefix + refs[i].ID
		}
	}
	for _, r := range regions {
		r.From = prefix + r.From
		rename(r.Body)
		for _, b := range r.Branches {
			rename(b)
		}
	}
}
