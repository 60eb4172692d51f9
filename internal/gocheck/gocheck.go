// Package gocheck parses and type-checks generated Go in memory, against the
// flowc runtime and the standard library, without writing or building
// anything. flowc's fuzz, hostile-input and limits tests use it to prove
// that every definition the compiler accepts becomes Go that compiles.
package gocheck

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
)

// The runtime packages generated code imports. gocheck sits below codegen
// and so names them itself; a generator that imports another must add it
// to preload (TestPreloadCoversGeneratedImports checks).
const (
	runtimePath = "github.com/flowc-dev/flowc/runtime"
	implPath    = "github.com/flowc-dev/flowc/runtime/impl"
	harnessPath = "github.com/flowc-dev/flowc/flowrun"
	chainPath   = "github.com/flowc-dev/flowc/runtime/impl/chain"
	jsonPath    = "github.com/flowc-dev/flowc/runtime/impl/jsonmode"
	aslPath     = "github.com/flowc-dev/flowc/runtime/impl/asl"
)

// preload is what generated code imports today. A package loaded later, in
// a pass of its own, would bring its own copy of the packages it shares
// with these: context.Context would not be context.Context.
var preload = []string{
	runtimePath, implPath, harnessPath, chainPath, jsonPath, aslPath, "context", "encoding/json", "os", "slices", "strings",
	"text/template", "time", "unicode/utf8",
}

// importer hands out type-checked packages loaded once per process:
// loading runs `go list`, which costs far more than checking a file.
type importer struct {
	mu   sync.Mutex
	pkgs map[string]*types.Package
}

var shared = &importer{pkgs: map[string]*types.Package{}}

// Import implements types.Importer.
func (im *importer) Import(path string) (*types.Package, error) {
	im.mu.Lock()
	defer im.mu.Unlock()
	if p := im.pkgs[path]; p != nil {
		return p, nil
	}
	if err := im.load(path); err != nil {
		return nil, err
	}
	if p := im.pkgs[path]; p != nil {
		return p, nil
	}
	return nil, fmt.Errorf("package %s not found", path)
}

func (im *importer) load(paths ...string) error {
	// From source, in one type-checking pass: packages loaded from export
	// data root by root may each get their own copy of a shared
	// dependency, and then time.Duration is not time.Duration.
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedImports | packages.NeedDeps |
		packages.NeedSyntax | packages.NeedTypesInfo}
	roots, err := packages.Load(cfg, paths...)
	if err != nil {
		return err
	}
	var firstErr error
	packages.Visit(roots, nil, func(p *packages.Package) {
		if len(p.Errors) > 0 && firstErr == nil {
			firstErr = fmt.Errorf("loading %s: %v", p.PkgPath, p.Errors[0])
		}
		if p.Types != nil && im.pkgs[p.PkgPath] == nil {
			im.pkgs[p.PkgPath] = p.Types
		}
	})
	return firstErr
}

// Preload loads the packages generated code imports, once per process.
// Fuzz targets call it up front so that the first input is not charged
// for it; Check calls it too.
func Preload() error {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.pkgs[implPath] != nil {
		return nil
	}
	return shared.load(preload...)
}

// Check parses the files of one generated package and type-checks them as
// a package of their own. The error quotes the source with line numbers,
// as a generator bug report needs.
func Check(srcs ...[]byte) error {
	// Everything generated code imports today is loaded in one pass, so
	// that the runtime and the file agree on what time.Duration is.
	if err := Preload(); err != nil {
		return err
	}
	fset := token.NewFileSet()
	files := make([]*ast.File, len(srcs))
	for i, src := range srcs {
		f, err := parser.ParseFile(fset, fmt.Sprintf("file%d.go", i), src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("generated Go does not parse: %v\n%s", err, numbered(src))
		}
		files[i] = f
	}
	conf := types.Config{Importer: shared}
	if _, err := conf.Check(files[0].Name.Name, fset, files, nil); err != nil {
		return fmt.Errorf("generated Go does not type-check: %v\n%s", err, numbered(bytes.Join(srcs, []byte("\n// next file\n"))))
	}
	return nil
}

// numbered prefixes each line of src with its number.
func numbered(src []byte) string {
	var b bytes.Buffer
	for i, line := range bytes.Split(src, []byte("\n")) {
		b.WriteString(strconv.Itoa(i + 1))
		b.WriteString("\t")
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// directivePrefixes start the comments the go tool and compiler act on.
var directivePrefixes = []string{"//go:", "//line ", "//export ", "//extern ", "//sys ", "// +build"}

// Comments returns the comments of src that text from a definition must
// never produce: block comments (which could close early and expose what
// follows as code) and directives such as //go:generate or //line. The
// generator writes every comment, its own included, as plain // lines.
func Comments(src []byte) []string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return []string{err.Error()}
	}
	var bad []string
	for _, group := range f.Comments {
		for _, c := range group.List {
			if isDirective(c.Text) || !strings.HasPrefix(c.Text, "//") {
				bad = append(bad, fmt.Sprintf("%s: %q", fset.Position(c.Pos()), c.Text))
			}
		}
	}
	return bad
}

func isDirective(text string) bool {
	for _, p := range directivePrefixes {
		if strings.HasPrefix(text, p) {
			return true
		}
	}
	return false
}
