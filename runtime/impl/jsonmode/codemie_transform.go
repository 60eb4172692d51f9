package jsonmode

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/flowc-dev/flowc/runtime/jinja"
	"github.com/flowc-dev/flowc/runtime/pyexpr"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// CodeMie's transform_node (workflows/nodes/transform_node.py), run by
// flowc as the engine runs it: it reads its source data (the context store,
// the user input, the last message or the state), applies its mappings in
// order, coerces the output to its output_schema, and returns the output
// as JSON text, which the state then stores as any output. A failure is
// handled by its on_error strategy.

// errTransformation names the engine's TransformationError, which its
// retry policy retries (it is none of the errors retry_on refuses).
const errTransformation = "TransformationError"

// transformNode is TransformNode.execute and post_process_output over the
// call's context store and history and the run's user input.
func transformNode(call JSONCall, userInput any) (string, error) {
	// The configuration as JSON values, numbers as json.Number, as the
	// store holds them.
	v, _ := impl.JSONValue(call.CustomNode.Config) // decoded from JSON: it converts
	config, _ := v.(map[string]any)
	onError := configString(config, "on_error", "fail")
	out, err := transform(call, userInput, config, onError)
	if e := (notJSON{}); errors.As(err, &e) {
		return "", e.err
	}
	if err != nil {
		switch onError {
		case "fail":
			return "", &impl.Error{Name: errTransformation, Cause: "Transformation failed: " + err.Error()}
		case "skip":
			return "{}", nil
		case "default":
			v, ok := config["default_output"]
			if !ok {
				return "{}", nil
			}
			return pyJSON(v)
		}
		return "", &impl.Error{Name: errTransformation, Cause: "Unknown error strategy: " + onError}
	}
	// post_process_output: json.dumps(output, ensure_ascii=False), which
	// fails, whatever on_error says, on a value JSON cannot hold.
	return pyJSON(out)
}

// configString is config.get(key, def) for a string setting; a value of
// another type is read as Python prints it.
func configString(config map[string]any, key, def string) string {
	v, ok := config[key]
	if !ok {
		return def
	}
	return pyexpr.Str(v)
}

// transform is the body of TransformNode.execute's try: source data,
// mappings, validation.
func transform(call JSONCall, userInput any, config map[string]any, onError string) (*ordered, error) {
	source, err := transformSource(call, userInput, config)
	if err != nil {
		return nil, err
	}
	mappings, isList := config["mappings"].([]any)
	if v, set := config["mappings"]; set && !isList {
		return nil, fmt.Errorf("'%s' object is not iterable", pyType(v))
	}
	out, err := applyMappings(source, mappings, onError == "partial")
	if err != nil {
		return nil, err
	}
	if schema := config["output_schema"]; pyexpr.Truthy(schema) {
		return validateTransform(out, schema)
	}
	return out, nil
}

// transformSource is _extract_source_data: the input_source's data as an
// object; a value that is no object is under "data".
func transformSource(call JSONCall, userInput any, config map[string]any) (map[string]any, error) {
	source := configString(config, "input_source", "context_store")
	var data any = map[string]any{}
	switch source {
	case "context_store":
		key, _ := config["input_key"].(string)
		var err error
		if data, err = fromContextStore(call.Context, key); err != nil {
			return nil, err
		}
	case "messages":
		data = fromMessages(call.History, userInput)
	case "user_input":
		data = jsonObject(userInputText(userInput))
	case "state_schema":
		// The state's own keys but messages, context_store and next: of
		// what flowc keeps, the user input (LangGraph's bookkeeping keys,
		// final_summary and the previous execution states, it does not).
		data = map[string]any{"user_input": userInputText(userInput)}
	}
	// "combined", or a source the engine does not know, reads nothing.
	if obj, ok := data.(map[string]any); ok {
		return obj, nil
	}
	return map[string]any{"data": data}, nil
}

// userInputText is the run's input as CodeMie's user_input holds it: text.
func userInputText(input any) string {
	if s, ok := input.(string); ok {
		return s
	}
	if input == nil {
		return ""
	}
	text, _ := impl.ValueText(input)
	return text
}

// jsonObject is the object a text holds as JSON (json.loads), else empty.
func jsonObject(text string) map[string]any {
	if v, err := impl.DecodeValue([]byte(text)); err == nil {
		if obj, ok := v.(map[string]any); ok {
			return obj
		}
	}
	return map[string]any{}
}

// fromMessages is _extract_from_messages: the last message's text content
// as a JSON object. Every message CodeMie's states add holds a list of text
// parts, which it skips; so it reads only the message of the user input
// (workflow.py on_workflow_start), while that is the last.
func fromMessages(history impl.Messages, userInput any) map[string]any {
	input := userMessage(userInput)
	if len(history) == 0 || len(input) == 0 || history[len(history)-1] != input[0] {
		return map[string]any{}
	}
	return jsonObject(input[0].Content)
}

// arrayIndex is parse_array_index's pattern: base[i], base[i:j] or
// base[i:j:k], then optionally .rest.
var arrayIndex = regexp.MustCompile(`^([^\[]+)\[(-?\d+)(?::(-?\d+))?(?::(-?\d+))?\](?:\.(.+))?$`)

// indexPath is a parsed parse_array_index: the path before the brackets,
// the index (start) or slice (start, end and maybe step), and the path
// after them.
type indexPath struct {
	base, remaining string
	start           int
	end, step       *int // nil end: a single index
}

func parseIndexPath(key string) (indexPath, bool) {
	m := arrayIndex.FindStringSubmatch(key)
	if m == nil {
		return indexPath{base: key}, false
	}
	p := indexPath{base: m[1], remaining: m[5], start: pyIndex(m[2])}
	if m[3] != "" {
		end := pyIndex(m[3])
		p.end = &end
		if m[4] != "" {
			step := pyIndex(m[4])
			p.step = &step
		}
	}
	return p, true
}

// pyIndex reads an index the pattern matched; one too long for an int is
// out of range either way.
func pyIndex(s string) int {
	n, err := strconv.Atoi(s)
	switch {
	case err == nil:
		return n
	case strings.HasPrefix(s, "-"):
		return -1 << 40
	}
	return 1 << 40
}

// at applies the index or slice to a list, as Python's value[i] or
// value[i:j:k]; false when the index is out of range.
func (p indexPath) at(list []any) (any, bool, error) {
	if p.end == nil {
		i := p.start
		if i < 0 {
			i += len(list)
		}
		if i < 0 || i >= len(list) {
			return nil, false, nil
		}
		return list[i], true, nil
	}
	step := 1
	if p.step != nil {
		step = *p.step
	}
	if step == 0 {
		return nil, false, errors.New("ValueError: slice step cannot be zero")
	}
	start, stop := sliceBounds(p.start, len(list), step), sliceBounds(*p.end, len(list), step)
	out := []any{}
	for i := start; (step > 0 && i < stop) || (step < 0 && i > stop); i += step {
		out = append(out, list[i])
	}
	return out, true, nil
}

// sliceBounds is how Python's slice.indices clamps a bound.
func sliceBounds(i, n, step int) int {
	if i < 0 {
		i += n
		if i < 0 {
			if step < 0 {
				return -1
			}
			return 0
		}
	}
	if i >= n {
		if step < 0 {
			return n - 1
		}
		return n
	}
	return i
}

// extractField is extract_field: a dotted path through objects; def when
// the path is empty, or a step finds no object or no value (None included).
func extractField(data any, path string, def any) any {
	if path == "" {
		return def
	}
	v := data
	for _, key := range strings.Split(path, ".") {
		obj, ok := v.(map[string]any)
		if !ok {
			return def
		}
		if v = obj[key]; v == nil {
			return def
		}
	}
	return v
}

// extractIndexed is extract_with_array_indices: a path whose steps may
// index lists; nil when it finds nothing.
func extractIndexed(data any, path string) (any, error) {
	if path == "" {
		return data, nil
	}
	p, indexed := parseIndexPath(path)
	if !indexed {
		return extractField(data, path, nil), nil
	}
	list, ok := extractField(data, p.base, nil).([]any)
	if !ok {
		return nil, nil
	}
	v, found, err := p.at(list)
	if err != nil || !found {
		return nil, err
	}
	if p.remaining != "" {
		return extractIndexed(v, p.remaining)
	}
	return v, nil
}

// fromContextStore is extract_from_context_store: without input_key the
// whole store; else the value at the key's path, named after the path's
// last step (a plain key's object merged), and with an index the element
// named after the list or, with a path after the index, after its last
// step. A value that is not an object with no name comes back as it is.
func fromContextStore(store map[string]any, key string) (any, error) {
	if key == "" {
		return maps.Clone(store), nil
	}
	p, indexed := parseIndexPath(key)
	v := extractField(store, p.base, nil)
	switch {
	case v == nil:
		return map[string]any{}, nil
	case indexed:
		return fromIndexed(v, p)
	case strings.Contains(p.base, "."):
		return valueToDict(v, lastStep(p.base)), nil
	}
	return valueToDict(v, ""), nil
}

// fromIndexed is handle_array_indexing.
func fromIndexed(v any, p indexPath) (any, error) {
	list, ok := v.([]any)
	if !ok {
		return map[string]any{}, nil
	}
	v, found, err := p.at(list)
	if err != nil || !found {
		return map[string]any{}, err
	}
	if p.remaining == "" {
		return valueToDict(v, lastStep(p.base)), nil
	}
	if v, err = extractIndexed(v, p.remaining); err != nil || v == nil {
		return map[string]any{}, err
	}
	// The name is the last step with non-negative indices removed, as the
	// engine's pattern \[\d+\] removes them: "tags[-1]" stays whole.
	return valueToDict(v, lastStep(positiveIndex.ReplaceAllString(p.remaining, ""))), nil
}

var positiveIndex = regexp.MustCompile(`\[\d+\]`)

func lastStep(path string) string { return path[strings.LastIndex(path, ".")+1:] }

// valueToDict is parse_value_to_dict: a value under name, or without a
// name an object merged (anything else returned as it is); text is first
// parsed as JSON when it can be.
func valueToDict(v any, name string) any {
	if s, ok := v.(string); ok {
		if parsed, err := impl.DecodeValue([]byte(s)); err == nil {
			v = parsed
		}
	}
	if name == "" {
		if obj, ok := v.(map[string]any); ok {
			return maps.Clone(obj)
		}
		return v
	}
	return map[string]any{name: v}
}

// applyMappings is _apply_mappings: each mapping in order, over the source
// data and the fields computed before it. A failing mapping fails the
// node, or with on_error "partial" is left out.
func applyMappings(source map[string]any, mappings []any, partial bool) (*ordered, error) {
	out := &ordered{}
	for _, m := range mappings {
		context := maps.Clone(source)
		out.copyTo(context)
		field, v, err := applyMapping(context, m)
		if err != nil {
			if e := (notJSON{}); partial && !errors.As(err, &e) {
				continue
			}
			return nil, err
		}
		out.set(field, v)
	}
	return out, nil
}

// applyMapping is _apply_mapping: the output field and its value.
func applyMapping(context map[string]any, m any) (string, any, error) {
	mapping, ok := m.(map[string]any)
	if !ok {
		return "", nil, fmt.Errorf("'%s' object has no attribute 'get'", pyType(m))
	}
	field, _ := mapping["output_field"].(string)
	if !pyexpr.Truthy(mapping["output_field"]) {
		return "", nil, errors.New("Mapping must have 'output_field'")
	} else if field == "" {
		field = pyexpr.Str(mapping["output_field"])
	}
	text := func(key string) string {
		s, _ := mapping[key].(string)
		return s
	}
	var v any
	var err error
	switch kind := configString(mapping, "type", "extract"); kind {
	case "extract":
		v = extractField(context, text("source_path"), mapping["default"])
	case "condition":
		v = mappingCondition(context, text("condition"), mapping["then_value"], mapping["else_value"])
	case "template":
		v, err = mappingTemplate(context, text("template"))
	case "constant":
		v = mapping["value"]
	case "script":
		v, err = mappingScript(context, text("script"))
	case "array_map":
		v = mapArray(context, text("source_path"), text("item_field"), text("filter_condition"))
	default:
		err = errors.New("Unknown mapping type: " + kind)
	}
	return field, v, err
}

// mappingCondition is _evaluate_condition: then_value when the condition
// holds; else_value when it does not, is empty or fails.
func mappingCondition(context map[string]any, condition string, then, otherwise any) any {
	if condition == "" {
		return otherwise
	}
	if v, err := safeEval(condition, context); err == nil && pyexpr.Truthy(v) {
		return then
	}
	return otherwise
}

// mappingScript is _evaluate_script: the expression's value, as JSON.
func mappingScript(context map[string]any, script string) (any, error) {
	if script == "" {
		return nil, nil
	}
	v, err := safeEval(script, context)
	if err != nil {
		return nil, errors.New("Script execution failed: " + err.Error())
	}
	return fromPython(v)
}

// mappingTemplate is _render_template: the template rendered over the
// data in a sandbox (runtime/jinja, RenderSecure).
func mappingTemplate(context map[string]any, template string) (string, error) {
	if template == "" {
		return "", nil
	}
	out, err := jinja.RenderSecure(template, context)
	if err != nil {
		return "", errors.New("Template rendering failed: " + err.Error())
	}
	return out, nil
}

// safeEval is the engine's safe_eval (runtime/pyexpr) with the data as its
// variables. The engine wraps object variables so that `a.b` reads key b
// of a (DotDict); pyexpr reads objects as dicts, so such an attribute is an
// error here.
func safeEval(src string, vars map[string]any) (any, error) {
	e, err := pyexpr.Parse(src)
	if err != nil {
		return nil, fmt.Errorf("Expression has invalid syntax '%s': %v", src, err)
	}
	return e.Eval(vars)
}

// fromPython is a Python value as JSON, as json.dumps takes it: through its
// repr, read back as a literal; a value with none (a set, a function) is a
// TypeError, as json.dumps raises.
func fromPython(v any) (any, error) {
	repr := pyexpr.Repr(v)
	parsed, ok := parsePython(repr)
	if _, isObject := parsed.(map[string]any); ok && (isObject || !strings.HasPrefix(repr, "{")) {
		return parsed, nil
	}
	// A set prints as {...} but reads back as no object.
	return nil, notJSON{err: &impl.Error{Name: "TypeError", Cause: "Object of type " + pyType(v) + " is not JSON serializable"}}
}

// notJSON is a value json.dumps fails on, in post_process_output: it fails
// the state whatever on_error says.
type notJSON struct{ err *impl.Error }

func (e notJSON) Error() string { return e.err.Error() }

// mapArray is _map_array: the list at the path, each item kept when the
// filter holds of it (with `item` beside the data; a failing filter drops
// the item) and read at item_field; items that give None are left out.
// What is no list gives an empty one.
func mapArray(context map[string]any, path, itemField, filter string) any {
	list, ok := extractField(context, path, []any{}).([]any)
	if !ok {
		return []any{}
	}
	var filterExpr *pyexpr.Expr
	if filter != "" {
		var err error
		if filterExpr, err = pyexpr.Parse(filter); err != nil {
			return []any{} // every item's filter fails
		}
	}
	out := []any{}
	for _, item := range list {
		if filterExpr != nil {
			vars := map[string]any{"item": item}
			maps.Copy(vars, context) // the data wins over `item`, as the engine's update does
			if v, err := filterExpr.Eval(vars); err != nil || !pyexpr.Truthy(v) {
				continue
			}
		}
		if v := itemValue(item, itemField); v != nil {
			out = append(out, v)
		}
	}
	return out
}

// itemValue is _extract_item_value: the item, or its field. The engine
// reads a field of an item that is no object as a Python attribute, which
// for JSON values is a method or nothing; flowc takes nothing.
func itemValue(item any, field string) any {
	if field == "" {
		return item
	}
	if obj, ok := item.(map[string]any); ok {
		return obj[field]
	}
	return nil
}

// validateTransform is _validate_output: the required fields must be
// there, and the fields the schema types are coerced to their type.
func validateTransform(out *ordered, schema any) (*ordered, error) {
	s, ok := schema.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("'%s' object has no attribute 'get'", pyType(schema))
	}
	required, _ := s["required"].([]any)
	for _, field := range required {
		if _, ok := out.values[pyexpr.Str(field)]; !ok {
			return nil, fmt.Errorf("Required field missing: %s", pyexpr.Str(field))
		}
	}
	properties, _ := s["properties"].(map[string]any)
	for _, k := range out.keys {
		prop, ok := properties[k].(map[string]any)
		if !ok {
			continue
		}
		v, err := coerce(out.values[k], prop["type"])
		if err != nil {
			return nil, fmt.Errorf("Output validation failed: %v", err)
		}
		out.values[k] = v
	}
	return out, nil
}

// coerce is _coerce_field_type: Python's str, int, bool or float of a value
// not of the type already (a bool counts as an integer and a number, as in
// Python).
func coerce(v any, typ any) (any, error) {
	kind := pyexpr.Repr(v)
	switch typ {
	case "string":
		if _, ok := v.(string); !ok {
			return pyexpr.Str(v), nil
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return pyexpr.Truthy(v), nil
		}
	case "integer":
		if !isPyInt(v) {
			return pyInt(v, kind)
		}
	case "number":
		if _, ok := v.(bool); !ok && !isNumber(v) {
			return pyFloat(v, kind)
		}
	}
	return v, nil
}

func isNumber(v any) bool {
	_, ok := v.(json.Number)
	return ok
}

// isPyInt reports whether Python reads v as an int: a bool or a JSON
// integer.
func isPyInt(v any) bool {
	switch v := v.(type) {
	case bool:
		return true
	case json.Number:
		return !strings.ContainsAny(string(v), ".eE")
	}
	return false
}

// pyIntText is the text int() accepts: a sign and digits, single
// underscores between them, spaces around.
var pyIntText = regexp.MustCompile(`^[+-]?\d+(_\d+)*$`)

// pyInt is Python's int(v): a float truncated, a string of digits read.
func pyInt(v any, repr string) (any, error) {
	switch v := v.(type) {
	case json.Number:
		f, _ := new(big.Float).SetString(string(v))
		if f == nil {
			return nil, fmt.Errorf("cannot convert float %s to integer", v)
		}
		i, _ := f.Int(nil)
		return json.Number(i.String()), nil
	case string:
		s := strings.TrimSpace(v)
		if !pyIntText.MatchString(s) {
			return nil, fmt.Errorf("invalid literal for int() with base 10: %s", repr)
		}
		i, _ := new(big.Int).SetString(strings.ReplaceAll(s, "_", ""), 10)
		return json.Number(i.String()), nil
	}
	return nil, fmt.Errorf("int() argument must be a string, a bytes-like object or a real number, not '%s'", pyType(v))
}

// pyFloatText is the finite text float() accepts.
var pyFloatText = regexp.MustCompile(`^[+-]?(\d+(_\d+)*(\.(\d+(_\d+)*)?)?|\.\d+(_\d+)*)([eE][+-]?\d+(_\d+)*)?$`)

// pyFloat is Python's float(v) of a string. Python also reads "nan" and
// "inf", which JSON cannot hold: those are errors here.
func pyFloat(v any, repr string) (any, error) {
	s, ok := v.(string)
	if !ok {
		return nil, fmt.Errorf("float() argument must be a string or a real number, not '%s'", pyType(v))
	}
	s = strings.TrimSpace(s)
	if !pyFloatText.MatchString(s) {
		return nil, fmt.Errorf("could not convert string to float: %s", repr)
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(s, "_", ""), 64)
	if err != nil {
		return nil, fmt.Errorf("could not convert string to float: %s", repr)
	}
	return json.Number(pyexpr.Repr(f)), nil
}

// pyType is the Python type name of a JSON value.
func pyType(v any) string {
	switch v := v.(type) {
	case nil:
		return "NoneType"
	case bool:
		return "bool"
	case string:
		return "str"
	case json.Number:
		if isPyInt(v) {
			return "int"
		}
		return "float"
	case []any:
		return "list"
	case map[string]any, *ordered:
		return "dict"
	}
	return fmt.Sprintf("%T", v)
}
