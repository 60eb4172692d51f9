package main

import (
	"errors"
	"fmt"
	"go/types"
	"os"

	"golang.org/x/tools/go/packages"

	"github.com/flowc-dev/flowc/codegen"
)

// userPackage is the --handlers package: what the generated code needs of
// it, and its module.
type userPackage struct {
	handlers  codegen.UserHandlers
	module    string
	moduleDir string
}

// loadHandlers type-checks the package and reads its contract: a function
// Handlers() returning a named type (or a pointer to one), whose exported
// methods run handlers. A directory is loaded in its own module, an import
// path in the module of the current directory.
func loadHandlers(pattern string) (*userPackage, error) {
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedTypes | packages.NeedModule,
		Env:  append(os.Environ(), "GOWORK=off"),
	}
	if st, err := os.Stat(pattern); err == nil && st.IsDir() {
		cfg.Dir, pattern = pattern, "."
	}
	pkgs, err := packages.Load(cfg, pattern)
	if err != nil {
		return nil, err
	}
	switch len(pkgs) {
	case 0: // go list fails quietly on a module it cannot load
		return nil, errors.New("no package found; `go list` in its module tells why (a go.mod that needs `go mod tidy`?)")
	case 1:
	default:
		return nil, fmt.Errorf("names %d packages; give one", len(pkgs))
	}
	p := pkgs[0]
	if len(p.Errors) > 0 {
		return nil, p.Errors[0]
	}
	if p.Module == nil {
		return nil, errors.New("the package is in no module")
	}
	named, pointer, err := handlersType(p.Types)
	if err != nil {
		return nil, err
	}
	var recv types.Type = named
	if pointer {
		recv = types.NewPointer(named)
	}
	methods := map[string]bool{}
	set := types.NewMethodSet(recv)
	for i := range set.Len() {
		if m := set.At(i).Obj(); m.Exported() {
			methods[m.Name()] = true
		}
	}
	return &userPackage{
		handlers:  codegen.UserHandlers{Import: p.PkgPath, Type: named.Obj().Name(), Pointer: pointer, Methods: methods},
		module:    p.Module.Path,
		moduleDir: p.Module.Dir,
	}, nil
}

// handlersType is the named type Handlers() returns.
func handlersType(pkg *types.Package) (*types.Named, bool, error) {
	fn, ok := pkg.Scope().Lookup("Handlers").(*types.Func)
	if !ok {
		return nil, false, errors.New("the package has no function Handlers")
	}
	sig := fn.Type().(*types.Signature)
	if sig.Params().Len() != 0 || sig.Results().Len() != 1 {
		return nil, false, fmt.Errorf("%s must take nothing and return one value", fn.Name())
	}
	t := sig.Results().At(0).Type()
	ptr, pointer := t.(*types.Pointer)
	if pointer {
		t = ptr.Elem()
	}
	named, ok := t.(*types.Named)
	if !ok || named.Obj().Pkg() != pkg || !named.Obj().Exported() || named.TypeParams().Len() > 0 {
		return nil, false, fmt.Errorf("Handlers must return an exported type of the package, or a pointer to one; it returns %s", sig.Results().At(0).Type())
	}
	return named, pointer, nil
}
