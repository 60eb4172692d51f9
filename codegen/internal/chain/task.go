package chain

import (
	"sort"
	"time"

	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
)

// taskVar is the package variable holding a task's flowcrt.ChainTask: its
// templates, settings and call policy (timeout, retries).
func (g *chainGen) taskVar(s *ir.State) string { return g.n.PolicyVar(s) }

// tasks declares every task's flowcrt.ChainTask. The compiler has parsed
// each template already, so MustChainTemplate cannot panic.
func (g *chainGen) tasks(f *jen.File) {
	var defs []jen.Code
	for _, s := range g.w.States {
		if d := s.Chain.Description; d != "" {
			defs = append(defs, emit.Comment(s.ID+": "+d))
		}
		defs = append(defs, jen.Id(g.taskVar(s)).Op("=").Add(ch("ChainTask")).Values(g.taskFields(s)))
	}
	f.Line()
	f.Comment("The tasks as the chain defines them: templates (a variable that is missing renders <no value>),")
	f.Comment("settings and call policy.")
	f.Var().Defs(defs...)
}

func (g *chainGen) taskFields(s *ir.State) jen.Dict {
	c := s.Chain
	d := jen.Dict{jen.Id("ID"): jen.Lit(s.ID)}
	setLit(d, "Chain", g.w.Chain.ID)
	setLit(d, "Debug", g.w.Chain.Debug)
	if k := plan.ChainKinds[c.Kind]; k != nil {
		d[jen.Id("Kind")] = emit.Qual(k)
	}
	for field, text := range map[string]string{"Prompt": s.PromptTemplate, "Print": c.Print, "Output": c.OutputTemplate} {
		if text != "" {
			d[jen.Id(field)] = ch("MustChainTemplate").Call(jen.Lit(s.ID), jen.Lit(text))
		}
	}
	setLit(d, "System", c.SystemInstruction)
	setLit(d, "InputVar", inputVar(c))
	setLit(d, "InputMaxBytes", c.InputMaxBytes)
	setLit(d, "Retries", c.RetryOnFailure)
	if s.Timeout > 0 {
		d[jen.Id("Timeout")] = durationLit(s.Timeout)
	}
	if c.Exec != nil {
		d[jen.Id("Exec")] = jen.Op("&").Add(ch("ExecuteConfig")).Values(g.execFields(c.Exec))
	}
	if t := c.Tools; t != nil {
		d[jen.Id("Tools")] = jen.Op("&").Add(ch("ToolsBlock")).Values(toolsFields(t))
	}
	if c.Kind == ir.ChainRoute {
		d[jen.Id("Labels")] = stringsLit(c.Labels)
	}
	if len(c.ValidConditions) > 0 {
		d[jen.Id("Conds")] = stringsLit(c.ValidConditions)
	}
	return d
}

func inputVar(c *ir.ChainTask) string {
	if c.InputVar == nil {
		return ""
	}
	return c.InputVar.ID
}

// setLit sets field to a literal unless v is its zero value.
func setLit[T comparable](d jen.Dict, field string, v T) {
	var zero T
	if v != zero {
		d[jen.Id(field)] = jen.Lit(v)
	}
}

func (g *chainGen) execFields(e *ir.ExecuteConfig) jen.Dict {
	d := jen.Dict{}
	setLit(d, "Model", e.Model)
	setLit(d, "Provider", e.Provider)
	setLit(d, "Think", e.Think)
	setLit(d, "PassClientsTools", e.PassClientsTools)
	setLit(d, "Shift", e.Shift)
	setLit(d, "TokenLimit", g.w.Chain.TokenLimit)
	if n, ok := wholeNumber(e.MaxTokens); ok {
		setLit(d, "MaxTokens", n)
	} else {
		setLit(d, "MaxTokensText", e.MaxTokens)
	}
	for field, list := range map[string][]string{"Models": e.Models, "Providers": e.Providers, "HideTools": e.HideTools} {
		if len(list) > 0 {
			d[jen.Id(field)] = stringsLit(list)
		}
	}
	if e.ToolsSet {
		d[jen.Id("Tools")] = stringsLit(e.Tools)
	}
	if e.Temperature != nil {
		d[jen.Id("Temperature")] = emit.Flowcimpl("Float").Call(jen.Lit(*e.Temperature))
	}
	if len(e.ToolsPolicies) > 0 {
		d[jen.Id("ToolsPolicies")] = policiesLit(e.ToolsPolicies)
	}
	if r := e.Retry; r != nil {
		d[jen.Id("Retry")] = jen.Op("&").Add(ch("LLMRetryPolicy")).Values(retryFields(r))
	}
	if c := e.Compact; c != nil {
		d[jen.Id("Compact")] = jen.Op("&").Add(ch("CompactPolicy")).Values(compactFields(c))
	}
	return d
}

// wholeNumber reads max_tokens written as a number; a macro stays text.
func wholeNumber(s string) (int, bool) {
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' || n > 1<<30 {
			return 0, false
		}
		n = n*10 + int(r-'0')
	}
	return n, s != ""
}

func retryFields(r *ir.LLMRetry) jen.Dict {
	d := jen.Dict{}
	setLit(d, "MaxAttempts", r.MaxAttempts)
	setLit(d, "Jitter", r.Jitter)
	setLit(d, "FallbackModel", r.FallbackModel)
	setLit(d, "FallbackAfter", r.FallbackAfter)
	if r.InitialBackoff > 0 {
		d[jen.Id("InitialBackoff")] = durationLit(r.InitialBackoff)
	}
	if r.MaxBackoff > 0 {
		d[jen.Id("MaxBackoff")] = durationLit(r.MaxBackoff)
	}
	if r.RateLimitMinWait > 0 {
		d[jen.Id("RateLimitMinWait")] = durationLit(r.RateLimitMinWait)
	}
	return d
}

func compactFields(c *ir.CompactPolicy) jen.Dict {
	d := jen.Dict{}
	setLit(d, "Model", c.Model)
	setLit(d, "Provider", c.Provider)
	setLit(d, "TriggerFraction", c.TriggerFraction)
	setLit(d, "KeepRecent", c.KeepRecent)
	setLit(d, "MinReplacedMessages", c.MinReplacedMessages)
	setLit(d, "MaxFailures", c.MaxFailures)
	return d
}

func toolsFields(t *ir.ToolsCall) jen.Dict {
	d := jen.Dict{}
	setLit(d, "Name", t.Name)
	setLit(d, "ToolName", t.ToolName)
	if len(t.Args) > 0 {
		d[jen.Id("Args")] = stringMapLit(t.Args)
	}
	return d
}

// durationLit writes d in the largest unit that divides it: 30 *
// time.Second.
func durationLit(d time.Duration) jen.Code {
	for _, u := range []struct {
		name string
		d    time.Duration
	}{{"Hour", time.Hour}, {"Minute", time.Minute}, {"Second", time.Second}, {"Millisecond", time.Millisecond}} {
		if d%u.d == 0 {
			return jen.Lit(int(d/u.d)).Op("*").Qual("time", u.name)
		}
	}
	return jen.Qual("time", "Duration").Call(jen.Lit(int64(d)))
}

func stringsLit(list []string) jen.Code {
	items := make([]jen.Code, len(list))
	for i, s := range list {
		items[i] = jen.Lit(s)
	}
	return jen.Index().String().Values(items...)
}

func stringMapLit(m map[string]string) jen.Code {
	return jen.Map(jen.String()).String().Values(jen.DictFunc(func(d jen.Dict) {
		for k, v := range m {
			d[jen.Lit(k)] = jen.Lit(v)
		}
	}))
}

func policiesLit(m map[string]map[string]string) jen.Code {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	d := jen.Dict{}
	for _, k := range keys {
		d[jen.Lit(k)] = stringMapLit(m[k])
	}
	return jen.Map(jen.String()).Map(jen.String()).String().Values(d)
}
