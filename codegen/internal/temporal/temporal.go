// Package temporal is the Temporal target: from a workflow's plan it
// writes the file that runs the native steps on Temporal.
package temporal

import (
	"bytes"
	"fmt"
	"go/format"
	"slices"
	"strconv"
	"strings"
	"text/template"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir/plan"
)

// The Temporal target writes, beside a workflow's file, a second file of
// the same package that runs the same steps on Temporal: a workflow
// function over the native Run whose handlers are activity calls, the
// activities over your handlers, and Register<Name>. The steps find the
// engine in their context (flowcrt.Engine) and run fan-outs, timers and
// timeouts on it; the Go they are written in does not change.

// flowtemporalPath is the import path of the Temporal support package, in a
// module of its own so that the SDK stays out of other programs.
const flowtemporalPath = "github.com/flowc-dev/flowc/temporal/flowtemporal"

// Target writes, beside a workflow's native file, the file that runs it on
// Temporal.
type Target struct{}

// Files writes the Temporal file; opts are those of the native file.
func (Target) Files(p *plan.Plan, opts emit.Options) ([]emit.File, error) {
	src, err := generate(p, opts.Source)
	if err != nil {
		return nil, err
	}
	return []emit.File{{Name: fileName(opts.FileName), Content: src}}, nil
}

// fileName is the name of the Temporal file of the workflow whose native
// file is flowFile ("triage_flow.go" -> "triage_temporal.go").
func fileName(flowFile string) string {
	return strings.TrimSuffix(strings.TrimSuffix(flowFile, ".go"), "_flow") + "_temporal.go"
}

// generate writes the Temporal file of the workflow of plan sh; source is
// the definition's path, for the header.
func generate(sh *plan.Plan, source string) ([]byte, error) {
	sigs := signaturesOf(sh)
	tw := temporalWorkflow{
		Source: emit.OneLine(source), Package: sh.Package, Name: sh.Names.Workflow, Handlers: sh.Names.Handlers,
		Lower: lowerFirst(sh.Names.Workflow), Run: sigs.run, Decoder: sigs.decoder,
	}
	for _, name := range sigs.more {
		m := sigs.methods[name]
		m.Decoder = tw.Decoder
		tw.Methods = append(tw.Methods, m)
	}
	for _, h := range sh.Handlers {
		m := sigs.methods[h.Name]
		m.Approval = h.Doc == ""
		m.Decoder = tw.Decoder
		m.ChainKind = emit.Imports{}.Ref(h.Kind)
		tw.Methods = append(tw.Methods, m)
	}
	if !slices.ContainsFunc(tw.Methods, func(m method) bool { return m.Approval }) && sh.Sessions != nil && sh.Sessions.Decides {
		// A stop for a decision with no approval handler is CodeMie's
		// interrupt_before, which asks an optional flowcrt.Approver as
		// approval states do.
		tw.Methods = append(tw.Methods, method{Name: "Approve", Approval: true})
	}
	tw.Imports = sigs.imports
	// A States Language handler takes its objects as plain maps unless it
	// asks for them ordered, as natively.
	tw.HandlerValues = sh.InputDecoder != nil && sh.InputDecoder.Name == "DecodeASLInput"
	tw.Reads, tw.Writes = sh.ItemReads, sh.ResultWrites
	tw.Marker = sh.Mock.Marker
	tw.Sessions, tw.At = !sh.StepLoop, emit.RuntimeAlias+".Checkpoint" // the others have Resume, which continuing as new needs
	if !tw.Sessions {
		tw.At, tw.Start, tw.IDs, tw.Step = "flowtemporal.ChainPoint", strconv.Quote(sh.Start.ID), sh.Names.IdsVar(), sh.Names.Step
	}
	if sh.Sessions != nil && sh.Sessions.SchemaConst != "" { // typed: its checkpoints keep the state's shape
		tw.Schema, tw.Start, tw.Update = sh.Sessions.SchemaConst, strconv.Quote(sh.Start.ID), sh.Names.Update
		tw.Workflow = strconv.Quote(sh.ID) // what the native sessions name their checkpoints by
	}
	var buf bytes.Buffer
	if err := temporalTemplate.Execute(&buf, &tw); err != nil {
		return nil, err
	}
	src := emit.DropUnusedImport(buf.Bytes(), emit.ImplAlias, plan.ImplPath)
	src = emit.DropUnusedImport(src, emit.ASLAlias, plan.ASLPath)
	src, err := format.Source(emit.DropUnusedImport(src, emit.ChainAlias, plan.ChainPath))
	if err != nil {
		return nil, fmt.Errorf("flowc generated invalid Go (a bug in flowc, please report it): %v", err)
	}
	return src, nil
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

type temporalWorkflow struct {
	Source, Package, Name, Handlers string
	Workflow                        string // the workflow's id, quoted: its checkpoints carry it
	Lower                           string
	Imports                         []emit.Import
	Run                             method
	Decoder                         string // the dialect's input decoder, for an `any` input
	HandlerValues                   bool   // a decoded value reaches a handler through flowtemporal.HandlerValue
	Methods                         []method
	Marker                          string // the mock's marker method
	Sessions                        bool   // the workflow runs as a session (a task chain does not)
	At                              string // where a run that continues as new goes on: the resume workflow's input
	IDs, Step                       string // a task chain's table of task ids and its step type
	Schema, Start                   string // typed mode: the schema constant and the start state's id, quoted
	Update                          string // typed mode: the update type new input decodes into
	Reads, Writes                   bool   // a distributed Map has an ItemReader, a ResultWriter
}

// HasActivities: the workflow runs activities, so Register registers them.
func (t *temporalWorkflow) HasActivities() bool { return len(t.Methods) > 0 || t.Reads || t.Writes }

func (t *temporalWorkflow) Fn() string         { return t.Lower + "Workflow" }
func (t *temporalWorkflow) Calls() string      { return t.Lower + "ActivityCalls" }
func (t *temporalWorkflow) Activities() string { return t.Lower + "Activities" }

// MockCalls are the activity calls of a run over mocks: with the mock's
// marker method, when it has one.
func (t *temporalWorkflow) MockCalls() string {
	if t.Marker != "" {
		return t.Lower + "MockCalls{}"
	}
	return t.Calls() + "{}"
}

// In is the workflow function's input type: an `any` input crosses
// Temporal as JSON and is decoded as the native runner decodes it.
func (t *temporalWorkflow) In() string {
	if t.Decoder != "" {
		return "json.RawMessage"
	}
	return t.Run.Params[0].Type
}

var temporalTemplate = template.Must(template.New("temporal").Parse(`// Code generated by flowc. DO NOT EDIT.
{{- if .Source}}
// source: {{.Source}}
{{- end}}

package {{.Package}}

import (
{{- range .Imports}}
{{- if .Gap}}
{{end}}
	{{.Name}} {{printf "%q" .Path}}
{{- end}}
)

// {{.Name}}WorkflowName is the name {{.Name}}Workflow is registered under; its activities are
// "{{.Name}}.<handler method>".
const {{.Name}}WorkflowName = "{{.Name}}"

// {{.Name}}Workflow runs {{.Name}} on Temporal: the steps of (*{{.Name}}).Run, each handler call an
// activity, fan-outs on workflow coroutines, waits and retry intervals on durable timers, and
// approvals answered by the signal flowtemporal.SignalDecision (flowtemporal.QueryPending lists
// them meanwhile).
func {{.Name}}Workflow(ctx workflow.Context, in {{.In}}) ({{.Run.Result}}, error) {
	return {{.Fn}}(ctx, in, {{.Calls}}{})
}


// {{.Fn}} runs {{.Name}} on Temporal over h, the activity calls.
{{- if .Schema}}
func {{.Fn}}(ctx workflow.Context, in {{.In}}, h {{.Handlers}}) ({{.Run.Result}}, error) {
	cp, err := flowtemporal.Start(ctx, {{.Workflow}}, {{.Schema}}, {{.Start}}, in)
	if err != nil {
		return in, err
	}
	return {{.Lower}}Resume(ctx, cp, h)
}
{{- else if .Sessions}}
func {{.Fn}}(ctx workflow.Context, in {{.In}}, h {{.Handlers}}) (out {{.Run.Result}}, err error) {
	err = flowtemporal.RunSession(ctx, {{.Name}}WorkflowName, nil, func(ctx context.Context, session string, opts ...flowcrt.Option) error {
		return {{.Lower}}Invoke(ctx, h, &out, session, in, opts)
	}, func(ctx context.Context, session string, input json.RawMessage, opts ...flowcrt.Option) error {
		return {{.Lower}}Invoke(ctx, h, &out, session, input, opts)
	})
	return out, err
}
{{- else}}
func {{.Fn}}(ctx workflow.Context, in {{.In}}, h {{.Handlers}}) (flowcrt.ChainState, error) {
	return {{.Lower}}Resume(ctx, flowtemporal.ChainPoint{Task: {{.Start}}, Start: in}, h)
}
{{- end}}
{{- if .Sessions}}

// {{.Lower}}Resume runs {{.Name}} from checkpoint cp, as a session kept in the workflow; a long run
// continues as new, as "{{.Name}}.resume", from its last checkpoint.
func {{.Lower}}Resume(ctx workflow.Context, cp flowcrt.Checkpoint, h {{.Handlers}}) (out {{.Run.Result}}, err error) {
{{- if .Schema}}
	// Each attempt of a step is one activity call: retry rules may be RetryPolicies.
	ctx = flowtemporal.WithRetryPolicies(ctx)
{{- end}}
	err = flowtemporal.RunSession(ctx, {{.Name}}WorkflowName, &cp, func(ctx context.Context, session string, opts ...flowcrt.Option) error {
		out, err = New{{.Name}}(h, opts...).Resume(ctx, session)
		return err
	}, func(ctx context.Context, session string, input json.RawMessage, opts ...flowcrt.Option) error {
		return {{.Lower}}Invoke(ctx, h, &out, session, input, opts)
	})
	return out, err
}

// {{.Lower}}Invoke runs session on new input, JSON, as (*{{.Name}}).Invoke{{if .Update}}Update{{end}} does, into out.
func {{.Lower}}Invoke(ctx context.Context, h {{.Handlers}}, out *{{.Run.Result}}, session string, input json.RawMessage, opts []flowcrt.Option) error {
{{- if .Update}}
	var u {{.Update}}
	if err := flowtemporal.DecodeInput(input, &u); err != nil {
		return err
	}
	res, err := New{{.Name}}(h, opts...).InvokeUpdate(ctx, session, u)
{{- else}}
	in, err := {{.Decoder}}(input)
	if err != nil {
		return err
	}
	res, err := New{{.Name}}(h, opts...).Invoke(ctx, session, in)
{{- end}}
	*out = res
	return err
}
{{- else}}

// {{.Lower}}Resume runs {{.Name}} on Temporal from task at.Task, on at's state; a long run
// continues as new, as "{{.Name}}.resume", between two tasks.
func {{.Lower}}Resume(ctx workflow.Context, at flowtemporal.ChainPoint, h {{.Handlers}}) (s flowcrt.ChainState, err error) {
	err = flowtemporal.RunChain(ctx, {{.Name}}WorkflowName, at, {{.IDs}}[:], &s, func(ctx context.Context, step int, opts ...flowcrt.Option) error {
		return New{{.Name}}(h, opts...).run(ctx, &s, {{.Step}}(step))
	})
	return s, err
}
{{- end}}

// Register{{.Name}} registers {{.Name}}Workflow with r, and h as its activities, under stable
// names: a worker runs the workflow with them.
func Register{{.Name}}(r worker.Registry, h {{.Handlers}}) {
	r.RegisterWorkflowWithOptions({{.Name}}Workflow, workflow.RegisterOptions{Name: {{.Name}}WorkflowName})
	r.RegisterWorkflowWithOptions(func(ctx workflow.Context, at {{.At}}) ({{.Run.Result}}, error) {
		return {{.Lower}}Resume(ctx, at, {{.Calls}}{})
	}, workflow.RegisterOptions{Name: {{.Name}}WorkflowName + flowtemporal.ResumeSuffix})
{{- if .HasActivities}}
	r.RegisterActivityWithOptions(&{{.Activities}}{h}, activity.RegisterOptions{Name: {{.Name}}WorkflowName + "."})
{{- else}}
	_ = h // no state calls a handler
{{- end}}
}

// Register{{.Name}}Mock registers {{.Name}}Workflow over mocks, for tests and ` + "`flowc run --engine temporal`" + `:
// its fan-outs run their items one at a time, so that the mocks answer each state's calls in the
// order New{{.Name}}Mock's run makes them.
{{- if .Marker}} Its activity calls tell the steps what the mock tells them ({{.Marker}}).
{{- end}}
func Register{{.Name}}Mock(r worker.Registry, mocks *flowcrun.Mocks) {
	r.RegisterWorkflowWithOptions(func(ctx workflow.Context, in {{.In}}) ({{.Run.Result}}, error) {
		return {{.Fn}}(flowtemporal.InOrder(ctx), in, {{.MockCalls}})
	}, workflow.RegisterOptions{Name: {{.Name}}WorkflowName})
	r.RegisterWorkflowWithOptions(func(ctx workflow.Context, at {{.At}}) ({{.Run.Result}}, error) {
		return {{.Lower}}Resume(flowtemporal.InOrder(ctx), at, {{.MockCalls}})
	}, workflow.RegisterOptions{Name: {{.Name}}WorkflowName + flowtemporal.ResumeSuffix})
{{- if .HasActivities}}
	r.RegisterActivityWithOptions(&{{.Activities}}{New{{.Name}}MockHandlers(mocks)}, activity.RegisterOptions{Name: {{.Name}}WorkflowName + "."})
{{- end}}
}
{{- if .Marker}}

// {{.Lower}}MockCalls are the activity calls of a run over mocks.
type {{.Lower}}MockCalls struct{ {{.Calls}} }

func ({{.Lower}}MockCalls) {{.Marker}}() {}
{{- end}}

// {{.Calls}} are the handlers inside the workflow: each call runs an activity.
type {{.Calls}} struct{}
{{range .Methods}}{{$m := .}}
{{- if .Approval}}
func ({{$.Calls}}) {{.Name}}(ctx context.Context, req flowcrt.ApprovalRequest) (string, error) {
	return flowtemporal.Approve(ctx, {{$.Name}}WorkflowName+".{{.Name}}", req)
}
{{- else}}
func ({{$.Calls}}) {{.Name}}({{.ParamList}}) ({{.NamedResults}}) {
{{- if .Wrapped}}
	var r {{$.Activities}}{{.Name}}
	err = flowtemporal.Execute(ctx, {{$.Name}}WorkflowName+".{{.Name}}", &r, {{.Args}})
	return {{.Unwrap}}, err
{{- else if .AnyResult}}
	var raw json.RawMessage
	if err = flowtemporal.Execute(ctx, {{$.Name}}WorkflowName+".{{.Name}}", &raw, {{.Args}}); err != nil {
		return nil, err
	}
	return {{.Decoder}}(raw)
{{- else if .Results}}
	err = flowtemporal.Execute(ctx, {{$.Name}}WorkflowName+".{{.Name}}", &r0, {{.Args}})
	return r0, err
{{- else}}
	return flowtemporal.Execute(ctx, {{$.Name}}WorkflowName+".{{.Name}}", nil, {{.Args}})
{{- end}}
}
{{- end}}
{{end}}
{{- if .Reads}}
// ReadItems reads the items of a distributed Map in pages, each an activity.
func ({{.Calls}}) ReadItems(ctx context.Context, req flowcasl.ItemReadRequest, yield func(any) error) error {
	return flowtemporal.ReadItems(ctx, {{.Name}}WorkflowName+".ReadItems", req, yield)
}
{{end}}
{{- if .Writes}}
// OpenResults, WriteResults and CloseResults take a distributed Map's results to activities.
func ({{.Calls}}) OpenResults(ctx context.Context, req flowcrt.ResultWriteRequest) (bool, error) {
	return flowtemporal.Results{Activity: {{.Name}}WorkflowName + ".Results"}.OpenResults(ctx, req)
}

func ({{.Calls}}) WriteResults(ctx context.Context, req flowcrt.ResultWriteRequest, r flowcrt.ChildResult) error {
	return flowtemporal.Results{Activity: {{.Name}}WorkflowName + ".Results"}.WriteResults(ctx, req, r)
}

func ({{.Calls}}) CloseResults(ctx context.Context, req flowcrt.ResultWriteRequest) error {
	return flowtemporal.Results{Activity: {{.Name}}WorkflowName + ".Results"}.CloseResults(ctx, req)
}
{{end}}
// {{.Activities}} are the activities of {{.Name}}Workflow: your handlers, told their state and
// with a panic turned into a task failure, as in the native engine.
type {{.Activities}} struct{ h {{.Handlers}} }
{{range .Methods}}{{$m := .}}
{{- if .Approval}}
func (a {{$.Activities}}) {{.Name}}(ctx context.Context, req flowcrt.ApprovalRequest) (string, error) {
	return flowtemporal.ApproveActivity(ctx, a.h, req)
}
{{- else if .Wrapped}}
// {{$.Activities}}{{.Name}} carries the results of {{.Name}}: an activity returns one value.
type {{$.Activities}}{{.Name}} struct {
{{- range $i, $r := .Results}}
	R{{$i}} {{$r}}
{{- end}}
}

func (a {{$.Activities}}) {{.Name}}({{.ParamList}}) (r {{$.Activities}}{{.Name}}, err error) {
	ctx = flowtemporal.ActivityContext(ctx)
	defer flowtemporal.Finish(ctx, &err)
	{{.Wrap}} = a.h.{{.Name}}({{.CtxArgs}})
	return r, err
}
{{- else}}
func (a {{$.Activities}}) {{.Name}}({{.ActivityParamList}}) ({{.NamedResults}}) {
	ctx = flowtemporal.ActivityContext(ctx)
	defer flowtemporal.Finish(ctx, &err)
{{- if .ChainKind}}
	call.ChainCall = flowcchain.ChainCallOfKind(call.ChainCall, {{.ChainKind}})
{{- end}}
{{- range .Params}}{{if and (eq .Type "any") $.Decoder}}
	{{.Name}}, err := {{$.Decoder}}({{.Name}}JSON)
	if err != nil {
		return {{$m.ZeroResults}}err
	}
{{- if $.HandlerValues}}
	{{.Name}} = flowtemporal.HandlerValue(a.h, {{.Name}})
{{- end}}
{{- end}}{{end}}
	return a.h.{{.Name}}({{.CtxArgs}})
}
{{- end}}
{{end}}
{{- if .Reads}}
// ReadItems reads a page of a distributed Map's items with your ItemReader, or the built-in one.
func (a {{.Activities}}) ReadItems(ctx context.Context, req flowcasl.ItemReadRequest, from int) (flowtemporal.ItemPage, error) {
	return flowtemporal.ReadItemsActivity(ctx, a.h, req, from)
}
{{end}}
{{- if .Writes}}
// Results writes a distributed Map's results with your ResultWriter, or the built-in one.
func (a {{.Activities}}) Results(ctx context.Context, c flowtemporal.ResultsCall) (bool, error) {
	return flowtemporal.ResultsActivity(ctx, a.h, c)
}
{{end}}
`))

// method is a handler method's signature, as Go text.
type method struct {
	Decoder  string // how a value of type any is decoded; "" when none is
	Name     string
	Params   []param // after ctx
	Results  []string
	Approval bool
	// ChainKind is a task-chain handler's kind, the runtime constant as
	// the file spells it (flowcchain.KindChatCompletion...), or "".
	ChainKind string
}

type param struct{ Name, Type string }

func (m method) ParamList() string {
	out := []string{"ctx context.Context"}
	for _, p := range m.Params {
		out = append(out, p.Name+" "+p.Type)
	}
	return strings.Join(out, ", ")
}

// Args are the parameters after ctx, as arguments.
func (m method) Args() string {
	var out []string
	for _, p := range m.Params {
		out = append(out, p.Name)
	}
	return strings.Join(out, ", ")
}

func (m method) CtxArgs() string {
	out := []string{"ctx"}
	for _, p := range m.Params {
		out = append(out, p.Name)
	}
	return strings.Join(out, ", ")
}

// ActivityParamList is ParamList with values of type any as JSON, which the
// activity decodes as the native runtime represents them.
func (m method) ActivityParamList() string {
	out := []string{"ctx context.Context"}
	for _, p := range m.Params {
		if p.Type == "any" && m.Decoder != "" {
			out = append(out, p.Name+"JSON json.RawMessage")
		} else {
			out = append(out, p.Name+" "+p.Type)
		}
	}
	return strings.Join(out, ", ")
}

func (m method) AnyResult() bool {
	return m.Decoder != "" && len(m.Results) == 1 && m.Results[0] == "any"
}

// ZeroResults are the results of a failed call before its error.
func (m method) ZeroResults() string {
	var out strings.Builder
	for i := range m.Results {
		fmt.Fprintf(&out, "r%d, ", i)
	}
	return out.String()
}

func (m method) Wrapped() bool { return len(m.Results) > 1 }

// Result is the first result's type, for Run.
func (m method) Result() string { return m.Results[0] }

func (m method) NamedResults() string {
	var out []string
	for i, r := range m.Results {
		out = append(out, fmt.Sprintf("r%d %s", i, r))
	}
	return strings.Join(append(out, "err error"), ", ")
}

// Wrap assigns a handler's results to the fields of r, and err.
func (m method) Wrap() string {
	var out []string
	for i := range m.Results {
		out = append(out, fmt.Sprintf("r.R%d", i))
	}
	return strings.Join(append(out, "err"), ", ")
}

func (m method) Unwrap() string {
	var out []string
	for i := range m.Results {
		out = append(out, fmt.Sprintf("r.R%d", i))
	}
	return strings.Join(out, ", ")
}
