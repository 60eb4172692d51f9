package gocheck

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Every flowc package the committed generated files import is preloaded:
// one loaded later would bring its own copy of context and time, and a
// correct file would fail to type-check (context.Context does not
// implement context.Context).
func TestPreloadCoversGeneratedImports(t *testing.T) {
	root := filepath.Join("..", "..")
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_flow.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if strings.HasPrefix(p, "github.com/flowc-dev/flowc/") && !slices.Contains(preload, p) {
				t.Errorf("%s imports %s, which gocheck does not preload", path, p)
			}
		}
		checked++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("read %d generated files; the walk missed the goldens", checked)
	}
}
