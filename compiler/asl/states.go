package asl

import (
	"math"
	"slices"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/compiler/diag"
	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/ir"
)

// Field sets, as AWS defines them per state type (plus the agent-native
// states and the agent fields of Task).
var (
	ioFields     = []string{"Type", "Comment", "QueryLanguage", "InputPath", "OutputPath"}
	flowFields   = []string{"Next", "End"}
	resultFields = []string{"Parameters", "ResultPath", "ResultSelector", "Retry", "Catch"}
	agentFields  = []string{"Memory", "Context", "Tools", "Budget", "Guardrails", "Reasoning"}
)

func fieldsOf(groups ...[]string) []string {
	var out []string
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

var stateFields = map[ir.ASLType][]string{
	ir.ASLTask: fieldsOf(ioFields, flowFields, resultFields, agentFields,
		[]string{"Resource", "Agent", "TimeoutSeconds", "TimeoutSecondsPath", "HeartbeatSeconds", "HeartbeatSecondsPath", "Credentials"}),
	ir.ASLPass:     fieldsOf(ioFields, flowFields, []string{"Parameters", "ResultPath", "Result"}),
	ir.ASLChoice:   fieldsOf(ioFields, []string{"Choices", "Default"}),
	ir.ASLWait:     fieldsOf(ioFields, flowFields, []string{"Seconds", "Timestamp", "SecondsPath", "TimestampPath"}),
	ir.ASLSucceed:  ioFields,
	ir.ASLFail:     {"Type", "Comment", "QueryLanguage", "Error", "Cause", "ErrorPath", "CausePath"},
	ir.ASLParallel: fieldsOf(ioFields, flowFields, resultFields, []string{"Branches"}),
	ir.ASLMap: fieldsOf(ioFields, flowFields, resultFields,
		[]string{"Iterator", "ItemProcessor", "ItemsPath", "ItemSelector", "MaxConcurrency", "MaxConcurrencyPath"}),
	ir.ASLApproval: fieldsOf(ioFields, flowFields,
		[]string{"Prompt", "Options", "Timeout", "Escalation", "ResultPath", "Choices", "Default"}),
	ir.ASLDebate: fieldsOf(ioFields, flowFields,
		[]string{"Agents", "Topic", "TopicPath", "Rounds", "Communication", "Consensus", "ResultPath"}),
	ir.ASLCheckpoint: fieldsOf(ioFields, flowFields, []string{"Name", "Storage", "TTL"}),
}

var typeNames = []string{"Task", "Pass", "Choice", "Wait", "Succeed", "Fail", "Map", "Parallel", "Approval", "Debate", "Checkpoint"}

func didYouMean(s string, candidates []string) string { return diag.DidYouMean(s, candidates) }

var stateLowerers map[ir.ASLType]func(*lowerer, yamlx.Map, *ir.State)

func init() {
	stateLowerers = map[ir.ASLType]func(*lowerer, yamlx.Map, *ir.State){
		ir.ASLTask:       (*lowerer).task,
		ir.ASLPass:       (*lowerer).pass,
		ir.ASLChoice:     (*lowerer).choice,
		ir.ASLWait:       (*lowerer).wait,
		ir.ASLSucceed:    func(_ *lowerer, _ yamlx.Map, s *ir.State) { terminal(s) },
		ir.ASLFail:       (*lowerer).fail,
		ir.ASLParallel:   (*lowerer).parallel,
		ir.ASLMap:        (*lowerer).mapState,
		ir.ASLApproval:   (*lowerer).approval,
		ir.ASLDebate:     (*lowerer).debate,
		ir.ASLCheckpoint: (*lowerer).checkpoint,
	}
}

func (l *lowerer) task(m yamlx.Map, s *ir.State) {
	a := s.ASL
	res, agent := m.Get("Resource"), m.Get("Agent")
	switch {
	case res != nil && agent != nil:
		l.Diags.Errorf(l.Pos(m.Entries["Agent"].Key), "Task state %q has both `Resource` and `Agent`; keep one", s.ID)
	case res == nil && agent == nil:
		l.Diags.Errorf(s.Pos, "Task state %q needs `Resource` (or `Agent` for an agent task)", s.ID)
	}
	if res != nil {
		a.Resource, _ = l.String(res, "Resource")
		if !l.startExecution(m, s, res) {
			s.Handler = l.handler("resource\x00"+a.Resource, resourceName(a.Resource), l.ContentPos(res))
		}
		l.httpTask(m, s)
		l.agentFieldsWithoutAgent(m, modelFields)
	} else if agent != nil {
		a.Agent = l.agent(m, agent)
		s.Handler = l.handler("agent\x00"+a.Agent.Name, a.Agent.Name, a.Agent.Pos)
		l.agentExtras(m, s)
	} else {
		l.agentFieldsWithoutAgent(m, slices.Concat(agentFields, modelFields))
	}
	if n := m.Get("TimeoutSeconds"); n != nil {
		if a.TimeoutExpr = l.expressionField(s, n); a.TimeoutExpr == nil {
			s.Timeout = time.Duration(l.Int(n, "TimeoutSeconds", 1, 99999999)) * time.Second
		}
	}
	if n := m.Get("TimeoutSecondsPath"); n != nil {
		a.TimeoutPath = l.path(n, "TimeoutSecondsPath", true, true)
	}
	if n := m.Get("HeartbeatSeconds"); n != nil {
		if a.HeartbeatExpr = l.expressionField(s, n); a.HeartbeatExpr == nil {
			a.Heartbeat = time.Duration(l.Int(n, "HeartbeatSeconds", 1, 99999999)) * time.Second
		}
	}
	if n := m.Get("HeartbeatSecondsPath"); n != nil {
		a.HeartbeatPath = l.path(n, "HeartbeatSecondsPath", true, true)
	}
	l.onlyOne(m, s, "TimeoutSeconds", "TimeoutSecondsPath")
	l.onlyOne(m, s, "HeartbeatSeconds", "HeartbeatSecondsPath")
	if n := m.Get("Credentials"); n != nil && n.Kind != yaml.MappingNode {
		l.Diags.Errorf(l.Pos(n), "Credentials must be an object (such as {\"RoleArn\": \"arn:aws:iam::...\"})")
	}
	l.transition(m, s)
}

// onlyOne reports a state that sets a field both statically and by path
// (TimeoutSeconds and TimeoutSecondsPath), at the second.
func (l *lowerer) onlyOne(m yamlx.Map, s *ir.State, static, path string) {
	if m.Has(static) && m.Has(path) {
		l.Diags.Errorf(l.Pos(m.Entries[path].Key), "%s state %q has both `%s` and `%s`; keep one", s.ASL.Type, s.ID, static, path)
	}
}

func (l *lowerer) pass(m yamlx.Map, s *ir.State) {
	if n := m.Get("Result"); n != nil {
		s.ASL.Result = l.literal(n)
	}
	l.memory(m, s)
	l.transition(m, s)
}

func (l *lowerer) wait(m yamlx.Map, s *ir.State) {
	w := &ir.Wait{}
	s.ASL.Wait = w
	set := 0
	if n := m.Get("Seconds"); n != nil {
		if s.ASL.SecondsExpr = l.expressionField(s, n); s.ASL.SecondsExpr == nil {
			v := float64(l.Int(n, "Seconds", 0, 99999999))
			w.Seconds = &v
		}
		set++
	}
	if n := m.Get("Timestamp"); n != nil {
		if s.ASL.TimestampExpr = l.expressionField(s, n); s.ASL.TimestampExpr == nil {
			w.Timestamp, _ = l.String(n, "Timestamp")
			if _, err := time.Parse(time.RFC3339Nano, w.Timestamp); err != nil {
				l.Diags.Errorf(l.ContentPos(n), "Timestamp %q is not an RFC 3339 timestamp such as 2026-01-02T15:04:05Z", w.Timestamp)
			}
		}
		set++
	}
	if n := m.Get("SecondsPath"); n != nil {
		w.SecondsPath = l.path(n, "SecondsPath", true, true)
		set++
	}
	if n := m.Get("TimestampPath"); n != nil {
		w.TimestampPath = l.path(n, "TimestampPath", true, true)
		set++
	}
	if set != 1 {
		l.Diags.Errorf(s.Pos, "Wait state %q needs exactly one of `Seconds`, `Timestamp`, `SecondsPath` and `TimestampPath`", s.ID)
	}
	l.transition(m, s)
}

func (l *lowerer) fail(m yamlx.Map, s *ir.State) {
	a := s.ASL
	if n := m.Get("Error"); n != nil {
		if a.ErrorExpr = l.expressionField(s, n); a.ErrorExpr == nil {
			a.Error, _ = l.String(n, "Error")
		}
	}
	if n := m.Get("Cause"); n != nil {
		if a.CauseExpr = l.expressionField(s, n); a.CauseExpr == nil {
			a.Cause, _ = l.String(n, "Cause")
		}
	}
	l.failDollar(m)
	if n := m.Get("ErrorPath"); n != nil {
		a.ErrorPath, a.ErrorCall = l.pathOrCall(n, "ErrorPath")
	}
	if n := m.Get("CausePath"); n != nil {
		a.CausePath, a.CauseCall = l.pathOrCall(n, "CausePath")
	}
	l.onlyOne(m, s, "Error", "ErrorPath")
	l.onlyOne(m, s, "Cause", "CausePath")
	terminal(s)
}

func (l *lowerer) parallel(m yamlx.Map, s *ir.State) {
	n := m.Get("Branches")
	if n == nil {
		l.Diags.Errorf(s.Pos, "Parallel state %q needs `Branches`", s.ID)
	} else {
		for _, b := range l.Seq(n, "Branches") {
			s.ASL.Branches = append(s.ASL.Branches, l.subMachine(b, "a branch"))
		}
		if n.Kind == yaml.SequenceNode && len(n.Content) == 0 {
			l.Diags.Errorf(l.Pos(n), "`Branches` needs at least one branch")
		}
	}
	l.region(s, ir.RegionParallel)
	l.transition(m, s)
}

func (l *lowerer) mapState(m yamlx.Map, s *ir.State) {
	a := s.ASL
	it, proc := m.Get("Iterator"), m.Get("ItemProcessor")
	switch {
	case it != nil && proc != nil:
		l.Diags.Errorf(l.Pos(m.Entries["ItemProcessor"].Key), "Map state %q has both `Iterator` and `ItemProcessor`; keep one", s.ID)
	case it != nil:
		a.Branches = []*ir.Machine{l.subMachine(it, "Iterator")}
	case proc != nil:
		a.Branches = []*ir.Machine{l.subMachine(proc, "ItemProcessor", "ProcessorConfig")}
		l.processorConfig(proc, s)
	default:
		l.Diags.Errorf(s.Pos, "Map state %q needs `ItemProcessor` (or `Iterator`)", s.ID)
	}
	sel, params := m.Get("ItemSelector"), m.Get("Parameters")
	if sel != nil && params != nil {
		l.Diags.Errorf(l.Pos(m.Entries["Parameters"].Key), "Map state %q has both `ItemSelector` and `Parameters`; keep `ItemSelector`", s.ID)
	}
	switch {
	case sel != nil && a.JSONata:
		a.Parameters = l.jsonataTemplate(sel)
	case sel != nil:
		a.Parameters = l.objectTemplate(sel, "ItemSelector")
	}
	if n := m.Get("Items"); n != nil && a.JSONata {
		a.Items = l.jsonataTemplate(n)
	}
	if n := m.Get("ItemsPath"); n != nil {
		a.ItemsPath = l.path(n, "ItemsPath", true, true)
	}
	if n := m.Get("MaxConcurrency"); n != nil {
		if a.ConcurrencyExpr = l.expressionField(s, n); a.ConcurrencyExpr == nil {
			a.MaxConcurrency = l.Int(n, "MaxConcurrency", 0, math.MaxInt32)
		}
	}
	if n := m.Get("MaxConcurrencyPath"); n != nil {
		a.MaxConcurrencyPath = l.path(n, "MaxConcurrencyPath", true, true)
	}
	l.onlyOne(m, s, "MaxConcurrency", "MaxConcurrencyPath")
	l.distributed(m, s)
	l.region(s, ir.RegionMap)
	l.transition(m, s)
}

// processorConfig reads the mode: INLINE, or DISTRIBUTED (distributed.go).
func (l *lowerer) processorConfig(n *yaml.Node, s *ir.State) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value != "ProcessorConfig" {
			continue
		}
		cfg, ok := l.Mapping(n.Content[i+1], "ProcessorConfig", "Mode", "ExecutionType")
		if !ok {
			return
		}
		if mode := cfg.Get("Mode"); mode != nil {
			switch v, ok := l.String(mode, "Mode"); {
			case !ok, v == "INLINE":
			case v == "DISTRIBUTED":
				s.ASL.Distributed = &ir.Distributed{}
			default:
				l.Diags.Errorf(l.ContentPos(mode), "ProcessorConfig Mode must be INLINE or DISTRIBUTED, got %q", v)
			}
		}
		if et := cfg.Get("ExecutionType"); et != nil {
			l.String(et, "ExecutionType")
		}
	}
}

// region records a Parallel or Map state's fan-out in the workflow.
func (l *lowerer) region(s *ir.State, kind ir.RegionKind) {
	r := &ir.Region{Pos: s.Pos, Kind: kind, From: s.ID, MaxConcurrency: s.ASL.MaxConcurrency}
	for _, b := range s.ASL.Branches {
		var refs []ir.Ref
		for _, st := range b.States {
			refs = append(refs, ir.Ref{Pos: st.Pos, ID: st.ID})
		}
		if kind == ir.RegionMap {
			r.Body = refs
		} else {
			r.Branches = append(r.Branches, refs)
		}
	}
	l.w.Regions = append(l.w.Regions, r)
}

func (l *lowerer) checkpoint(m yamlx.Map, s *ir.State) {
	if n := m.Get("Name"); n != nil {
		s.ASL.Checkpoint, _ = l.String(n, "Name")
	} else {
		l.Diags.Errorf(s.Pos, "Checkpoint state %q needs a `Name`", s.ID)
	}
	if n := m.Get("Storage"); n != nil {
		l.String(n, "Storage")
	}
	if n := m.Get("TTL"); n != nil {
		l.duration(n, "TTL")
	}
	l.transition(m, s)
}
