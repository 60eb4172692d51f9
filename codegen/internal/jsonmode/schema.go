package jsonmode

import (
	"encoding/json"
	"go/token"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/internal/naming"
)

// Go types for output schemas. A state whose output_schema maps onto Go
// without a choice to make gets a struct its handler can fill and encode:
// objects with properties become structs (required keys plain fields,
// others pointers or omitempty), arrays slices, and string, integer,
// number and boolean their Go types. A schema with anyOf, oneOf, allOf,
// several types, or keys that make no distinct Go names gets none.

// outputTypes declares the output type of each state that has one.
func (g *jsonGen) outputTypes(f *jen.File) {
	for _, s := range g.w.States {
		if s.CodeMie == nil || s.CodeMie.OutputSchema == "" {
			continue
		}
		var schema map[string]any
		if json.Unmarshal([]byte(s.CodeMie.OutputSchema), &schema) != nil {
			continue
		}
		typ, ok := schemaType(schema)
		if !ok || schema["type"] != "object" {
			continue
		}
		name := g.ids.Fresh(g.w.Name + s.GoName + "Output")
		f.Line()
		f.Add(emit.Comment(name + " is the output of state " + emit.Quote(s.ID) + " as its output_schema describes it; encode it as JSON to return it."))
		f.Type().Id(name).Add(typ)
	}
}

// schemaType is the Go type of a schema; false when it is ambiguous.
func schemaType(s map[string]any) (*jen.Statement, bool) {
	for _, k := range []string{"anyOf", "oneOf", "allOf", "not", "$ref"} {
		if _, ok := s[k]; ok {
			return nil, false
		}
	}
	t, _ := s["type"].(string)
	switch t {
	case "string":
		return jen.String(), true
	case "integer":
		return jen.Int64(), true
	case "number":
		return jen.Float64(), true
	case "boolean":
		return jen.Bool(), true
	case "array":
		items, ok := s["items"].(map[string]any)
		if !ok {
			return jen.Index().Any(), true
		}
		elem, ok := schemaType(items)
		return jen.Index().Add(elem), ok
	case "object":
		return objectType(s)
	}
	return nil, false
}

// objectType is the struct of an object's properties, or a map when it
// declares none.
func objectType(s map[string]any) (*jen.Statement, bool) {
	props, _ := s["properties"].(map[string]any)
	if len(props) == 0 {
		return jen.Map(jen.String()).Any(), true
	}
	required, _ := s["required"].([]any)
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var fields []jen.Code
	seen := map[string]bool{}
	for _, k := range keys {
		name := naming.Exported(k)
		sub, isMap := props[k].(map[string]any)
		if name == "" || !token.IsIdentifier(name) || seen[name] || !isMap || !tagSafe(k) {
			return nil, false
		}
		seen[name] = true
		typ, ok := schemaType(sub)
		if !ok {
			return nil, false
		}
		tag := k
		if !slices.Contains(required, any(k)) {
			tag += ",omitempty"
			if t := sub["type"]; t != "array" && t != "object" || sub["properties"] != nil {
				typ = jen.Op("*").Add(typ)
			}
		}
		fields = append(fields, jen.Id(name).Add(typ).Tag(map[string]string{"json": tag}))
	}
	return jen.Struct(fields...), true
}

// tagSafe reports whether a key can be written in a json struct tag as it
// is: encoding/json would read a comma, and quotes or backslashes would
// break the tag.
func tagSafe(k string) bool {
	return k != "-" && !strings.ContainsAny(k, ",\"`\\") && !strings.ContainsFunc(k, emit.Unprintable)
}
