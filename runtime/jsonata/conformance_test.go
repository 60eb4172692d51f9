package jsonata

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/flowc-dev/flowc/internal/sharedtest"
)

// suiteDir is the official JSONata test suite (jsonata-js/jsonata
// test/test-suite), converted to one JSON file per group; see its README.
const suiteDir = "../../../shared/conformance/jsonata/cases"

// knownFailures are the suite cases whose expected behaviour only JavaScript
// has; every other case must pass.
var knownFailures = map[string]string{
	"function-encodeUrl/case002":          "a lone UTF-16 surrogate: Go strings cannot hold one, JSON decoding turns it into U+FFFD",
	"function-encodeUrlComponent/case002": "a lone UTF-16 surrogate: Go strings cannot hold one, JSON decoding turns it into U+FFFD",
	"parent-operator/parent#24":           "expects the key order of the original library dataset; the converted datasets.json has its keys sorted",
	"parent-operator/parent#25":           "expects the key order of the original library dataset; the converted datasets.json has its keys sorted",
	"parent-operator/parent#26":           "expects the key order of the original library dataset; the converted datasets.json has its keys sorted",
}

type suiteCase struct {
	Expr            string          `json:"expr"`
	Data            json.RawMessage `json:"data"`
	Dataset         *string         `json:"dataset"`
	Bindings        json.RawMessage `json:"bindings"`
	Result          json.RawMessage `json:"result"`
	UndefinedResult bool            `json:"undefinedResult"`
	Code            string          `json:"code"`
	Error           *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Unordered bool   `json:"unordered"`
	Timelimit int    `json:"timelimit"`
	Depth     int    `json:"depth"`
	File      string `json:"file"`
	Index     *int   `json:"index"`
}

func (c *suiteCase) id(group string) string {
	id := group + "/" + strings.TrimSuffix(c.File, ".json")
	if c.Index != nil {
		id += fmt.Sprintf("#%d", *c.Index)
	}
	return id
}

func loadSuite(t *testing.T) (map[string][]suiteCase, map[string]any) {
	t.Helper()
	raw := sharedtest.ReadFile(t, filepath.Join(suiteDir, "datasets.json"))
	var sets map[string]json.RawMessage
	if err := json.Unmarshal(raw, &sets); err != nil {
		t.Fatal(err)
	}
	datasets := map[string]any{}
	for k, v := range sets {
		var err error
		if datasets[k], err = parseJSON(string(v)); err != nil {
			t.Fatal(k, err)
		}
	}
	files, _ := filepath.Glob(filepath.Join(suiteDir, "*.json"))
	groups := map[string][]suiteCase{}
	for _, f := range files {
		if filepath.Base(f) == "datasets.json" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var cs []suiteCase
		if err := json.Unmarshal(b, &cs); err != nil {
			t.Fatal(f, err)
		}
		groups[strings.TrimSuffix(filepath.Base(f), ".json")] = cs
	}
	return groups, datasets
}

func TestConformance(t *testing.T) {
	groups, datasets := loadSuite(t)
	names := make([]string, 0, len(groups))
	for g := range groups {
		names = append(names, g)
	}
	sort.Strings(names)
	pass, fail, known := 0, 0, 0
	for _, g := range names {
		for _, c := range groups[g] {
			id := c.id(g)
			err := runCase(&c, datasets)
			_, isKnown := knownFailures[id]
			switch {
			case err == nil && isKnown:
				t.Errorf("%s: passes but is listed in knownFailures", id)
			case err == nil:
				pass++
			case isKnown:
				known++
			default:
				fail++
				t.Errorf("%s: %s\n    expr: %s", id, err, c.Expr)
			}
		}
	}
	t.Logf("JSONata suite: %d passed, %d failed, %d known failures", pass, fail, known)
}

func runCase(c *suiteCase, datasets map[string]any) error {
	var input any = undefined
	if c.Dataset != nil && *c.Dataset != "" {
		input = datasets[*c.Dataset]
	} else if len(c.Data) > 0 {
		v, err := parseJSON(string(c.Data))
		if err != nil {
			return err
		}
		input = v
	}
	env := &Env{Vars: map[string]any{}, MaxDepth: c.Depth}
	if c.Timelimit > 0 {
		env.Timeout = time.Duration(c.Timelimit) * time.Millisecond
	}
	if len(c.Bindings) > 0 {
		b, err := parseJSON(string(c.Bindings))
		if err != nil {
			return err
		}
		for _, k := range objectKeys(b) {
			env.Vars[k], _ = objectGet(b, k)
		}
	}
	wantCode := c.Code
	if c.Error != nil {
		wantCode = c.Error.Code
	}
	got, defined, err := evalSafely(c.Expr, input, env)
	if wantCode != "" {
		var je *Error
		if err == nil {
			return fmt.Errorf("want error %s, got %s", wantCode, show(got, defined))
		}
		if !errors.As(err, &je) || je.Code != wantCode {
			return fmt.Errorf("want error %s, got %v", wantCode, err)
		}
		if c.Error != nil && c.Error.Message != "" && messageOf(je) != c.Error.Message {
			return fmt.Errorf("want message %q, got %q", c.Error.Message, messageOf(je))
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("error: %v", err)
	}
	if c.UndefinedResult {
		if defined {
			return fmt.Errorf("want undefined, got %s", show(got, defined))
		}
		return nil
	}
	if len(c.Result) == 0 {
		return fmt.Errorf("case has no expectation")
	}
	if !defined {
		return fmt.Errorf("want %s, got undefined", c.Result)
	}
	var want any
	if err := json.Unmarshal(c.Result, &want); err != nil {
		return err
	}
	if !sameJSON(plain(got), want, c.Unordered) {
		return fmt.Errorf("want %s, got %s", c.Result, show(got, defined))
	}
	return nil
}

func evalSafely(src string, input any, env *Env) (v any, defined bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	x, err := Compile(src)
	if err != nil {
		return nil, false, err
	}
	if isUndef(input) {
		return x.evalUndefined(context.Background(), env)
	}
	return x.Eval(context.Background(), input, env)
}

func show(v any, defined bool) string {
	if !defined {
		return "undefined"
	}
	b, err := json.Marshal(plain(v))
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// plain turns an evaluation result into what encoding/json decodes.
func plain(v any) any {
	v = normalize(v)
	switch v.(type) {
	case callable:
		return ""
	case undefinedT:
		return nil
	}
	if arr, ok := arrayOf(v); ok {
		out := make([]any, len(arr))
		for i, it := range arr {
			out[i] = plain(it)
		}
		return out
	}
	if isObject(v) {
		out := map[string]any{}
		for _, k := range objectKeys(v) {
			val, _ := objectGet(v, k)
			if _, fn := val.(callable); fn {
				continue
			}
			out[k] = plain(val)
		}
		return out
	}
	return v
}

func sameJSON(got, want any, unordered bool) bool {
	if unordered {
		ga, ok1 := got.([]any)
		wa, ok2 := want.([]any)
		if ok1 && ok2 && len(ga) == len(wa) {
			used := make([]bool, len(wa))
		outer:
			for _, g := range ga {
				for i, w := range wa {
					if !used[i] && sameJSON(g, w, false) {
						used[i] = true
						continue outer
					}
				}
				return false
			}
			return true
		}
	}
	switch w := want.(type) {
	case float64:
		g, ok := got.(float64)
		return ok && (g == w || math.Abs(g-w) <= 1e-13*math.Abs(w))
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !sameJSON(g[i], w[i], false) {
				return false
			}
		}
		return true
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok || !sameJSON(gv, wv, false) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(got, want)
}

// messageOf is the error's text without code and position.
func messageOf(e *Error) string {
	s := e.Error()
	if i := strings.Index(s, ": "); i >= 0 {
		return s[i+2:]
	}
	return s
}
