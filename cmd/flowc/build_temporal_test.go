package main

import (
	"bytes"
	"io"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBuildTarget: --target picks the engine a built program runs on. A
// target flowc does not know, Temporal without the source of flowc's
// Temporal module, or a definition with handlers nothing implements, is
// refused with nothing written (the program's own tests are
// temporal/build_test.go's).
func TestBuildTarget(t *testing.T) {
	dir := t.TempDir()
	pass := writeFile(t, dir, "pass.asl.json", `{"StartAt":"P","States":{"P":{"Type":"Pass","End":true}}}`)
	task := writeFile(t, dir, "task.asl.json", `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"arn:aws:lambda:t","End":true}}}`)
	out := filepath.Join(dir, "prog")

	code, _, stderr := cli(t, "", "build", pass, "--target", "bogus", "-o", out)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `flowc build: unknown target "bogus" (want native or temporal)`)

	code, _, stderr = cli(t, "", "build", task, "--target", "temporal", "-o", out)
	assert.Equal(t, exitFailed, code)
	assert.Contains(t, stderr, `task.asl.json:1:26: state "T" needs handler method T, which no built-in runs`)

	t.Setenv("FLOWC_TEMPORAL_DIR", filepath.Join(dir, "none"))
	code, _, stderr = cli(t, "", "build", pass, "--target", "temporal", "-o", out)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "--target temporal needs flowc's Temporal module (the temporal directory of its source); set FLOWC_TEMPORAL_DIR to it")
	assert.NoFileExists(t, out)
}

// TestBuildTemporalOwnPackage: handlers that take a typed workflow's own
// types make the program link the definition's package, which on Temporal
// must hold the Temporal file flowc gen --target temporal writes too.
func TestBuildTemporalOwnPackage(t *testing.T) {
	mod := handlersModule(t, map[string]string{"counter": countHandlers})
	def := filepath.Join(mod, "count", "count.flow.yaml")
	require.NoError(t, writeFiles(map[string][]byte{def: []byte(countDef)}))
	var stderr bytes.Buffer
	require.Equal(t, exitOK, run([]string{"gen", filepath.Dir(def)}, nil, io.Discard, &stderr), stderr.String())

	bin := filepath.Join(t.TempDir(), "count")
	code := run([]string{"build", "-o", bin, def, "--handlers", filepath.Join(mod, "counter"), "--target", "temporal"}, nil, io.Discard, &stderr)
	assert.Equal(t, exitFailed, code)
	assert.Contains(t, stderr.String(), "count_temporal.go is not what flowc gen --target temporal writes for "+def+" now; run it")
	assert.NoFileExists(t, bin)
}
