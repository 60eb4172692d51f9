package program_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/codegen/program"
	"github.com/flowc-dev/flowc/compiler"
)

// The programs of a chain run sessions (issue 22: every dialect has
// them): `flowc build`'s main hands binmain.Main a session function that
// decodes the input as the chain's and calls Invoke, and refuses a
// decision, since a chain has nothing that waits for one; `flowc run`'s
// runner is RunSessionMain's.
func TestChainProgramsRunSessions(t *testing.T) {
	user := &program.UserHandlers{Import: "example.com/mine/tools", Type: "Tools",
		Methods: map[string]bool{"ExecuteToolCalls": true, "Route": true}}
	mains, missing := buildMain(t, "desk.chain.yaml", buildChain, user)
	require.Empty(t, missing)
	main := string(mains[0].Content)
	assert.Contains(t, main, `return nil, flowcimpl.NoDecisions(id, "desk")`)
	assert.Contains(t, main, "in, err = flowcimpl.DecodeChainInput(input)")
	assert.Contains(t, main, "return w.Invoke(ctx, id, in)")

	w, ds := compiler.Compile("desk.chain.yaml", []byte(buildChain), compiler.Options{NoPackage: true})
	require.False(t, ds.HasErrors(), "%v", ds)
	runner, err := program.Runner(w, "flowcrun/wf")
	require.NoError(t, err)
	assert.Contains(t, string(runner.Content), "flowcrun.RunSessionMain(")
}
