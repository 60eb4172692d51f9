package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The store says ready once the file is open, then answers the
// checkpoint protocol of runtime/checkpoint_pipe.go until its input ends.
func TestServe(t *testing.T) {
	db := filepath.Join(t.TempDir(), "s.db")
	var answers, stderr bytes.Buffer
	requests := strings.NewReader(`{"op":"list"}` + "\n" + `{"op":"load","session":"s1"}` + "\n")
	require.Equal(t, 0, serve([]string{db}, requests, &answers, &stderr), stderr.String())
	lines := strings.Split(answers.String(), "\n")
	require.Len(t, lines, 4, answers.String())
	assert.Equal(t, "ready", lines[0])
	assert.Equal(t, "{}", lines[1], "no sessions yet")
	assert.Contains(t, lines[2], `"missing":true`)
	assert.Empty(t, stderr.String())
}

// A file that is not a checkpoint store is refused before the ready line.
func TestServeBadFile(t *testing.T) {
	notes := filepath.Join(t.TempDir(), "notes.txt")
	require.NoError(t, os.WriteFile(notes, []byte("my notes\n"), 0o644))
	for _, args := range [][]string{{notes}, {}, {notes, "extra"}} {
		var answers, stderr bytes.Buffer
		assert.Equal(t, 2, serve(args, strings.NewReader(""), &answers, &stderr), "%v", args)
		assert.Empty(t, answers.String(), "%v", args)
		assert.NotEmpty(t, stderr.String(), "%v", args)
	}
}
