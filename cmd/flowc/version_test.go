package main

import (
	"bytes"
	"fmt"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"

	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
)

// A test binary is built from the checkout: its main module has no release
// version, which flowc spells as the go command does.
func TestVersionCommand(t *testing.T) {
	want := fmt.Sprintf("flowc (devel) (generated code version %d to %d)\n", flowcimpl.MinGenVersion, flowcimpl.GenVersion)
	for _, args := range [][]string{{"version"}, {"--version"}} {
		var stdout, stderr bytes.Buffer
		code := run(args, nil, &stdout, &stderr)
		assert.Equal(t, exitOK, code, args)
		assert.Equal(t, want, stdout.String(), args)
		assert.Empty(t, stderr.String(), args)
	}
	var stdout, stderr bytes.Buffer
	assert.Equal(t, exitUsage, run([]string{"version", "extra"}, nil, &stdout, &stderr))
	assert.Empty(t, stdout.String())
}

func TestModuleVersion(t *testing.T) {
	installed := &debug.BuildInfo{Main: debug.Module{Path: "github.com/flowc-dev/flowc", Version: "v1.4.0"}}
	assert.Equal(t, "v1.4.0", moduleVersion(installed, true))
	assert.Equal(t, "(devel)", moduleVersion(&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true))
	assert.Equal(t, "(devel)", moduleVersion(&debug.BuildInfo{}, true), "no main module recorded")
	assert.Equal(t, "(devel)", moduleVersion(nil, false), "built without module support")
}

// -h after a command that takes no flags prints its usage, as the other
// commands' flag sets do, rather than reading -h as an argument.
func TestHelpFlagOfFlaglessCommands(t *testing.T) {
	for _, args := range [][]string{{"schema", "-h"}, {"schema", "--help"}, {"version", "-h"}} {
		code, stdout, stderr := cli(t, "", args...)
		assert.Equal(t, exitUsage, code, args)
		assert.Empty(t, stdout, args)
		assert.Contains(t, stderr, "usage: flowc "+args[0], args)
	}
}
