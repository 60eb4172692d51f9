package check

import (
	"go/types"
	"os"
	"path/filepath"

	"golang.org/x/tools/go/packages"

	"github.com/flowc-dev/flowc/ir"
)

// loadPackage type-checks the workflow's Go package when the schema names
// its types or functions; otherwise it returns nil without running `go list`.
func (c *checker) loadPackage() *types.Package {
	if c.opts.NoPackage || !c.needsPackage() {
		return nil
	}
	pkg, err := loadTypes(c.opts.Dir, c.opts.Generated, c.w.Package)
	if err != nil {
		c.diags.Errorf(c.w.Pos, "cannot load Go package in %s: %v", c.opts.Dir, err)
		return nil
	}
	return pkg
}

func (c *checker) needsPackage() bool {
	for _, f := range c.w.Fields {
		if f.Reducer.Kind == ir.ReduceFunc || usesNamed(f.Type) {
			return true
		}
	}
	return false
}

func usesNamed(t *ir.Type) bool {
	for ; t != nil; t = t.Elem {
		if t.Kind == ir.TypeNamed || usesNamed(t.Key) {
			return true
		}
	}
	return false
}

// loadTypes loads the package in dir from source; nil when dir has no Go
// files. The file flowc is about to write is replaced by an empty one: its
// old contents may not compile. Type errors in the user's own files do not
// stop the load: the types that did check are still worth looking up.
func loadTypes(dir, generated, pkgName string) (*types.Package, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	cfg := &packages.Config{
		Mode:  packages.NeedName | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo,
		Dir:   abs,
		Tests: false,
	}
	if generated != "" {
		if gen, err := filepath.Abs(generated); err == nil {
			if _, statErr := os.Stat(gen); statErr == nil {
				cfg.Overlay = map[string][]byte{gen: []byte("package " + pkgName + "\n")}
			}
		}
	}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		return nil, err
	}
	if len(pkgs) != 1 || pkgs[0].Types == nil || len(pkgs[0].Syntax) == 0 {
		return nil, nil // no Go files: callers say which name is missing
	}
	return pkgs[0].Types, nil
}
