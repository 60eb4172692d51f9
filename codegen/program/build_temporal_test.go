package program_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/codegen/program"
	"github.com/flowc-dev/flowc/compiler"
)

// TestBuildTemporalMainBindsHandlers: the program of `flowc build --target
// temporal` binds the same handlers.go as the native one (BuildMain), and
// registers the workflow with them on the server's worker (issue 22 item 3).
func TestBuildTemporalMainBindsHandlers(t *testing.T) {
	user := &program.UserHandlers{Import: "example.com/mine/tools", Type: "Tools", Pointer: true,
		Methods: map[string]bool{"ExecuteToolCalls": true}}
	native, _ := buildMain(t, "desk.chain.yaml", buildChain, user)
	w, ds := compiler.Compile("desk.chain.yaml", []byte(buildChain), compiler.Options{NoPackage: true})
	require.False(t, ds.HasErrors(), "%v", ds)
	mains, missing, err := program.BuildTemporalMain(w, "flowcbuild/wf", user)
	require.NoError(t, err)
	require.Empty(t, missing)
	require.Len(t, mains, 2)
	assert.Equal(t, native[1], mains[1], "handlers.go is the native program's")
	main := string(mains[0].Content)
	assert.Equal(t, "main.go", mains[0].Name)
	assert.Contains(t, main, "flowtemporal.BuildMain(os.Args, os.Stdin, os.Stdout, os.Stderr, flowtemporal.Program{")
	assert.Contains(t, main, "return func(r worker.Registry) { wf.RegisterDesk(r, newHandlers(env)) }, nil")
	assert.Contains(t, main, "var out flowcrt.ChainState", "a chain's result decodes as its state")
	assert.Contains(t, main, "flowcimpl.DecodeChainInput(input)", "the input is checked as the native program checks it")
}

func TestBuildTemporalMainMissing(t *testing.T) {
	w, ds := compiler.Compile("desk.chain.yaml", []byte(buildChain), compiler.Options{NoPackage: true})
	require.False(t, ds.HasErrors(), "%v", ds)
	mains, missing, err := program.BuildTemporalMain(w, "flowcbuild/wf", nil)
	require.NoError(t, err)
	assert.Nil(t, mains, "nothing without every handler")
	require.Len(t, missing, 1)
	assert.Equal(t, "ExecuteToolCalls", missing[0].Method)
}
