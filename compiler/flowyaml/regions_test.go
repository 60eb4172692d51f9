package flowyaml

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/ir"
)

func lowerText(t *testing.T, src string) *ir.Workflow {
	t.Helper()
	r := &yamlx.Reader{File: "t.flow.yaml"}
	root := r.Parse([]byte(src))
	require.NotNil(t, root, r.Diags.Lines())
	w := Lower(r, root, Defaults{Stem: "t", Package: "p"})
	require.False(t, r.Diags.HasErrors(), r.Diags.Lines())
	return w
}

// describe renders a region without positions: positions are tested by the
// error goldens.
func describe(r *ir.Region) string {
	ids := func(refs []ir.Ref) string {
		var out []string
		for _, ref := range refs {
			out = append(out, ref.ID)
		}
		return strings.Join(out, " ")
	}
	if r.Kind == ir.RegionMap {
		return fmt.Sprintf("map from %s over %q %q (max %d): [%s] then %s", r.From, r.Items, r.ItemsPath, r.MaxConcurrency, ids(r.Body), r.After.ID)
	}
	var branches []string
	for _, b := range r.Branches {
		branches = append(branches, "["+ids(b)+"]")
	}
	return fmt.Sprintf("parallel from %s: %s join %s", r.From, strings.Join(branches, " "), r.Join.ID)
}

func TestRegions(t *testing.T) {
	tests := []struct {
		name, states string
		want         []string
	}{
		{"goto chains", `
  - {id: split, next: {state_ids: [a, b]}}
  - {id: a, next: {state_id: a2}}
  - {id: b, next: {state_id: join}}
  - {id: a2, next: {state_id: join}}
  - {id: join}`, []string{"parallel from split: [a a2] [b] join join"}},
		{"conditions and catches inside a branch", `
  - {id: split, next: {state_ids: [a, b]}}
  - {id: a, catch: [{next: fix}], next: {condition: {expression: "x", then: join, otherwise: more}}}
  - {id: more, next: {state_id: join}}
  - {id: fix, next: {state_id: join}}
  - {id: b, next: {state_id: join}}
  - {id: join, next: {state_id: split}}`, []string{"parallel from split: [a more fix] [b] join join"}},
		{"branches that all end join at the end", `
  - {id: split, next: {state_ids: [a, b]}}
  - {id: a}
  - {id: b, end: true}`, []string{"parallel from split: [a] [b] join end"}},
		{"multi-stage chain", `
  - {id: split, next: {state_id: p, iter_key: chunks, max_concurrency: 3}}
  - {id: p, next: {state_id: v, iter_key: chunks}}
  - {id: v, next: {state_id: merge}}
  - {id: merge, next: {state_id: each, iter_key: "/a~1b/~0c/0"}}
  - {id: each, next: {state_id: end}}`, []string{
			`map from split over "chunks" ["chunks"] (max 3): [p v] then merge`,
			`map from merge over "/a~1b/~0c/0" ["a/b" "~c" "0"] (max 0): [each] then end`,
		}},
		{"the whole output", `
  - {id: split, next: {state_id: each, iter_key: .}}
  - {id: each}`, []string{`map from split over "." [] (max 0): [each] then end`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := lowerText(t, "state: {x: bool, chunks: \"[]string\"}\nstates:"+tc.states+"\n")
			var got []string
			for _, r := range w.Regions {
				got = append(got, describe(r))
				assert.Same(t, r, w.State(r.From).Next.Region)
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

// The transitions that continue a chain stay gotos; the one that starts it
// becomes TransMap.
func TestChainTransitions(t *testing.T) {
	w := lowerText(t, `state: {items: "[]string"}
states:
  - {id: a, next: {state_id: b, iter_key: items}}
  - {id: b, next: {state_id: c, iter_key: items}}
  - {id: c, next: {state_id: d}}
  - {id: d}
`)
	kinds := map[string]ir.TransitionKind{}
	for _, s := range w.States {
		kinds[s.ID] = s.Next.Kind
	}
	assert.Equal(t, map[string]ir.TransitionKind{"a": ir.TransMap, "b": ir.TransGoto, "c": ir.TransGoto, "d": ir.TransEnd}, kinds)
	assert.Nil(t, w.RegionOf("a"))
	assert.Equal(t, "a", w.RegionOf("c").From)
	assert.Nil(t, w.RegionOf("d"))
}

func TestParseIterKey(t *testing.T) {
	for key, want := range map[string][]string{
		"items": {"items"}, ".": nil, "/": {""}, "/a/b": {"a", "b"}, "/~01": {"~1"}, "/a~1b": {"a/b"},
	} {
		got, why := parseIterKey(key)
		assert.Empty(t, why, key)
		assert.Equal(t, want, got, key)
	}
	for _, bad := range []string{"", " ", "/a~", "/a~2"} {
		_, why := parseIterKey(bad)
		assert.NotEmpty(t, why, bad)
	}
}
