package compiler_test

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/flowc-dev/flowc/internal/gocheck"
)

// FuzzNames puts arbitrary text where definitions name things and hold
// strings: state ids, handler and resource names, field and variable
// names, descriptions, comments, literals, `when` values, error names.
// Byte-level mutation of whole files rarely gets past the YAML parser
// with a name intact; here the definition around the text is always well
// formed, written as JSON (which is YAML), so the fuzzer spends its time
// on the names themselves. The property is compileAndCheck's: either a
// clear, positioned rejection, or Go that type-checks, with no block
// comment and no directive, whatever the text.
func FuzzNames(f *testing.F) {
	hostile := []string{
		"fix-error", "fix_error", "func", "type", "1st", "日本", "ǅemo", "end", "Run", "h", "cfg",
		"step_foo", "foo_policy", "*/ func init() { panic(1) } /*", "\n//go:generate touch pwned\n",
		"`", `"`, `\`, "a\u2028b", "\x00", "With", "unmarshal_json", "ALL", "States.ALL", "x.$",
	}
	if err := gocheck.Preload(); err != nil {
		f.Fatal(err)
	}
	for i, s := range hostile {
		next := hostile[(i+1)%len(hostile)]
		for dialect := range 4 {
			f.Add(uint8(dialect), s, next, "c", s, "status", s, s)
			f.Add(uint8(dialect), "a", "b", s, "work", s, next, "desc")
		}
	}
	f.Fuzz(func(t *testing.T, dialect uint8, a, b, c, h, k, v, d string) {
		n := names{a: a, b: b, c: c, h: h, k: k, v: v, d: d}
		build := []func(names) (string, any){nativeDef, aslDef, chainDef, jsonDef}[int(dialect)%4]
		file, def := build(n)
		src, err := json.MarshalIndent(def, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		defer watchdog(src).Stop()
		compileAndCheck(t, filepath.Join("fuzzpkg", file), src)
	})
}

// names is the fuzzed text: three state ids, a handler, a key (field,
// variable or parameter name), a value and a description.
type names struct{ a, b, c, h, k, v, d string }

type obj = map[string]any
type list = []any

// nativeDef is a typed workflow that uses every naming and string site of
// flowc YAML: switch, actions, branches, retry, catch, tool args
// and an approval.
func nativeDef(n names) (string, any) {
	return "fuzz.flow.yaml", obj{
		"workflow":    n.d,
		"description": n.d,
		"state":       obj{"status": "string", n.k: obj{"type": "int", "reducer": "add"}},
		"states": list{
			obj{"id": n.a, "handler": n.h, "description": n.d, "timeout": "1s",
				"tool_args": obj{n.k: n.v},
				"retry":     list{obj{"errors": list{n.v}, "max_attempts": 2, "interval": "1ms"}},
				"catch":     list{obj{"errors": list{n.v}, "next": n.c}},
				"next": obj{"switch": obj{
					"cases":   list{obj{"condition": "status == " + strconv.Quote(n.v), "state_id": n.b}},
					"default": n.c}}},
			obj{"id": n.b, "next": obj{"actions": obj{n.v: n.c, "default": n.c}}},
			obj{"id": n.c, "next": obj{"branches": list{
				obj{"operator": "equals", "when": n.v, "goto": "end"},
				obj{"operator": "starts_with", "when": n.v, "goto": n.a},
				obj{"operator": "default", "goto": "review"}}}},
			obj{"id": "review", "type": "approval", "prompt": n.d, "options": list{n.v, n.k}, "timeout": "1h",
				"next": obj{"switch": obj{
					"cases":   list{obj{"condition": "decision == " + strconv.Quote(n.v), "state_id": n.a}},
					"default": "end"}}},
		},
	}
}

// jsonDef is a workflow without a schema (JSON mode): templates, tool
// arguments, a condition over the last output and an iteration, all
// named and filled with the fuzzed text.
func jsonDef(n names) (string, any) {
	return "fuzz.flow.yaml", obj{
		"workflow":    n.d,
		"description": n.d,
		"states": list{
			obj{"id": n.a, "assistant_id": n.h, "task": n.v + " {{" + n.k + "}}", "tool_args": obj{n.k: n.v},
				"retry": list{obj{"errors": list{n.v}, "max_attempts": 2, "interval": "1ms"}},
				"catch": list{obj{"errors": list{n.v}, "next": n.c}},
				"next": obj{"switch": obj{
					"cases":   list{obj{"condition": "status == " + strconv.Quote(n.v), "state_id": n.b}},
					"default": n.c}}},
			obj{"id": n.b, "tool_id": n.h, "task": n.d, "next": obj{"state_id": "each", "iter_key": n.k}},
			obj{"id": "each", "assistant_id": n.k, "task": "{{task}} " + n.d, "next": obj{"state_id": n.c}},
			obj{"id": n.c, "assistant_id": n.h},
		},
	}
}

// aslDef is a state machine with a Task, Choice, Pass, Map and Fail whose
// names, parameters, literals and errors are the fuzzed text.
func aslDef(n names) (string, any) {
	return "fuzz.asl.json", obj{
		"Comment": n.d,
		"StartAt": n.a,
		"States": obj{
			n.a: obj{"Type": "Task", "Resource": n.h, "Comment": n.d,
				"Parameters": obj{n.k: n.v, "p.$": "$.x"}, "ResultPath": "$.r",
				"Retry": list{obj{"ErrorEquals": list{n.v}, "MaxAttempts": 1}},
				"Catch": list{obj{"ErrorEquals": list{"States.ALL"}, "Next": n.c}},
				"Next":  n.b},
			n.b: obj{"Type": "Choice", "Choices": list{
				obj{"Variable": "$.x", "StringEquals": n.v, "Next": n.c},
				obj{"Variable": "$.x", "StringMatches": n.v, "Next": "fail"}}, "Default": n.c},
			n.c: obj{"Type": "Map", "ItemsPath": "$.items", "Next": "fail", "ItemProcessor": obj{
				"StartAt": n.k, "States": obj{n.k: obj{"Type": "Pass", "Result": obj{n.k: n.v}, "End": true}}}},
			"fail": obj{"Type": "Fail", "Error": n.v, "Cause": n.d},
		},
	}
}

// chainDef is a task chain whose ids, handlers, template, `when` values and
// variables are the fuzzed text.
func chainDef(n names) (string, any) {
	return "fuzz.chain.json", obj{
		"description": n.d,
		"tasks": list{
			obj{"id": n.a, "handler": n.h, "prompt_template": n.v, "transition": obj{
				"on_failure": n.c,
				"branches": list{
					obj{"operator": "equals", "when": n.v, "goto": n.b, "compose": obj{"with_var": n.k}},
					obj{"operator": "contains", "when": n.d, "goto": n.c},
					obj{"operator": "default", "goto": "end"}}}},
			obj{"id": n.b, "handler": n.d, "transition": obj{"branches": list{obj{"operator": "default", "goto": "end"}}}},
			obj{"id": n.c, "handler": "prompt_to_string", "prompt_template": n.d},
		},
	}
}
