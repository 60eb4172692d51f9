// Package jinja renders the Jinja2 templates of CodeMie workflows (a
// task, a system prompt, with resolve_dynamic_values_in_prompt) as the
// engine renders them: jinja2's defaults, where a missing variable renders
// empty and a value prints as Python's str() prints it
// (service/tools/dynamic_value_utils.py). Templates are parsed and run by
// github.com/nikolalohinski/gonja/v2; this package gives it Python's
// printing of JSON values and keeps templates from reading files.
package jinja

import (
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/nikolalohinski/gonja/v2"
	"github.com/nikolalohinski/gonja/v2/config"
	"github.com/nikolalohinski/gonja/v2/exec"
	"github.com/nikolalohinski/gonja/v2/loaders"

	"github.com/flowc-dev/flowc/runtime/pyexpr"
)

// render renders a template with vars as its variables, as jinja2's
// Template(source).render(vars) does.
func render(source string, vars map[string]any) (out string, err error) {
	defer func() {
		// A template the library cannot handle is an error, not a crash.
		if r := recover(); r != nil {
			out, err = "", errors.New("jinja: template failed to render")
		}
	}()
	tpl, err := exec.NewTemplate(templateName, config.New(), onlyLoader(source), environment)
	if err != nil {
		return "", err
	}
	data := make(map[string]any, len(vars))
	for k, v := range vars {
		data[k] = wrap(v)
	}
	return tpl.ExecuteToString(exec.NewContext(data))
}

const templateName = "template"

// environment is gonja's, with Jinja's `none` test, which holds of None.
var environment = &exec.Environment{
	Context:           gonja.DefaultEnvironment.Context,
	Filters:           gonja.DefaultEnvironment.Filters,
	ControlStructures: gonja.DefaultEnvironment.ControlStructures,
	Methods:           gonja.DefaultEnvironment.Methods,
	Tests: exec.NewTestSet(map[string]exec.TestFunction{}).Update(gonja.DefaultEnvironment.Tests).
		Update(exec.NewTestSet(map[string]exec.TestFunction{"none": isNone})),
}

func isNone(_ *exec.Context, in *exec.Value, _ *exec.VarArgs) (bool, error) {
	_, none := in.Interface().(pyNone)
	return none || in.IsNil(), nil
}

// onlyLoader holds the one template; jinja2's Template has no loader, so
// {% include %} and {% import %} fail.
type onlyLoader string

func (l onlyLoader) Read(path string) (io.Reader, error) {
	if path != templateName {
		return nil, errors.New("jinja: a workflow template cannot load " + strconv.Quote(path))
	}
	return strings.NewReader(string(l)), nil
}

func (l onlyLoader) Resolve(path string) (string, error) { return path, nil }

func (l onlyLoader) Inherit(string) (loaders.Loader, error) { return l, nil }

// Values as the template sees them: Go types gonja reads as Jinja reads
// Python's, each printing as Python's str() prints it.
type (
	pyList  []any
	pyDict  map[string]any
	pyFloat float64
	// pyNone is None: false, empty, and printed "None" (gonja prints nil
	// as nothing, which Jinja keeps for undefined variables).
	pyNone [0]int
)

func (l pyList) String() string  { return pyexpr.Str(unwrap(l)) }
func (d pyDict) String() string  { return pyexpr.Str(unwrap(d)) }
func (f pyFloat) String() string { return pyexpr.Str(float64(f)) }
func (pyNone) String() string    { return "None" }

func wrap(v any) any {
	switch v := v.(type) {
	case nil:
		return pyNone{}
	case float64:
		return pyFloat(v)
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i
		}
		f, _ := v.Float64()
		return pyFloat(f)
	case []any:
		out := make(pyList, len(v))
		for i, x := range v {
			out[i] = wrap(x)
		}
		return out
	case map[string]any:
		out := make(pyDict, len(v))
		for k, x := range v {
			out[k] = wrap(x)
		}
		return out
	case pyexpr.Ordered:
		out := make(pyDict)
		for _, k := range v.Keys() {
			x, _ := v.Get(k)
			out[k] = wrap(x)
		}
		return out
	}
	return v
}

func unwrap(v any) any {
	switch v := v.(type) {
	case pyNone:
		return nil
	case pyFloat:
		return float64(v)
	case pyList:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = unwrap(x)
		}
		return out
	case pyDict:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = unwrap(x)
		}
		return out
	}
	return v
}

// Check parses a template, for a generator to tell, before any run, that
// it fails as jinja2 would fail: CodeMie then sends it as written.
func Check(source string) error {
	_, err := exec.NewTemplate(templateName, config.New(), onlyLoader(source), environment)
	if inner := errors.Unwrap(err); inner != nil {
		return inner // without gonja's preamble, which quotes the whole template
	}
	return err
}
