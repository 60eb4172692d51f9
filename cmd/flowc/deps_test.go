package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// flowc links only what its commands need (issue 25: the first `go run
// ./cmd/flowc run` from empty caches compiled 273 packages): SQLite links
// into the session store program, the exporters into built programs.
func TestCLIDoesNotLinkHeavyDependencies(t *testing.T) {
	deps := func(pkg string) []string {
		out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
		require.NoError(t, err, "%s", out)
		return strings.Fields(string(out))
	}
	heavy := []string{"modernc.org/sqlite", "google.golang.org/grpc", "go.opentelemetry.io/otel", "github.com/flowc-dev/flowc/binmain"}
	for _, dep := range deps(".") {
		for _, h := range heavy {
			assert.False(t, strings.HasPrefix(dep, h), "flowc links %s", dep)
		}
	}
	assert.Contains(t, deps("./sessionstore"), "modernc.org/sqlite", "the check sees SQLite where it is")
}
