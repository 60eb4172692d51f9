package check

import (
	"go/types"
	"strings"
	"unicode"

	"github.com/flowc-dev/flowc/compiler/diag"
	"github.com/flowc-dev/flowc/compiler/expression"
	"github.com/flowc-dev/flowc/ir"
)

// checkTyped checks the schema, reducers and expressions of a typed workflow.
func (c *checker) checkTyped() {
	pkg := c.loadPackage()
	env := &expression.Env{}
	seen := map[string]*ir.Field{}
	goNames := map[string]*ir.Field{}
	for _, f := range c.w.Fields {
		if !c.checkFieldName(f, seen, goNames) || f.Type == nil {
			continue
		}
		t := c.resolve(f.Type, pkg)
		if t == nil {
			continue
		}
		c.checkReducer(f, t, pkg)
		env.Fields = append(env.Fields, expression.Field{Name: f.Name, GoName: f.GoName, Type: t})
	}
	for _, s := range c.w.States {
		c.checkStateExprs(s, stateEnv(s, env))
		c.checkBranches(s)
	}
	for _, r := range c.w.Regions {
		if r.Kind == ir.RegionMap {
			c.checkItems(r, seen, env, pkg)
		}
	}
}

func (c *checker) checkFieldName(f *ir.Field, seen, goNames map[string]*ir.Field) bool {
	switch {
	case seen[f.Name] != nil:
		c.diags.Errorf(f.Pos, "field %q declared twice", f.Name)
		return false
	case f.GoName == "":
		c.diags.Errorf(f.Pos, "field %q does not make a Go identifier; start it with a letter", f.Name)
		return false
	case goNames[f.GoName] != nil:
		c.diags.Errorf(f.Pos, "fields %q and %q both become the Go name %s; rename one", goNames[f.GoName].Name, f.Name, f.GoName)
		return false
	case !isJSONKey(f.Name):
		c.diags.Errorf(f.Pos, "field %q cannot be a JSON key of the state: use letters, digits, spaces and punctuation other than quotes, backslashes and commas", f.Name)
		return false
	}
	seen[f.Name], goNames[f.GoName] = f, f
	return true
}

// isJSONKey reports whether encoding/json honours name in a `json:"name"`
// tag (its isValidTag): otherwise the state's JSON would silently use the
// Go name, and "a,omitempty" or "-" would change what the tag means.
func isJSONKey(name string) bool {
	if name == "" || name == "-" {
		return false
	}
	for _, r := range name {
		if !strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", r) && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

func (c *checker) checkStateExprs(s *ir.State, env *expression.Env) {
	t := s.Next
	switch t.Kind {
	case ir.TransCondition:
		c.expr(t.Cond, env)
	case ir.TransSwitch:
		for _, cs := range t.Cases {
			c.expr(cs.Cond, env)
		}
	}
}

// expr checks a condition and records its checked, lowered tree.
func (c *checker) expr(e *ir.Expr, env *expression.Env) {
	if e == nil {
		return
	}
	checked, ds := expression.Check(expression.Source{Text: e.Source, Pos: e.Pos, Where: e.Where}, env)
	c.diags.Add(ds...)
	if checked != nil {
		c.out.SetCond(e, checked)
	}
}

// checkBranches keeps `default` last and alone, so no branch is dead.
func (c *checker) checkBranches(s *ir.State) {
	t := s.Next
	if t.Kind != ir.TransBranches {
		return
	}
	for i, b := range t.Branches {
		if b.Compose != nil {
			c.diags.Errorf(b.Compose.Pos, "`compose` belongs to task chains; here the handler's result sets the state")
		}
		if b.Operator == ir.OpDefault && i != len(t.Branches)-1 {
			c.diags.Errorf(t.Branches[i+1].Pos, "branch after the `default` branch can never be taken; `default` must be last")
		}
	}
}

// resolve turns a field type into a go/types type, reporting unknown names.
func (c *checker) resolve(t *ir.Type, pkg *types.Package) types.Type {
	switch t.Kind {
	case ir.TypeBasic:
		return types.Universe.Lookup(t.Name).Type()
	case ir.TypeMessages:
		return messagesType
	case ir.TypeSlice, ir.TypePointer:
		elem := c.resolve(t.Elem, pkg)
		if elem == nil {
			return nil
		}
		if t.Kind == ir.TypeSlice {
			return types.NewSlice(elem)
		}
		return types.NewPointer(elem)
	case ir.TypeMap:
		return c.resolveMap(t, pkg)
	}
	return c.resolveNamed(t, pkg)
}

func (c *checker) resolveMap(t *ir.Type, pkg *types.Package) types.Type {
	key, elem := c.resolve(t.Key, pkg), c.resolve(t.Elem, pkg)
	if key == nil || elem == nil {
		return nil
	}
	if !types.Comparable(key) {
		c.diags.Errorf(t.Pos, "map key type %s is not comparable", t.Key)
		return nil
	}
	return types.NewMap(key, elem)
}

func (c *checker) resolveNamed(t *ir.Type, pkg *types.Package) types.Type {
	if pkg == nil {
		c.diags.Errorf(t.Pos, "unknown type %s: no Go package found in %s to look it up", t.Name, c.opts.Dir)
		return nil
	}
	obj, ok := pkg.Scope().Lookup(t.Name).(*types.TypeName)
	if !ok {
		c.diags.Errorf(t.Pos, "unknown type %s in package %s%s", t.Name, pkg.Name(), diag.DidYouMean(t.Name, typeNames(pkg)))
		return nil
	}
	if obj.IsAlias() || types.Unalias(obj.Type()) != obj.Type() {
		return types.Unalias(obj.Type())
	}
	if named, ok := obj.Type().(*types.Named); ok && named.TypeParams().Len() > 0 {
		c.diags.Errorf(t.Pos, "type %s is generic; instantiate it in a named type", t.Name)
		return nil
	}
	return obj.Type()
}

func typeNames(pkg *types.Package) []string {
	var out []string
	for _, name := range pkg.Scope().Names() {
		if _, ok := pkg.Scope().Lookup(name).(*types.TypeName); ok {
			out = append(out, name)
		}
	}
	return out
}

// messagesType mirrors runtime.Messages for checking expressions and reducers.
var messagesType = func() types.Type {
	pkg := types.NewPackage("github.com/flowc-dev/flowc/runtime", "runtime")
	str := types.Typ[types.String]
	msg := types.NewStruct([]*types.Var{
		types.NewField(0, pkg, "Role", str, false),
		types.NewField(0, pkg, "Content", str, false),
	}, []string{`json:"role"`, `json:"content"`})
	named := types.NewNamed(types.NewTypeName(0, pkg, "Message", nil), msg, nil)
	return types.NewNamed(types.NewTypeName(0, pkg, "Messages", nil), types.NewSlice(named), nil)
}()
