package asl_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/compiler"

	"github.com/flowc-dev/flowc/internal/sharedtest"
)

// statelintDir holds the definitions of awslabs/statelint's own tests
// (test/*.json, spec/statelint_spec.rb, spec/state_node_spec.rb,
// test/test_retval.sh), converted by the shared conformance tooling; its
// SOURCE.json names the commit.
const statelintDir = "../../../shared/conformance/statelint/cases"

// statelintCase is one entry of cases/expectations.json: a definition and
// whether statelint accepts it (nil when its spec makes no claim about the
// whole definition).
type statelintCase struct {
	Definition string   `json:"definition"`
	Valid      *bool    `json:"valid"`
	Sources    []string `json:"sources"`
	Messages   []string `json:"messages"`
}

// Every definition statelint judges, `flowc check` judges the same way:
// it goes through compiler.Compile as cmd/flowc's check command does.
func TestStatelintConformance(t *testing.T) {
	raw := sharedtest.ReadFile(t, filepath.Join(statelintDir, "expectations.json"))
	var cases []statelintCase
	require.NoError(t, json.Unmarshal(raw, &cases))
	agree, judged := 0, 0
	for _, c := range cases {
		if c.Valid == nil {
			continue
		}
		judged++
		path := filepath.Join(statelintDir, c.Definition)
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		w, ds := compiler.Compile(path, src, compiler.Options{})
		if assert.Equal(t, *c.Valid, w != nil, "%s (statelint %v, expects %q): flowc says\n%s", c.Definition, c.Sources, c.Messages, ds.Lines()) {
			agree++
		}
		for _, d := range ds.Errors() {
			assert.True(t, d.Pos.Line > 0 && d.Pos.Col > 0, "%s: an error without a position: %s", c.Definition, d)
		}
	}
	t.Logf("flowc judges %d of %d statelint definitions as statelint does", agree, judged)
	assert.Equal(t, 77, judged, "expectations.json has 77 definitions statelint judges")
}
