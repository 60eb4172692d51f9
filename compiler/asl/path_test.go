package asl

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/ir"
)

// parsePath checks paths with runtime/jsonpath (Jayway's grammar, see
// docs/jsonpath.md) and reads the root ($, $$, $name) itself.
func TestParsePath(t *testing.T) {
	for _, src := range []string{
		`$[?(@.key==42)]`,
		`$.TranslatedTexts[?(@.TargetLanguageCode==es)].TranslatedText`,
		`$[?(@.key=='value')]`,
		`$..[0]`,
		`$[3:0:-2]`,
		`$[?(1==1)]`,
		`$.a[?(@.b =~ /x.*/i && @.c in [1,2])]`,
		`$$.Execution.Input[?(@.n > 1)]`,
		`$items[0].name`,
		`$.items.length()`,
	} {
		_, err := parsePath(src, false, true)
		assert.Nil(t, err, src)
	}
}

func TestParsePathRoots(t *testing.T) {
	p, err := parsePath(`$$.Map.Item.Value`, false, true)
	require.Nil(t, err)
	assert.True(t, p.Context)
	p, err = parsePath(`$count.total`, false, true)
	require.Nil(t, err)
	assert.Equal(t, "count", p.Var)
	assert.Empty(t, p.Segments, "the runtime reads a path that is not a reference path from its text")
}

func TestParsePathErrors(t *testing.T) {
	cases := []struct {
		src       string
		reference bool
		at        int
		msg       string
	}{
		{`input`, false, 0, "starts with `$`"},
		{`$.a[`, false, 3, "unclosed `[`"},
		{`$$.a[`, false, 4, "unclosed `[`"},
		{`$v.a[`, false, 4, "unclosed `[`"},
		{`$$.a[?(@.b <)]`, false, 12, "expected a value"},
		{`$.out[*]`, true, 5, "reference path"},
		{`$.a..b`, true, 3, "reference path"},
		{`$$.x`, true, 0, "context object"},
		{`$x`, true, 0, "variable"},
	}
	for _, c := range cases {
		_, err := parsePath(c.src, c.reference, !c.reference)
		if assert.NotNil(t, err, c.src) {
			assert.Equal(t, c.at, err.At, c.src)
			assert.Contains(t, err.Msg, c.msg, c.src)
		}
	}
}

func TestReferencePathSegments(t *testing.T) {
	p, err := parsePath(`$.a['b c'][-1]`, true, false)
	require.Nil(t, err)
	assert.Equal(t, []ir.Segment{
		{Kind: ir.SegField, Name: "a"},
		{Kind: ir.SegField, Name: "b c"},
		{Kind: ir.SegIndex, Index: -1},
	}, p.Segments)
}
