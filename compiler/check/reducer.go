package check

import (
	"go/types"

	"github.com/flowc-dev/flowc/ir"
)

// checkReducer makes sure the reducer fits the field's type, so the inline Go
// the generator writes for it compiles.
func (c *checker) checkReducer(f *ir.Field, t types.Type, pkg *types.Package) {
	r := f.Reducer
	under := t.Underlying()
	switch r.Kind {
	case ir.ReduceAppend, ir.ReduceMessages:
		if _, ok := under.(*types.Slice); !ok {
			c.diags.Errorf(r.Pos, "reducer %s needs a slice field, but %s is %s", reducerWord(r), f.Name, f.Type)
		}
	case ir.ReduceMerge:
		if _, ok := under.(*types.Map); !ok {
			c.diags.Errorf(r.Pos, "reducer merge needs a map field, but %s is %s", f.Name, f.Type)
		}
	case ir.ReduceAdd:
		if b, ok := under.(*types.Basic); !ok || b.Info()&types.IsNumeric == 0 {
			c.diags.Errorf(r.Pos, "reducer add needs a number field, but %s is %s", f.Name, f.Type)
		}
	case ir.ReduceFunc:
		c.checkReducerFunc(f, t, pkg)
	}
}

func reducerWord(r ir.Reducer) string {
	if r.Kind == ir.ReduceMessages {
		return "messages"
	}
	return "append"
}

// checkReducerFunc requires func(old, new T) T in the target package.
func (c *checker) checkReducerFunc(f *ir.Field, t types.Type, pkg *types.Package) {
	r := f.Reducer
	if pkg == nil {
		c.diags.Errorf(r.Pos, "unknown reducer function %s: no Go package found in %s", r.Func, c.opts.Dir)
		return
	}
	fn, ok := pkg.Scope().Lookup(r.Func).(*types.Func)
	if !ok {
		c.diags.Errorf(r.Pos, "unknown reducer %q: no function %s in package %s", r.Func, r.Func, pkg.Name())
		return
	}
	sig := fn.Type().(*types.Signature)
	want := types.NewSignatureType(nil, nil, nil,
		types.NewTuple(types.NewParam(0, nil, "old", t), types.NewParam(0, nil, "new", t)),
		types.NewTuple(types.NewParam(0, nil, "", t)), false)
	if sig.TypeParams().Len() > 0 || !types.Identical(sig, want) {
		c.diags.Errorf(r.Pos, "reducer %s has type %s, want func(old, new %s) %s", r.Func,
			types.TypeString(sig, types.RelativeTo(pkg)), f.Type, f.Type)
	}
}
