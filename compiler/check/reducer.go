package check

import (
	"go/types"

	"github.com/flowc-dev/flowc/compiler/diag"
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
	var fn *types.Func
	if pkg != nil {
		fn, _ = pkg.Scope().Lookup(r.Func).(*types.Func)
	}
	if fn == nil {
		c.unknownReducer(r, pkg)
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

// unknownReducer explains a reducer name that is neither built in nor a
// function of the package, suggesting a built-in for a likely typo.
func (c *checker) unknownReducer(r ir.Reducer, pkg *types.Package) {
	if hint := diag.DidYouMean(r.Func, builtinReducers); hint != "" {
		c.diags.Errorf(r.Pos, "unknown reducer %q%s", r.Func, hint)
		return
	}
	where := "no Go package found in " + c.opts.Dir
	if pkg != nil {
		where = "no function " + r.Func + " in package " + pkg.Name()
	}
	c.diags.Errorf(r.Pos, "unknown reducer %q: %s; use replace, append, merge, add, messages or a func(old, new T) T of the package", r.Func, where)
}

// builtinReducers are the reducer names every field may use, in the order
// suggestions prefer them.
var builtinReducers = []string{"replace", "append", "merge", "add", "messages"}
