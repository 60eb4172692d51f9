package check

import (
	"go/types"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/flowc-dev/flowc/compiler/diag"
	"github.com/flowc-dev/flowc/compiler/expression"
	"github.com/flowc-dev/flowc/ir"
)

// checkItems resolves the items of a typed map region against the schema:
// the Go steps from the state to them (Source), the type of one item
// (Item), which becomes the item parameter of the chain's handlers, and
// whether a non-list is wrapped as the only item (Wrap).
//
// A field name must name a list field: the usual mistake is to name the
// wrong field, and iterating once over it would hide that. A JSON pointer
// may land on anything; a non-list there is the only item, as CodeMie wraps
// a non-list iter_key value in a one-item list.
// `.` is the whole state, which is never a list: the chain runs once, with
// a copy of the state as its item.
func (c *checker) checkItems(r *ir.Region, declared map[string]*ir.Field, env *expression.Env, pkg *types.Package) {
	it := &ir.Items{}
	var t types.Type
	switch {
	case r.ItemsPath == nil:
		it.Item, it.Wrap = &ir.Type{Kind: ir.TypeState}, true
	case !strings.HasPrefix(r.Items, "/"):
		t = c.itemsField(r, it, declared, env)
	default:
		t = c.itemsPointer(r, it, declared, env)
	}
	if t != nil {
		c.setItem(r, it, t, pkg)
	}
	if it.Item != nil {
		c.out.SetItems(r, it)
	}
}

// itemsField resolves an iter_key that names a field, which must be a list.
func (c *checker) itemsField(r *ir.Region, it *ir.Items, declared map[string]*ir.Field, env *expression.Env) types.Type {
	f, ok := c.field(r, r.Items, r.ItemsPos, declared, env)
	if !ok {
		return nil
	}
	if elem(f.Type) == nil {
		c.diags.Errorf(r.ItemsPos, "iter_key `%s` names field %s of type %s, not a list; iterate over a slice field, or write the JSON pointer `/%s` to run the chain once with its value as the item",
			r.Items, f.Name, expression.TypeName(f.Type), r.Items)
		return nil
	}
	it.Source = []ir.Access{{Kind: ir.AccessField, Name: f.GoName, Pointer: "/" + r.Items}}
	return f.Type
}

// field looks up a state field by its schema name. ok is false when there
// is none; an undeclared name is reported, a field whose type did not
// resolve was reported already.
func (c *checker) field(r *ir.Region, name string, at ir.Pos, declared map[string]*ir.Field, env *expression.Env) (expression.Field, bool) {
	for _, f := range env.Fields {
		if f.Name == name {
			return f, true
		}
	}
	if declared[name] == nil {
		names := make([]string, len(c.w.Fields))
		for i, f := range c.w.Fields {
			names[i] = f.Name
		}
		c.diags.Errorf(at, "iter_key `%s` names no state field%s; it must name a list field, be `.` or be a JSON pointer such as `/data/items`",
			r.Items, diag.DidYouMean(name, names))
	}
	return expression.Field{}, false
}

// itemsPointer compiles a JSON pointer into Go steps: a state field, then
// struct fields (matched as conditions match them), string map keys and
// list indexes, following pointers on the way.
func (c *checker) itemsPointer(r *ir.Region, it *ir.Items, declared map[string]*ir.Field, env *expression.Env) types.Type {
	raw := strings.Split(r.Items[1:], "/")
	at := func(i int) ir.Pos { // where token i starts
		prefix := "/" + strings.Join(raw[:i], "/")
		if i > 0 {
			prefix += "/"
		}
		return r.ItemsPos.Shift(utf8.RuneCountInString(prefix))
	}
	f, ok := c.field(r, r.ItemsPath[0], at(0), declared, env)
	if !ok {
		return nil
	}
	it.Source = []ir.Access{{Kind: ir.AccessField, Name: f.GoName, Pointer: "/" + raw[0]}}
	t := f.Type
	for i, tok := range r.ItemsPath[1:] {
		ptr := "/" + strings.Join(raw[:i+2], "/")
		var why string
		t, why = c.step(it, t, tok, ptr)
		if why != "" {
			c.diags.Errorf(at(i+1), "iter_key `%s`: %s", r.Items, why)
			return nil
		}
	}
	return t
}

// step resolves one reference token against a value of type t, appending
// the Go steps to it.Source. It returns the type reached, or why it cannot.
func (c *checker) step(it *ir.Items, t types.Type, tok, ptr string) (types.Type, string) {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		it.Source = append(it.Source, ir.Access{Kind: ir.AccessDeref, Pointer: parent(ptr)})
		t = p.Elem()
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		f := expression.StructField(u, tok)
		if f == nil {
			return nil, expression.TypeName(t) + " has no field `" + tok + "`" + expression.FieldSuggestion(u, tok)
		}
		it.Source = append(it.Source, ir.Access{Kind: ir.AccessField, Name: f.Name(), Pointer: ptr})
		return f.Type(), ""
	case *types.Map:
		if b, ok := u.Key().Underlying().(*types.Basic); !ok || b.Info()&types.IsString == 0 {
			return nil, "cannot look up `" + tok + "` in " + expression.TypeName(t) + ": a JSON pointer reads only maps with string keys"
		}
		it.Source = append(it.Source, ir.Access{Kind: ir.AccessKey, Key: tok, Pointer: ptr})
		return u.Elem(), ""
	case *types.Slice, *types.Array:
		i, ok := index(tok)
		if !ok {
			return nil, "`" + tok + "` is not an index of " + expression.TypeName(t) + "; a list is indexed by a number such as 0"
		}
		it.Source = append(it.Source, ir.Access{Kind: ir.AccessIndex, Index: i, Pointer: ptr})
		return elem(t), ""
	}
	return nil, parent(ptr) + " is " + expression.TypeName(t) + ", which has nothing named `" + tok + "`"
}

// parent is the pointer one step up: "/a/b" → "/a".
func parent(ptr string) string { return ptr[:strings.LastIndex(ptr, "/")] }

// index parses an RFC 6901 array index: digits, no leading zero.
func index(tok string) (int, bool) {
	if tok == "" || (len(tok) > 1 && tok[0] == '0') || strings.Trim(tok, "0123456789") != "" {
		return 0, false
	}
	i, err := strconv.Atoi(tok)
	return i, err == nil
}

// elem is the element type of a list, or nil for anything else.
func elem(t types.Type) types.Type {
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return u.Elem()
	case *types.Array:
		return u.Elem()
	}
	return nil
}

// setItem records the type of one item, reported where the items are
// named when generated Go could not spell it.
func (c *checker) setItem(r *ir.Region, it *ir.Items, t types.Type, pkg *types.Package) {
	item := elem(t)
	it.Wrap = item == nil
	if it.Wrap {
		item = t
	}
	typ, why := irType(item, pkg)
	if why != "" {
		c.diags.Errorf(r.ItemsPos, "iter_key `%s`: the items are of type %s, which %s", r.Items, types.TypeString(item, types.RelativeTo(pkg)), why)
		return
	}
	it.Item = typ
}

// irType turns the go/types type of an item into the IR's, which codegen
// prints as the handlers' item parameter.
func irType(t types.Type, pkg *types.Package) (*ir.Type, string) {
	if types.Identical(t, messagesType) {
		return &ir.Type{Kind: ir.TypeMessages}, ""
	}
	switch t := types.Unalias(t).(type) {
	case *types.Basic:
		if t.Info()&types.IsUntyped != 0 {
			return nil, "has no Go type"
		}
		return &ir.Type{Kind: ir.TypeBasic, Name: t.Name()}, ""
	case *types.Slice:
		return wrapType(ir.TypeSlice, nil, t.Elem(), pkg)
	case *types.Pointer:
		return wrapType(ir.TypePointer, nil, t.Elem(), pkg)
	case *types.Map:
		key, why := irType(t.Key(), pkg)
		if why != "" {
			return nil, why
		}
		return wrapType(ir.TypeMap, key, t.Elem(), pkg)
	case *types.Interface:
		if t.Empty() {
			return &ir.Type{Kind: ir.TypeBasic, Name: "any"}, ""
		}
	case *types.Named:
		return namedType(t, pkg)
	}
	return nil, "has no name the handlers could use; declare a named type for it"
}

func wrapType(kind ir.TypeKind, key *ir.Type, elem types.Type, pkg *types.Package) (*ir.Type, string) {
	e, why := irType(elem, pkg)
	if why != "" {
		return nil, why
	}
	return &ir.Type{Kind: kind, Key: key, Elem: e}, ""
}

func namedType(t *types.Named, pkg *types.Package) (*ir.Type, string) {
	obj := t.Obj()
	switch {
	case t.TypeArgs().Len() > 0:
		return nil, "is an instance of a generic type; declare a named type for it"
	case obj.Pkg() == nil: // error
		return &ir.Type{Kind: ir.TypeBasic, Name: obj.Name()}, ""
	case pkg != nil && obj.Pkg().Path() == pkg.Path():
		return &ir.Type{Kind: ir.TypeNamed, Name: obj.Name()}, ""
	case !obj.Exported():
		return nil, "is unexported in package " + obj.Pkg().Name()
	}
	return &ir.Type{Kind: ir.TypeNamed, Name: obj.Name(), Pkg: obj.Pkg().Path()}, ""
}
