package chain

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	goruntime "runtime"
	"strconv"
	"strings"
	"text/template"
	"time"

	"github.com/Masterminds/sprig/v3"
	"github.com/flowc-dev/flowc/runtime/impl"
)

// Task chains write macros such as {{var:model}}, {{edge_count:a->b}} and
// {{date}} inside their text. flowc turns each one in a Go template into a
// call of macroFunc, so a value never becomes template syntax, and expands
// them directly in plain fields such as system_instruction.

// macroFunc is the name of the template function a macro becomes.
const macroFunc = "flowcMacro"

// macroRe matches {{namespace}} and {{namespace:payload}}.
var macroRe = regexp.MustCompile(`\{\{([a-zA-Z0-9_]+)(?::([^}]*))?\}\}`)

// macroNamespaces are the namespaces that are macros; any other {{word}}
// is left to the template ({{end}}, {{else}}) or to the text.
var macroNamespaces = map[string]bool{
	"edge_count": true, "var": true, "date": true, "now": true, "chain": true,
	"host": true, "tools": true, "toolservice": true, "hookservice": true,
}

// macro is one macro found in a text.
type macro struct {
	Start, End int    // byte offsets of the macro, braces included
	Namespace  string // "var"
	Payload    string // "model|llama3", trimmed
}

// FindMacros lists the macros of text in order.
func FindMacros(text string) []macro {
	var out []macro
	for _, loc := range macroRe.FindAllStringSubmatchIndex(text, -1) {
		ns := text[loc[2]:loc[3]]
		if !macroNamespaces[ns] {
			continue
		}
		m := macro{Start: loc[0], End: loc[1], Namespace: ns}
		if loc[4] >= 0 {
			m.Payload = strings.TrimSpace(text[loc[4]:loc[5]])
		}
		out = append(out, m)
	}
	return out
}

// MacroTemplate rewrites the macros of a Go template's text as calls of
// macroFunc, which RenderChainTemplate binds to the run.
func MacroTemplate(text string) string {
	var b strings.Builder
	last := 0
	for _, m := range FindMacros(text) {
		b.WriteString(text[last:m.Start])
		fmt.Fprintf(&b, "{{%s %s %s}}", macroFunc, strconv.Quote(m.Namespace), strconv.Quote(m.Payload))
		last = m.End
	}
	b.WriteString(text[last:])
	return b.String()
}

// macroEnv is what macros read during one task of a run.
type macroEnv struct {
	chainID string
	edges   map[string]int
	vars    map[string]string // template variables (WithChainVars)
	data    map[string]any    // the run's values: task outputs, input, composed variables
	now     time.Time
	lenient bool // an unset variable without a default stays as written
}

// expand replaces the macros of a plain text.
func (e *macroEnv) expand(text string) (string, error) {
	ms := FindMacros(text)
	if len(ms) == 0 {
		return text, nil
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		b.WriteString(text[last:m.Start])
		v, err := e.macro(m.Namespace, m.Payload)
		if err != nil {
			return "", err
		}
		b.WriteString(v)
		last = m.End
	}
	b.WriteString(text[last:])
	return b.String(), nil
}

// macro expands one macro. Macros that need a tool registry flowc does not
// have ({{tools}}, {{toolservice:...}}) stay as written, as they do in
// contenox when no registry is configured.
func (e *macroEnv) macro(ns, payload string) (string, error) {
	switch ns {
	case "edge_count":
		return strconv.Itoa(e.edges[payload]), nil
	case "var":
		return e.templateVar(payload)
	case "date":
		return e.now.Format(orDefault(payload, "2006-01-02")), nil
	case "now":
		return e.now.Format(orDefault(payload, time.RFC3339)), nil
	case "chain":
		if payload == "id" {
			return e.chainID, nil
		}
	case "host":
		switch payload {
		case "os":
			return goruntime.GOOS, nil
		case "arch":
			return goruntime.GOARCH, nil
		case "":
			b, err := json.Marshal(map[string]string{"os": goruntime.GOOS, "arch": goruntime.GOARCH})
			return string(b), err
		}
	}
	if payload == "" {
		return "{{" + ns + "}}", nil
	}
	return "{{" + ns + ":" + payload + "}}", nil
}

// templateVar reads {{var:name}}, {{var:name|default}} or
// {{var:name|var:other}}. A variable is a template variable
// (WithChainVars), else a value of the run (a composed variable, a task's
// output, the input) as text. An unset variable without a default is an
// error, except where e is lenient.
func (e *macroEnv) templateVar(payload string) (string, error) {
	name, fallback, hasFallback := strings.Cut(payload, "|")
	name = strings.TrimSpace(name)
	if v := e.lookup(name); v != "" {
		return v, nil
	}
	fallback = strings.TrimSpace(fallback)
	other, isVar := strings.CutPrefix(fallback, "var:")
	switch {
	case hasFallback && !isVar:
		return fallback, nil
	case hasFallback:
		if v := e.lookup(strings.TrimSpace(other)); v != "" {
			return v, nil
		}
	}
	if e.lenient {
		return "{{var:" + payload + "}}", nil
	}
	return "", fmt.Errorf("template variable %q is not set", name)
}

func (e *macroEnv) lookup(name string) string {
	if v := e.vars[name]; v != "" {
		return v
	}
	v, ok := e.data[name]
	if !ok || v == nil {
		return ""
	}
	text, _ := impl.ValueText(v)
	return text
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

type chainVarsKey struct{}

// WithChainVars gives a chain run the template variables that {{var:name}}
// macros read, such as the model and provider to use.
func WithChainVars(ctx context.Context, vars map[string]string) context.Context {
	cp := make(map[string]string, len(vars))
	for k, v := range vars {
		cp[k] = v
	}
	return context.WithValue(ctx, chainVarsKey{}, cp)
}

func chainVars(ctx context.Context) map[string]string {
	vars, _ := ctx.Value(chainVarsKey{}).(map[string]string)
	return vars
}

// ChainTemplate parses a task-chain template (prompt_template, print,
// output_template) whose macros MacroTemplate has rewritten. Templates get
// the whole Sprig library and render a missing key as "<no value>", as
// contenox's renderTemplate (runtime/taskengine/taskenv.go) does: templates
// may read a task that has not run yet.
func ChainTemplate(name, text string) (*template.Template, error) {
	return template.New(name).Funcs(sprigFuncs).Funcs(macroFuncs(nil)).Parse(text)
}

// MustChainTemplate is ChainTemplate for generated code, whose templates
// the compiler has already parsed.
func MustChainTemplate(name, text string) *template.Template {
	return template.Must(ChainTemplate(name, text))
}

// sprigFuncs is built once: sprig makes a new map on every call.
var sprigFuncs = sprig.TxtFuncMap()

// render executes t against data with the macros bound to e.
func (e *macroEnv) render(t *template.Template, data any) (string, error) {
	t, err := t.Clone()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := t.Funcs(macroFuncs(e)).Execute(&b, data); err != nil {
		return "", err
	}
	return b.String(), nil
}

// macroFuncs binds the function the macros became to e; without a run
// (while parsing) a macro expands to nothing.
func macroFuncs(e *macroEnv) template.FuncMap {
	return template.FuncMap{
		macroFunc: func(ns, payload string) (string, error) {
			if e == nil {
				return "", nil
			}
			return e.macro(ns, payload)
		},
	}
}
