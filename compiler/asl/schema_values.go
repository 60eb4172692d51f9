package asl

import "github.com/flowc-dev/flowc/internal/schemagen"

// The value types the schema gives the fields the front-end reads with a
// fixed type in both query languages; the other fields take any value
// (paths, templates and JSONata strings are the front-end's to check).
var (
	errorNames   = map[string]any{"type": "array", "minItems": 1, "items": schemagen.String}
	retrierTypes = map[string]any{
		"ErrorEquals": errorNames, "IntervalSeconds": schemagen.Integer, "MaxAttempts": schemagen.Integer,
		"BackoffRate": schemagen.Number, "MaxDelaySeconds": schemagen.Integer, "MaxIntervalSeconds": schemagen.Integer,
		"JitterStrategy": schemagen.String, "Comment": schemagen.String,
	}
	catcherTypes = map[string]any{"ErrorEquals": errorNames, "Next": schemagen.String, "Comment": schemagen.String}
	stateTypes   = map[string]any{
		"Next": schemagen.String, "End": schemagen.Boolean,
		"Template": schemagen.String, "EntryPoint": schemagen.String, "ExitPoint": schemagen.String, "WorkflowId": schemagen.String,
		"Override": map[string]any{
			"type": "object", "additionalProperties": false,
			"properties": map[string]any{"States": schemagen.MapOf(map[string]any{"type": "object"})},
		},
	}
	// compositionTypes are the machine's composition fields.
	compositionTypes = map[string]any{
		"Module": schemagen.Boolean, "Exports": schemagen.StringList, "Imports": schemagen.StringMap, "HandlerImports": schemagen.StringList, "_lock": schemagen.StringMap,
	}
	// operandTypes are the schemas of choice rule operands, by kind.
	operandTypes = map[operandKind]any{
		opString: map[string]any{"type": "string"}, opNumber: schemagen.Number, opBool: schemagen.Boolean,
		opCheck: schemagen.Boolean, opTimestamp: map[string]any{"type": "string"},
	}
)

// typed gives the fields of object o that have a type in types that type,
// or a template placeholder ("{{maxRetries}}"), which flowc substitutes
// before it reads the field.
func typed(o map[string]any, types map[string]any) map[string]any {
	props := o["properties"].(map[string]any)
	for k, v := range types {
		if _, ok := props[k]; ok {
			props[k] = map[string]any{"anyOf": []any{v, placeholderValue}}
		}
	}
	return o
}

var placeholderValue = map[string]any{"type": "string", "pattern": `^\{\{.*\}\}$`}

// ruleTypes are the comparisons' operand types and a rule's Next.
func ruleTypes() map[string]any {
	types := map[string]any{"Next": schemagen.String}
	for op, kind := range comparisons {
		if t, ok := operandTypes[kind]; ok {
			types[op] = t
		}
	}
	return types
}
