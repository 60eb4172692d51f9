package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	parentDef = `workflow: Parent
package: main
state:
  n: {type: int, reducer: add}
states:
  - id: work
    flow: child.flow.yaml
    next: {state_id: report}
  - id: report
`
	childDef = `state:
  n: int
states:
  - id: step
`
)

// The parent's generated file holds the child's states, so a changed child
// makes it stale, and the message says which files it depends on.
func TestGenCheckNoticesStaleChild(t *testing.T) {
	dir := t.TempDir()
	parent := writeFile(t, dir, "parent.flow.yaml", parentDef)
	writeFile(t, dir, "child.flow.yaml", childDef)
	code, _, stderr := cli(t, "", "gen", parent)
	require.Equal(t, exitOK, code, stderr)
	code, stdout, stderr := cli(t, "", "gen", "--check", parent)
	require.Equal(t, exitOK, code, "fresh: %s%s", stdout, stderr)

	writeFile(t, dir, "child.flow.yaml", childDef+"    next: {state_id: again}\n  - id: again\n")
	code, stdout, _ = cli(t, "", "gen", "--check", parent)
	assert.Equal(t, exitFailed, code, "a changed child makes the parent stale")
	assert.Contains(t, stdout, filepath.Join(dir, "parent_flow.go")+": stale")
	assert.Contains(t, stdout, "child flows "+filepath.ToSlash(filepath.Join(dir, "child.flow.yaml")))
}

// flowc graph draws the child's states inside a subgraph named after the
// state that runs it.
func TestGraphDrawsChildAsSubgraph(t *testing.T) {
	dir := t.TempDir()
	parent := writeFile(t, dir, "parent.flow.yaml", parentDef)
	writeFile(t, dir, "child.flow.yaml", childDef)
	code, stdout, stderr := cli(t, "", "graph", "--format", "dot", parent)
	require.Equal(t, exitOK, code, stderr)
	cluster := stdout[strings.Index(stdout, "subgraph"):]
	assert.Contains(t, cluster, `label="work: flow child";`+"\n    s0 [label=\"step\"];\n  }")
	assert.Contains(t, stdout, `s0 -> s1 [label="next"];`, "the child's end goes on to the parent's next state")
}

// flowc run finds the child from the parent's path, and the mock config
// names the child's states by their own ids.
func TestRunSupervisorExample(t *testing.T) {
	if testing.Short() {
		t.Skip("flowc run builds with the go tool")
	}
	ex := func(p string) string { return filepath.Join("..", "..", "examples", "supervisor", p) }
	code, stdout, stderr := cli(t, "", "run", ex("supervised.flow.yaml"), "--input", ex("question.json"),
		"--mock-config", ex("mocks.json"), "--test-case", "one-retry")
	require.Equal(t, exitOK, code, "stderr:\n%s", stderr)
	assert.Equal(t, `{"status":"SUCCEEDED","output":{"question":"Who designed Go?","query":"Who designed Go?",`+
		`"context":["Go was designed by Griesemer, Pike and Thompson."],"answer":"Griesemer, Pike and Thompson designed Go.","attempts":2}}`+"\n", stdout)
}
