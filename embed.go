// Package flowc holds what the flowc command carries with it: the source of
// the runtime package, so that `flowc run` can build workflows anywhere,
// offline, without this module in the build cache.
package flowc

import (
	"embed"
	"io/fs"
)

//go:embed runtime/*.go
var sources embed.FS

// RuntimeSource is the runtime package's source files, under "runtime/"
// (tests included; the writer skips them).
func RuntimeSource() fs.FS { return sources }
