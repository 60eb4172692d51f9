package main

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// patternTree is a directory with definitions where the go command walks
// and where it does not (cmd/go's help text on package lists: "Directory
// and file names that begin with "." or "_" are ignored by the go tool,
// as are directories named "testdata"", vendor directories are left out
// of "./...", and so are nested modules).
func patternTree(t *testing.T) string {
	dir := t.TempDir()
	for _, name := range []string{
		"a.flow.yaml", "notes.md", "sub/b.flow.yaml", "sub/deep/c.asl.json", "other/o.flow.yaml",
		"testdata/t.flow.yaml", "vendor/v.flow.yaml", ".hidden/h.flow.yaml", "_skip/s.flow.yaml",
		"nested/go.mod", "nested/n.flow.yaml", "sub/testdata/t.flow.yaml",
	} {
		writeFile(t, dir, name, "")
	}
	return dir
}

func TestDefinitionPatterns(t *testing.T) {
	t.Chdir(patternTree(t))
	all := []string{"a.flow.yaml", "other/o.flow.yaml", "sub/b.flow.yaml", "sub/deep/c.asl.json"}
	for _, tt := range []struct {
		paths []string
		want  []string
	}{
		{[]string{"./..."}, all},
		{[]string{"..."}, all},
		{[]string{"."}, all}, // a directory is walked too
		{[]string{"./sub/..."}, all[2:]},
		{[]string{"sub/..."}, all[2:]},
		{[]string{"sub"}, all[2:]},
		{[]string{"./s..."}, all[2:]},                              // "..." matches any string: sub, sub/deep
		{[]string{"./.../deep"}, all[3:]},                          // and may stand before more of the path
		{[]string{"./nested/..."}, []string{"nested/n.flow.yaml"}}, // the walk's own root is never left out
		{[]string{"a.flow.yaml", "./other/..."}, all[:2]},
		{[]string{"./testdata/..."}, []string{"testdata/t.flow.yaml"}},
	} {
		var stderr bytes.Buffer
		got, err := definitions(tt.paths, &stderr)
		require.NoError(t, err, "%v", tt.paths)
		for i := range got {
			got[i] = filepath.ToSlash(got[i])
		}
		assert.Equal(t, tt.want, got, "%v", tt.paths)
	}
}

func TestDefinitionPatternMatchesNothing(t *testing.T) {
	t.Chdir(patternTree(t))
	var stderr bytes.Buffer
	got, err := definitions([]string{"./missing/...", "./x..."}, &stderr)
	require.NoError(t, err)
	assert.Empty(t, got)
	assert.Equal(t, "flowc: warning: \"./missing/...\" matched no definitions\n"+
		"flowc: warning: \"./x...\" matched no definitions\n", stderr.String())
	_, err = definitions([]string{"./missing"}, &stderr)
	assert.Error(t, err, "a directory that is not there is an error, as before")
}

// The command: gen and check take ./..., and --check passes once
// gen has written the files.
func TestGenCheckPattern(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "chat/chat.flow.yaml", chatDef)
	writeFile(t, dir, "testdata/broken.flow.yaml", "not: [a workflow")
	t.Chdir(dir)
	code, stdout, _ := cli(t, "", "gen", "--check", "./...")
	assert.Equal(t, exitFailed, code)
	assert.Contains(t, stdout, "chat_flow.go: missing")
	code, _, stderr := cli(t, "", "gen", "./...")
	require.Equal(t, exitOK, code, stderr)
	assert.FileExists(t, filepath.Join(dir, "chat", "chat_flow.go"))
	code, _, stderr = cli(t, "", "gen", "--check", "./...")
	assert.Equal(t, exitOK, code, stderr)
	code, _, stderr = cli(t, "", "check", "./chat/...")
	assert.Equal(t, exitOK, code, stderr)
}

// Commands that take one definition say so when given a pattern.
func TestOneDefinitionPattern(t *testing.T) {
	for _, cmd := range []string{"run", "build", "graph"} {
		code, _, stderr := cli(t, "", cmd, "./...")
		assert.Equal(t, exitUsage, code, cmd)
		assert.Contains(t, stderr, "flowc "+cmd+": ./... is a pattern; give one definition file", cmd)
	}
}
