package jinja

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/flowc-dev/flowc/internal/sharedtest"
)

type templateCase struct {
	ID       string         `json:"id"`
	Template string         `json:"template"`
	Context  map[string]any `json:"context"`
	Expected string         `json:"expected"`
	Source   string         `json:"source"`
}

// TestConformanceTemplates runs templates.json, converted from
// codemie-ai/codemie tests/codemie/workflows/test_dynamic_value_resolution.py
// (see the suite's README): each template is resolved against its context
// store as the engine's process_string does (dynamic_value_utils.py).
func TestConformanceTemplates(t *testing.T) {
	data := sharedtest.ReadFile(t, "../../../shared/conformance/codemie/templates.json")
	var cases []templateCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			keys := make([]string, 0, len(c.Context))
			for k := range c.Context {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			got := Resolve(c.Template, Store{Keys: keys, Values: c.Context})
			if got != c.Expected {
				t.Fatalf("%s: got %q, want %q", c.Source, got, c.Expected)
			}
		})
	}
}
