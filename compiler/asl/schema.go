package asl

import (
	"encoding/json"
	"slices"

	"github.com/flowc-dev/flowc/ir"
)

// Schema returns the JSON Schema (draft 2020-12) of the state machines
// flowc accepts, built from the same field tables the front-end checks
// with: the fields of the machine, of each state type, of choice rules,
// retriers and catchers, and the shape of nested machines. It checks
// structure and field names; values are the front-end's business, so the
// schema accepts every definition flowc does, and some it rejects.
func Schema() ([]byte, error) {
	anyValue := map[string]any{}
	machine := func(extra ...string) map[string]any {
		m := object(append(slices.Clone(machineKeys), extra...), anyValue)
		m["required"] = []string{"StartAt", "States"}
		setField(m, "StartAt", map[string]any{"type": "string"})
		setField(m, "States", ref("states"))
		return m
	}
	root := typed(machine(topKeys...), compositionTypes)
	// An Agent State Language module may go without StartAt.
	root["required"] = []string{"States"}
	root["if"] = map[string]any{"required": []string{"Module"}, "properties": map[string]any{"Module": map[string]any{"const": true}}}
	root["else"] = map[string]any{"required": []string{"StartAt"}}
	root["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	root["title"] = "States Language state machine (as flowc accepts it)"
	root["$defs"] = map[string]any{
		"states":    map[string]any{"type": "object", "minProperties": 1, "additionalProperties": ref("state")},
		"state":     stateSchema(),
		"branch":    machine(),
		"processor": machine("ProcessorConfig"),
		"rule":      ruleSchema(),
		"retrier":   typed(object(retrierKeys, anyValue), retrierTypes),
		"catcher":   typed(object(catcherKeys, anyValue), catcherTypes),
	}
	return json.MarshalIndent(root, "", "  ")
}

// stateSchema allows each type its own fields.
func stateSchema() map[string]any {
	var byType []any
	for _, t := range typeNames {
		fields := typed(object(stateFields[irType(t)], map[string]any{}), stateTypes)
		setField(fields, "Type", map[string]any{"const": t})
		for k, v := range nestedFields {
			if slices.Contains(stateFields[irType(t)], k) {
				setField(fields, k, v)
			}
		}
		byType = append(byType, map[string]any{
			"if":   map[string]any{"properties": map[string]any{"Type": map[string]any{"const": t}}},
			"then": fields,
		})
	}
	return map[string]any{
		"type":       "object",
		"required":   []string{"Type"},
		"properties": map[string]any{"Type": map[string]any{"enum": typeNames}},
		"allOf":      byType,
	}
}

// nestedFields are the state fields whose values are machines, rules,
// retriers or catchers.
var nestedFields = map[string]any{
	"Branches":      map[string]any{"type": "array", "items": ref("branch")},
	"Iterator":      ref("branch"),
	"ItemProcessor": ref("processor"),
	"Choices":       map[string]any{"type": "array", "items": ref("rule")},
	"Retry":         map[string]any{"type": "array", "items": ref("retrier")},
	"Catch":         map[string]any{"type": "array", "items": ref("catcher")},
}

func ruleSchema() map[string]any {
	r := typed(object(ruleKeys, map[string]any{}), ruleTypes())
	setField(r, "And", map[string]any{"type": "array", "items": ref("rule")})
	setField(r, "Or", map[string]any{"type": "array", "items": ref("rule")})
	setField(r, "Not", ref("rule"))
	return r
}

// object is an object schema with the given fields, each of schema v,
// and no others.
func object(fields []string, v any) map[string]any {
	props := map[string]any{}
	for _, f := range fields {
		props[f] = v
	}
	return map[string]any{"type": "object", "properties": props, "additionalProperties": false}
}

func setField(o map[string]any, name string, v any) {
	o["properties"].(map[string]any)[name] = v
}

func ref(def string) map[string]any { return map[string]any{"$ref": "#/$defs/" + def} }

func irType(t string) ir.ASLType { return ir.ASLType(t) }
