package asl

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/compiler/diag"
	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/ir"
)

// Workflow-level fields of the Agent State Language, and the fields its
// examples give states beyond the ones flowc acts on: they are checked
// (objects where the spec has objects) and documented as not acted on.
var (
	agentTopKeys  = []string{"Budget", "Memory", "Progress", "Parameters", "Imports", "HandlerImports", "DefaultTools", "Checkpointing", "Module", "Exports", "_lock"}
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
		[]string{"Template", "Parameters", "ResultPath", "ResultSelector", "Retry", "Catch", "EntryPoint", "ExitPoint", "Override"})
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
	l.readImports(m.Get("Imports"), m.Get("HandlerImports"), m.Get("_lock"))
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
// the state's Parameters, entered at its EntryPoint, left after its
// ExitPoint, with its Override applied (modules.go); a URL, or an import
// named in HandlerImports, is the handler named after the import, given
// the Parameters as its input.
func (l *lowerer) include(m yamlx.Map, s *ir.State) {
	s.Kind = ir.StateTask
	n := m.Get("Template")
	if n == nil {
		l.Diags.Errorf(s.Pos, "Include state %q needs a `Template` naming one of the Imports", s.ID)
		l.transition(m, s)
		return
	}
	name, _ := l.String(n, "Template")
	src, base, ok := l.lookupImport(name)
	if !ok {
		l.Diags.Errorf(l.ContentPos(n), "unknown template %q: name it in the workflow's `Imports`", name)
	}
	s.ASL.Include = &ir.Include{Template: name}
	if ok {
		inc := &inclusion{parent: l.Reader, entry: l.pointField(m, "EntryPoint"), exit: l.pointField(m, "ExitPoint"),
			override: l.overrides(m.Get("Override"))}
		inc.params, s.ASL.Include.Params = l.includeValues(m.Get("Parameters"), s.ASL.Parameters)
		l.subWorkflow(s, src, base, l.ContentPos(n), inc)
		if s.ASL.Include.Inline {
			s.ASL.Parameters = nil // the template's parameters, not a payload
		} else {
			s.ASL.Include.Params = nil
		}
	}
	l.transition(m, s)
}

// workflowState lowers a Workflow state: the nested workflow runs on Input
// (or the effective input), compiled in when the WorkflowId names one of
// the Imports (of this workflow or of the ones including it) or a
// definition <WorkflowId>.asl.json beside this file, else as the handler
// named after the WorkflowId.
func (l *lowerer) workflowState(m yamlx.Map, s *ir.State) {
	s.Kind = ir.StateTask
	id, at := "", s.Pos
	if n := m.Get("WorkflowId"); n != nil {
		id, _ = l.String(n, "WorkflowId")
		at = l.ContentPos(n)
	} else {
		l.Diags.Errorf(s.Pos, "Workflow state %q needs a `WorkflowId`", s.ID)
	}
	if n := m.Get("Input"); n != nil {
		s.ASL.Parameters = l.objectTemplate(n, "Input")
	}
	if n := m.Get("Timeout"); n != nil {
		s.Timeout = l.workflowTimeout(n)
	}
	s.ASL.Include = &ir.Include{Template: id}
	if src, base, ok := l.lookupImport(id); ok {
		l.subWorkflow(s, src, base, at, &inclusion{})
	} else if file := l.boundDefinition(id); file != "" {
		l.compileIn(s, file, at, "workflow", &inclusion{})
	} else {
		s.Handler = l.handler("workflow\x00"+id, id, s.Pos)
	}
	l.transition(m, s)
}

// workflowTimeout reads a Workflow state's Timeout: a duration ("30s",
// "5m", "7d"), or a number of seconds.
func (l *lowerer) workflowTimeout(n *yaml.Node) time.Duration {
	if secs, err := strconv.ParseUint(n.Value, 10, 31); err == nil && n.Kind == yaml.ScalarNode {
		return time.Duration(secs) * time.Second
	}
	return l.duration(n, "Timeout")
}

// compileIn compiles the definition in file into s, unless that closes a
// cycle of definitions compiling each other in (an error at at, naming the
// files).
func (l *lowerer) compileIn(s *ir.State, file string, at ir.Pos, what string, inc *inclusion) {
	if cycle := l.executionCycle(file); cycle != "" {
		l.Diags.Errorf(at, "%s cycle: %s", what, cycle)
		return
	}
	if l.depth >= maxImportDepth {
		l.Diags.Errorf(at, "definitions compiled into each other nest more than %d deep", maxImportDepth)
		return
	}
	data, err := os.ReadFile(file)
	if err != nil {
		l.Diags.Errorf(at, "%s: %v", what, err)
		return
	}
	r := &yamlx.Reader{File: filepath.ToSlash(file)}
	root, notJSON := r.ParseSource(data)
	if notJSON != nil && root != nil && Detect(root) { // AWS takes JSON alone
		notJSON.Report(r)
		root = nil
	}
	if root != nil && !Detect(root) {
		r.Diags.Errorf(r.Pos(root), "the %s needs `StartAt` and `States` (or `\"Module\": true` and `States`)", what)
		root = nil
	}
	l.executions = append(l.executions, l.File)
	l.Diags = append(l.Diags, l.lowerImport(r, root, inc, s)...)
	l.executions = l.executions[:len(l.executions)-1]
}

const maxImportDepth = 16

// lowerImport lowers an imported workflow with its own reader and state
// names into s.ASL.Branches, returning its diagnostics.
func (l *lowerer) lowerImport(r *yamlx.Reader, root *yaml.Node, inc *inclusion, s *ir.State) diag.List {
	if root == nil {
		return r.Diags
	}
	// The template's own workflow-level fields hold for its states only.
	saved, savedNames, savedImports, savedJSONata := l.Reader, l.names, l.imports, l.jsonata
	savedBudget, savedTools, savedExprs, savedVarPaths := l.runBudget, l.defaultTools, l.exprs, l.varPaths
	l.Reader, l.names, l.exprs, l.varPaths = r, map[string]*ir.State{}, nil, nil
	l.depth++
	defer func() {
		l.Reader, l.names, l.imports, l.jsonata = saved, savedNames, savedImports, savedJSONata
		l.runBudget, l.defaultTools, l.exprs, l.varPaths = savedBudget, savedTools, savedExprs, savedVarPaths
		l.depth--
	}()
	if inc.params == nil {
		inc.params = &given{}
	}
	l.substitute(root, inc.params, s.Pos)
	s.ASL.Include.Checks = inc.params.checks
	l.compose(root, inc, s)
	l.checkAgentValues(root)
	m, ok := l.Mapping(root, "the imported workflow", topKeys...)
	if !ok {
		return r.Diags
	}
	l.jsonata = l.queryLanguage(m, false)
	l.workflowLevel(m)
	s.ASL.Include.Inline = true
	regions := len(l.w.Regions)
	sub := l.machine(m, l.Pos(root))
	prefixIDs(sub, s.ID+"/")
	prefixRegions(l.w.Regions[regions:], s.ID+"/")
	s.ASL.Branches = []*ir.Machine{sub}
	l.region(s, ir.RegionParallel)
	// The variables the importing file assigns are not all known yet.
	l.checkExprs(false)
	return r.Diags
}

// includeValues are the template parameters an Include state sets: its
// literal Parameters, and its `key.$` ones, known at run time, as the
// part of the state's Parameters template (p) that computes them from its
// effective input.
func (l *lowerer) includeValues(n *yaml.Node, p *ir.Template) (*given, *ir.Template) {
	g := &given{values: map[string]any{}, runtime: map[string]bool{}, at: map[string]ir.Pos{}}
	if n == nil || n.Kind != yaml.MappingNode || p == nil {
		return g, nil // not an object: reported with the state's Parameters
	}
	for _, e := range l.Pairs(n) {
		name, isPath := strings.CutSuffix(e.Key.Value, ".$")
		g.at[name] = l.Pos(e.Key)
		if isPath {
			g.runtime[name] = true
		} else {
			g.values[name] = l.jsonValue(e.Value)
		}
	}
	dynamic := &ir.Template{Pos: p.Pos, Kind: p.Kind}
	for _, f := range p.Fields {
		if g.runtime[f.Key] {
			dynamic.Fields = append(dynamic.Fields, f)
		}
	}
	if len(dynamic.Fields) == 0 {
		return g, nil
	}
	return g, dynamic
}

// prefixIDs renames the states of a compiled-in template after the Include
// state, "Include/State", so that they stay apart from the including
// workflow's states (and from another Include of the same template).
func prefixIDs(m *ir.Machine, prefix string) {
	rename := func(r *ir.Ref) {
		if r != nil && r.ID != "" {
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
