package jsonmode

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// ErrOutputSchema names the error of an output that does not match its
// state's output_schema. Retry rules may match it, as CodeMie asks the
// model again.
const ErrOutputSchema = "OutputSchemaMismatch"

// JSONSchema is a state's output_schema. Text is as the definition wrote
// it; Schema is the JSON Schema it stands for, which the compiler built
// from an example object when the definition gave one, and nil when Text
// is no JSON: then it only tells the model the format.
type JSONSchema struct {
	Text   string
	Schema map[string]any
}

// Check reports how v fails to match the schema, as an *Error named
// ErrOutputSchema; nil when it matches or there is no schema. It knows
// type, enum, const, properties, required, additionalProperties, items,
// the bounds of numbers, strings and lists, pattern, and allOf, anyOf,
// oneOf and not; other keywords (format among them) are annotations.
func (sc *JSONSchema) Check(v any) error {
	if sc == nil || sc.Schema == nil {
		return nil
	}
	if why := validate(sc.Schema, v, ""); why != "" {
		return &impl.Error{Name: ErrOutputSchema, Cause: "the output does not match output_schema: " + why}
	}
	return nil
}

// validate returns why v does not match schema s, at pointer at; "".
func validate(s map[string]any, v any, at string) string {
	for _, check := range []func(map[string]any, any, string) string{checkType, checkEnum, checkNumber, checkString, checkArray, checkObject, checkCombined} {
		if why := check(s, v, at); why != "" {
			return why
		}
	}
	return ""
}

func where(at string) string {
	if at == "" {
		return "the output"
	}
	return at
}

func jsonType(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	default:
		if n, ok := pyNumberOf(v); ok && (!n.isFloat || n.f == float64(int64(n.f))) {
			return "integer"
		}
		return "number"
	}
}

func checkType(s map[string]any, v any, at string) string {
	var want []string
	switch t := s["type"].(type) {
	case string:
		want = []string{t}
	case []any:
		for _, x := range t {
			if name, ok := x.(string); ok {
				want = append(want, name)
			}
		}
	default:
		return ""
	}
	got := jsonType(v)
	if slices.Contains(want, got) || (got == "integer" && slices.Contains(want, "number")) {
		return ""
	}
	return fmt.Sprintf("%s is %s, not %s", where(at), article(got), strings.Join(want, " or "))
}

func article(t string) string {
	if t == "integer" || t == "object" || t == "array" {
		return "an " + t
	}
	if t == "null" {
		return "null"
	}
	return "a " + t
}

func checkEnum(s map[string]any, v any, at string) string {
	if c, ok := s["const"]; ok && !pyEqual(c, v) {
		return fmt.Sprintf("%s must be %s", where(at), text(c))
	}
	enum, ok := s["enum"].([]any)
	if !ok || slices.ContainsFunc(enum, func(e any) bool { return pyEqual(e, v) }) {
		return ""
	}
	names := make([]string, len(enum))
	for i, e := range enum {
		names[i] = text(e)
	}
	return fmt.Sprintf("%s must be one of %s", where(at), strings.Join(names, ", "))
}

// text is v's JSON for a message, without HTML escaping: people read it.
func text(v any) string {
	out, _ := impl.EncodeJSON(v) // plain JSON values, which always encode
	return string(out)
}

func checkNumber(s map[string]any, v any, at string) string {
	n, ok := pyNumberOf(v)
	if _, isBool := v.(bool); !ok || isBool {
		return ""
	}
	bounds := []struct {
		key  string
		fail func(x, b float64) bool
		op   string
	}{
		{"minimum", func(x, b float64) bool { return x < b }, ">="},
		{"maximum", func(x, b float64) bool { return x > b }, "<="},
		{"exclusiveMinimum", func(x, b float64) bool { return x <= b }, ">"},
		{"exclusiveMaximum", func(x, b float64) bool { return x >= b }, "<"},
	}
	for _, bd := range bounds {
		if b, ok := pyNumberOf(s[bd.key]); ok && bd.fail(n.float(), b.float()) {
			return fmt.Sprintf("%s must be %s %s", where(at), bd.op, text(s[bd.key]))
		}
	}
	return ""
}

func checkString(s map[string]any, v any, at string) string {
	str, ok := v.(string)
	if !ok {
		return ""
	}
	if why := sizeBounds(s, "Length", utf8.RuneCountInString(str), "characters", at); why != "" {
		return why
	}
	if p, ok := s["pattern"].(string); ok {
		if re, err := regexp.Compile(p); err == nil && !re.MatchString(str) {
			return fmt.Sprintf("%s does not match pattern %s", where(at), strconv.Quote(p))
		}
	}
	return ""
}

// sizeBounds checks min<what> and max<what> of a size.
func sizeBounds(s map[string]any, what string, size int, unit, at string) string {
	if b, ok := pyNumberOf(s["min"+what]); ok && float64(size) < b.float() {
		return fmt.Sprintf("%s has %d %s, fewer than %s", where(at), size, unit, text(s["min"+what]))
	}
	if b, ok := pyNumberOf(s["max"+what]); ok && float64(size) > b.float() {
		return fmt.Sprintf("%s has %d %s, more than %s", where(at), size, unit, text(s["max"+what]))
	}
	return ""
}

func checkArray(s map[string]any, v any, at string) string {
	list, ok := v.([]any)
	if !ok {
		return ""
	}
	if why := sizeBounds(s, "Items", len(list), "items", at); why != "" {
		return why
	}
	items, ok := s["items"].(map[string]any)
	if !ok {
		return ""
	}
	for i, item := range list {
		if why := validate(items, item, at+"/"+strconv.Itoa(i)); why != "" {
			return why
		}
	}
	return ""
}

func checkObject(s map[string]any, v any, at string) string {
	obj, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	if req, ok := s["required"].([]any); ok {
		for _, k := range req {
			if name, ok := k.(string); ok {
				if _, has := obj[name]; !has {
					return fmt.Sprintf("%s lacks the required key %s", where(at), strconv.Quote(name))
				}
			}
		}
	}
	props, _ := s["properties"].(map[string]any)
	for _, k := range sortedKeys(obj) {
		sub, declared := props[k].(map[string]any)
		switch {
		case declared:
			if why := validate(sub, obj[k], at+"/"+escapeToken(k)); why != "" {
				return why
			}
		case s["additionalProperties"] == false:
			return fmt.Sprintf("%s has the key %s, which the schema does not allow", where(at), strconv.Quote(k))
		}
	}
	return ""
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func checkCombined(s map[string]any, v any, at string) string {
	for _, sub := range subschemas(s["allOf"]) {
		if why := validate(sub, v, at); why != "" {
			return why
		}
	}
	if some := subschemas(s["anyOf"]); some != nil && matching(some, v, at) == 0 {
		return where(at) + " matches none of anyOf"
	}
	if one := subschemas(s["oneOf"]); one != nil && matching(one, v, at) != 1 {
		return where(at) + " must match exactly one of oneOf"
	}
	if not, ok := s["not"].(map[string]any); ok && validate(not, v, at) == "" {
		return where(at) + " matches the schema under not"
	}
	return ""
}

func subschemas(v any) []map[string]any {
	list, _ := v.([]any)
	var out []map[string]any
	for _, x := range list {
		if m, ok := x.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func matching(schemas []map[string]any, v any, at string) int {
	n := 0
	for _, s := range schemas {
		if validate(s, v, at) == "" {
			n++
		}
	}
	return n
}

// pointAt keeps the part of an output at a tool's result pointer.
func pointAt(out JSONOutput, pointer string) (JSONOutput, error) {
	v := out.Value
	for _, tok := range pointerTokens(pointer) {
		var ok bool
		if v, ok = pointerStep(v, tok); !ok {
			return JSONOutput{}, &impl.Error{Name: impl.ErrTaskFailed, Cause: fmt.Sprintf("tool_result_json_pointer %s finds nothing in the tool's output", pointer)}
		}
	}
	t, _ := impl.ValueText(v)
	return JSONOutput{Text: t, Value: v}, nil
}

// pointerTokens splits an RFC 6901 pointer into its unescaped tokens.
func pointerTokens(pointer string) []string {
	if pointer == "" {
		return nil
	}
	toks := strings.Split(strings.TrimPrefix(pointer, "/"), "/")
	for i, t := range toks {
		toks[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(t)
	}
	return toks
}
