// Package flowc holds what the flowc command carries with it: the source of
// the runtime package, so that `flowc run` can build workflows anywhere,
// offline, without this module in the build cache.
package flowc

import (
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"strings"
)

//go:embed runtime/*.go
var sources embed.FS

// RuntimeSource is the runtime package's source files, under "runtime/"
// (tests included; the writer skips them).
func RuntimeSource() fs.FS { return sources }

//go:embed go.mod
var goMod string

// runtimeDeps are the modules the runtime imports besides the standard
// library.
var runtimeDeps = []string{"github.com/blues/jsonata-go"}

// RuntimeGoMod is a go.mod for a copy of the runtime as module path: it
// requires the runtime's dependencies at the versions flowc's own go.mod
// names, so that a build finds them in the module cache, offline (with
// GOSUMDB=off, since no checksum database may be in reach).
func RuntimeGoMod(path string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "module %s\n\ngo 1.22\n", path)
	for _, line := range strings.Split(goMod, "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
		if len(f) >= 2 && slices.Contains(runtimeDeps, f[0]) {
			fmt.Fprintf(&b, "\nrequire %s %s\n", f[0], f[1])
		}
	}
	return b.String()
}
