package jsonmode

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/internal/naming"
	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
)

// The CodeMie configuration of a JSON-mode workflow: one package variable
// per assistant, tool and custom node, decoded from the JSON the compiler
// checked; the workflow-level settings; and each state's CodeMie fields of
// its flowcrt.JSONTask.

// codemieVars names the package variables of the configuration.
type codemieVars struct {
	settings string
	configs  map[string]string // by list and id: "assistants/analyst"
}

// codemieDecls names and declares the configuration's variables.
func (g *jsonGen) codemieDecls(f *jen.File) {
	cm := g.w.CodeMie
	if cm == nil {
		return
	}
	g.cm = &codemieVars{settings: g.ids.Fresh(g.n.Prefix + "Settings"), configs: map[string]string{}}
	f.Line()
	f.Comment("The workflow's settings and its assistants, tools and custom nodes, as its definition configures them.")
	for _, st := range cm.Settings {
		f.Add(emit.Comment(st.Key + ": " + st.Value))
	}
	f.Var().DefsFunc(func(d *jen.Group) {
		d.Id(g.cm.settings).Op("=").Op("&").Add(js("JSONSettings")).Add(g.settingsValues())
		for _, list := range []struct {
			name, suffix, typ string
			configs           map[string]*ir.Config
		}{{"assistants", "Assistant", "JSONAssistant", cm.Assistants}, {"tools", "Tool", "JSONTool", cm.Tools}, {"custom_nodes", "Node", "JSONCustomNode", cm.CustomNodes}} {
			for _, id := range sortedIDs(list.configs) {
				v := g.ids.Fresh(g.n.Prefix + naming.Exported(id) + list.suffix)
				g.cm.configs[list.name+"/"+id] = v
				d.Id(v).Op("=").Add(js("DecodeConfig")).Types(js(list.typ)).Call(rawLit(list.configs[id].JSON))
			}
		}
	})
	g.outputTypes(f)
}

func sortedIDs(m map[string]*ir.Config) []string {
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

func (g *jsonGen) settingsValues() *jen.Statement {
	cm := g.w.CodeMie
	return jen.CustomFunc(emit.Multiline, func(vals *jen.Group) {
		if cm.RecursionLimit > 0 {
			vals.Id("RecursionLimit").Op(":").Lit(cm.RecursionLimit)
		}
		if cm.Summarize {
			vals.Id("Summarize").Op(":").True()
			vals.Id("MessagesLimit").Op(":").Lit(cm.MessagesLimit)
			vals.Id("TokensLimit").Op(":").Lit(cm.TokensLimit)
		}
		if slices.ContainsFunc(g.w.States, func(s *ir.State) bool { return g.p.NodeType(s) == plan.StateProcessor }) {
			vals.Id("KeepStates").Op(":").True()
		}
	})
}

// codemieTaskFields writes a state's CodeMie fields of its JSONTask.
func (g *jsonGen) codemieTaskFields(vals *jen.Group, s *ir.State) {
	if g.cm == nil {
		return
	}
	vals.Id("Settings").Op(":").Id(g.cm.settings)
	c := s.CodeMie
	if c == nil {
		return
	}
	if next := nextValues(c); next != nil {
		vals.Id("Next").Op(":").Add(js("JSONNext")).Custom(emit.Multiline, next...)
	}
	for _, ref := range []struct{ field, list, id string }{{"Assistant", "assistants", c.Assistant}, {"Tool", "tools", c.Tool}, {"CustomNode", "custom_nodes", c.CustomNode}} {
		if ref.id != "" {
			vals.Id(ref.field).Op(":").Id(g.cm.configs[ref.list+"/"+ref.id])
		}
	}
	if c.Assistant != "" && c.Resolve {
		if parts := g.w.CodeMie.Assistants[c.Assistant].SystemPrompt; len(parts) > 0 {
			vals.Id("SystemPrompt").Op(":").Add(pieces(parts))
		}
	}
	for _, b := range []struct {
		field string
		on    bool
	}{{"Resolve", c.Resolve}, {"HumanMessage", c.HumanMessage}, {"InterruptBefore", c.InterruptBefore}, {"CurrentTask", g.readsItem(s)}} {
		if b.on {
			vals.Id(b.field).Op(":").True()
		}
	}
	if strings.TrimSpace(c.OutputSchemaText) != "" {
		fields := []jen.Code{jen.Id("Text").Op(":").Lit(c.OutputSchemaText)}
		if c.OutputSchema != "" { // else text for the model alone: nothing to check
			fields = append(fields, jen.Id("Schema").Op(":").Op("*").Add(js("DecodeConfig")).Types(jen.Map(jen.String()).Any()).Call(rawLit(c.OutputSchema)))
		}
		vals.Id("OutputSchema").Op(":").Op("&").Add(js("JSONSchema")).Custom(emit.Multiline, fields...)
	}
	if c.MCPServers != "" {
		vals.Id("MCPServers").Op(":").Op("*").Add(js("DecodeConfig")).Types(jen.Index().Add(js("MCPServer"))).Call(rawLit(c.MCPServers))
	}
	if c.MetaIterStateID != "" || c.MetaNextStateID != "" {
		vals.Id("Meta").Op(":").Add(js("JSONMeta")).Values(jen.Id("IterStateID").Op(":").Lit(c.MetaIterStateID),
			jen.Id("NextStateID").Op(":").Lit(c.MetaNextStateID))
	}
}

// readsItem reports whether s is an agent node that CodeMie makes a map
// node, the state_id of a `next` with an iter_key (workflow.py,
// find_map_nodes), whose task ends with the item (agent_node.py,
// get_task). Tool and custom-node states do not; a tool state is known by
// its entry under `tools`, which CodeMie requires.
func (g *jsonGen) readsItem(s *ir.State) bool {
	if c := s.CodeMie; c != nil && (c.Tool != "" || c.CustomNode != "") {
		return false
	}
	return slices.ContainsFunc(g.w.States, func(from *ir.State) bool {
		return from.Next != nil && from.Next.Iter != nil && from.Next.To.ID == s.ID
	})
}

// nextValues are the fields of a state's flowcrt.JSONNext; nil for the
// defaults.
func nextValues(c *ir.CodeMieState) []jen.Code {
	var out []jen.Code
	for _, b := range []struct {
		field string
		on    bool
	}{{"NoStore", c.NoStore}, {"NoHistory", c.NoHistory}, {"ClearMessages", c.ClearMessages}, {"Append", c.Append}, {"OverrideTask", c.OverrideTask}} {
		if b.on {
			out = append(out, jen.Id(b.field).Op(":").True())
		}
	}
	if c.ClearStore > 0 {
		out = append(out, jen.Id("ClearStore").Op(":").Add(js([]string{"", "ClearAll", "ClearKeepCurrent"}[c.ClearStore])))
	}
	if len(c.ResetKeys) > 0 {
		out = append(out, jen.Id("ResetKeys").Op(":").Add(emit.StringSlice(c.ResetKeys)))
	}
	if c.OutputKey != "" {
		out = append(out, jen.Id("OutputKey").Op(":").Lit(c.OutputKey))
	}
	if c.HasIterKeys {
		out = append(out, jen.Id("IteratorKeys").Op(":").Add(emit.StringSlice(c.IteratorKeys)))
	}
	return out
}

// toolArgsField writes a state's tool_args: templates, or structured
// values whose strings are rendered at run time.
func toolArgsField(vals *jen.Group, s *ir.State) {
	if len(s.ToolArgs) == 0 {
		return
	}
	vals.Id("ToolArgs").Op(":").Index().Add(js("JSONArg")).CustomFunc(emit.Multiline, func(args *jen.Group) {
		for _, a := range s.ToolArgs {
			if a.JSON != "" {
				args.Values(jen.Id("Name").Op(":").Lit(a.Name), jen.Id("JSON").Op(":").Op("*").Add(js("DecodeConfig")).Types(jen.Any()).Call(rawLit(a.JSON)))
				continue
			}
			args.Values(jen.Id("Name").Op(":").Lit(a.Name), jen.Id("Value").Op(":").Add(pieces(a.Parts)))
		}
	})
}

// iteratorKeys are the extra arguments of Iterations for the state that
// opens an iteration: the keys its items' stores get.
func iteratorKeys(w *ir.Workflow, r *ir.Region) []jen.Code {
	c := w.State(r.From).CodeMie
	if c == nil || !c.HasIterKeys {
		return nil
	}
	out := []jen.Code{}
	for _, k := range c.IteratorKeys {
		out = append(out, jen.Lit(k))
	}
	if len(out) == 0 {
		return []jen.Code{jen.Index().String().Values()} // none: an empty list, not "all"
	}
	return out
}

// MockHelpers gives the mock what the workflow needs beyond its handlers:
// answers to interrupt_before, from "<state>.interrupt_before" mocks, and
// a summarizer, from mocks of "summarize" (the summary text), which keeps
// the history when none is mocked.
func (g *jsonGen) MockHelpers(f *jen.File) {
	if g.p.Sessions.Decides { // interrupt_before
		f.Line()
		f.Comment("Approve answers interrupt_before from the mock of \"<state>.interrupt_before\": continue or cancel.")
		f.Func().Params(jen.Id("m").Id(g.n.Mock)).Id("Approve").
			Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("req").Add(emit.Flowcrt("ApprovalRequest"))).Params(jen.String(), jen.Error()).Block(
			jen.Return(jen.Id("m").Dot("mocks").Dot("RespondInterrupt").Call(jen.Id("ctx"), jen.Id("req"))),
		)
	}
	if _, ok := g.p.Service(ir.DatasourceHandler); ok {
		f.Line()
		f.Comment(ir.DatasourceHandler + " answers from the mock of \"datasource:<id>\".")
		f.Func().Params(jen.Id("m").Id(g.n.Mock)).Id(ir.DatasourceHandler).
			Params(jen.Id("ctx").Qual("context", "Context"), jen.List(jen.Id("datasourceID"), jen.Id("query")).String()).Params(jen.String(), jen.Error()).Block(
			jen.Return(jen.Id("m").Dot("mocks").Dot("RespondDatasource").Call(jen.Id("datasourceID"), jen.Id("query"))),
		)
	}
	if mcp, ok := g.p.Service(ir.MCPHandler); ok {
		f.Line()
		f.Comment(ir.MCPHandler + " answers from the mock of the state that calls it.")
		f.Func().Params(jen.Id("m").Id(g.n.Mock)).Add(emit.SigCode(jen.Id(ir.MCPHandler), mcp.Sig)).Block(
			jen.Return(jen.Id("m").Dot("mocks").Dot("RespondJSON").Call(jen.Id("call"))),
		)
	}
	if cm := g.w.CodeMie; cm != nil && cm.Summarize {
		f.Line()
		f.Comment("Summarize answers from the mocks of \"summarize\": the summary replaces the history.")
		f.Func().Params(jen.Id("m").Id(g.n.Mock)).Id("Summarize").
			Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("history").Add(emit.Flowcrt("Messages"))).Params(emit.Flowcrt("Messages"), jen.Error()).Block(
			jen.Return(jen.Id("m").Dot("mocks").Dot("RespondSummary").Call(jen.Id("history"))),
		)
	}
}

// rawLit writes compact JSON as a raw string literal, which reads as the
// JSON itself, unless it holds what a raw string cannot.
func rawLit(s string) *jen.Statement {
	if strings.ContainsAny(s, "`\r") || !utf8.ValidString(s) || strings.ContainsFunc(s, emit.Unprintable) {
		return jen.Lit(s)
	}
	return jen.Op("`" + s + "`")
}
