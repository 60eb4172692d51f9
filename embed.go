// Package flowc holds what the flowc command carries with it: the source of
// the runtime package, so that `flowc run` can build workflows anywhere,
// offline, without this module in the build cache, and the source of the
// packages the programs of `flowc build` link.
package flowc

import (
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"strings"
)

//go:embed runtime flowrun session
var sources embed.FS

// RuntimeSource is the source files of the packages every generated
// program imports: the runtime packages, under "runtime/", sessions'
// checkpoints and history, under "session/", and the mocks
// and main of `flowc run`, under "flowrun/" (tests included; the writer
// skips them).
func RuntimeSource() fs.FS { return sources }

//go:embed builtin/*.go builtin/httpspec/*.go binmain/*.go checkpoint/sqlite/*.go observe/*.go observe/otel/*.go console/*.go console/templates/*.html console/console.css
var buildSources embed.FS

// BuildSource is the source of the packages a built program links beside
// the runtime: the built-in handlers, the program's main logic, the
// SQLite checkpointer and the web console (which the checkpoint store's
// program serves for `flowc console`), under their directories (tests
// included).
func BuildSource() fs.FS { return buildSources }

//go:embed go.mod
var goMod string

//go:embed go.sum
var goSum []byte

// Module is flowc's module path.
const Module = "github.com/flowc-dev/flowc"

// runtimeDeps are the modules the runtime packages and flowrun import,
// directly or not, besides the standard library and flowc (TestRuntimeDeps
// keeps the list true). Building flowc downloads them all, since flowc checks templates
// with the same packages (TestCLIBuildsWhatTheRuntimeNeeds).
var runtimeDeps = []string{
	"dario.cat/mergo",
	"github.com/Masterminds/goutils",
	"github.com/Masterminds/semver/v3",
	"github.com/Masterminds/sprig/v3",
	"github.com/dustin/go-humanize",
	"github.com/google/uuid",
	"github.com/huandu/xstrings",
	"github.com/json-iterator/go",
	"github.com/mitchellh/copystructure",
	"github.com/mitchellh/reflectwalk",
	"github.com/modern-go/concurrent",
	"github.com/modern-go/reflect2",
	"github.com/nikolalohinski/gonja/v2",
	"github.com/pkg/errors",
	"github.com/shopspring/decimal",
	"github.com/sirupsen/logrus",
	"github.com/spf13/cast",
	"golang.org/x/crypto",
	"golang.org/x/exp",
	"golang.org/x/sys",
	"golang.org/x/text",
}

// RuntimeGoMod is a go.mod for a copy of the runtime as module path.
func RuntimeGoMod(path string) string {
	return fmt.Sprintf("module %s\n\ngo %s\n%s", path, GoVersion(), RuntimeRequires())
}

// RuntimeRequires requires the runtime's dependencies at the versions
// flowc's own go.mod names, so that a build finds them in the module cache,
// offline (with GOSUMDB=off, since no checksum database may be in reach).
// A module that imports the runtime lists them too, at flowc's go version:
// an older one makes the go command read the go.mod of their own
// dependencies, which building flowc never downloaded.
func RuntimeRequires() string {
	var b strings.Builder
	for _, line := range strings.Split(goMod, "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
		if len(f) >= 2 && slices.Contains(runtimeDeps, f[0]) {
			fmt.Fprintf(&b, "\nrequire %s %s\n", f[0], f[1])
		}
	}
	return b.String()
}

// GoVersion is the go directive of flowc's go.mod: the Go a module that
// builds with flowc's source needs.
func GoVersion() string {
	for _, line := range strings.Split(goMod, "\n") {
		if v, ok := strings.CutPrefix(line, "go "); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// GoMod is flowc's own go.mod, for a copy of its source.
func GoMod() string { return goMod }

// GoSum is flowc's own go.sum: a module that requires what flowc requires
// needs no checksum database with it.
func GoSum() []byte { return goSum }

// BuildGoMod is the go.mod of a module path that requires flowc, found in
// directory flowcDir (relative to the module), and every module flowc
// requires at the versions flowc pins, so that its go.sum is complete.
func BuildGoMod(path, flowcDir string) string {
	rest := strings.TrimPrefix(goMod, "module "+Module+"\n")
	return fmt.Sprintf("module %s\n%s\nrequire %s v0.0.0\n\nreplace %s => %s\n", path, rest, Module, Module, flowcDir)
}
