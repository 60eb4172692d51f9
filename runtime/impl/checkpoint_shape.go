package impl

import (
	"encoding"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// A typed checkpoint records the shape of the state it saved: the JSON
// every type reachable from the state decodes from, named types of any
// depth included. The shape is read from the compiled state type, so it
// follows the user's named types even when they change without the
// workflow being generated again. On resume, the saved shape is compared
// with the current one: a field added since is carried over as its zero
// value (and said so), any other change refuses the checkpoint, naming
// the field's path.

// Shape describes the JSON a typed state decodes from.
type Shape struct {
	// Root spells the state's type; Types holds every named type that
	// the state reaches, by spelling.
	Root  string               `json:"root"`
	Types map[string]ShapeType `json:"types"`
}

// ShapeType is one named type of a Shape: a struct, with its fields by
// JSON key, or another type, with the spelling of its underlying type
// ("custom" when it decodes itself, through UnmarshalJSON or
// UnmarshalText: then only its name is compared).
type ShapeType struct {
	Fields map[string]string `json:"fields,omitempty"`
	Is     string            `json:"is,omitempty"`
}

// ShapeCustom is the Is of a type that decodes itself.
const ShapeCustom = "custom"

// Type spellings are Go's ("[]Review", "map[string]*Node", "int"), with
// named types of the state's own package unqualified, those of others
// qualified by import path, and a field with the `,string` option
// suffixed ",string". Anonymous structs are spelled whole.

var shapeCache sync.Map // reflect.Type → the marshalled Shape of that state type

// shapeOf returns the marshalled shape of state type t.
func shapeOf(t reflect.Type) string {
	if s, ok := shapeCache.Load(t); ok {
		return s.(string)
	}
	b := &shapeBuilder{pkg: t.PkgPath(), shape: Shape{Types: map[string]ShapeType{}}}
	b.shape.Root = b.spell(t)
	data, err := json.Marshal(b.shape) // maps marshal with sorted keys: the same shape, the same bytes
	if err != nil {
		panic(fmt.Sprintf("flowc: marshalling a state shape: %v", err)) // strings only: cannot fail
	}
	shapeCache.Store(t, string(data))
	return string(data)
}

type shapeBuilder struct {
	pkg   string // the state's package: its types are spelled unqualified
	shape Shape
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// spell returns t's spelling, recording the named types it reaches.
func (b *shapeBuilder) spell(t reflect.Type) string {
	if t.Name() != "" && t.PkgPath() != "" {
		return b.named(t)
	}
	return b.unnamed(t)
}

func (b *shapeBuilder) named(t reflect.Type) string {
	name := t.Name()
	if t.PkgPath() != b.pkg {
		name = t.PkgPath() + "." + name
	}
	if _, seen := b.shape.Types[name]; seen {
		return name
	}
	b.shape.Types[name] = ShapeType{} // placeholder: recursive types end here
	switch p := reflect.PointerTo(t); {
	case p.Implements(jsonUnmarshaler) || p.Implements(textUnmarshaler):
		b.shape.Types[name] = ShapeType{Is: ShapeCustom}
	case t.Kind() == reflect.Struct:
		b.shape.Types[name] = ShapeType{Fields: b.fields(t)}
	default:
		b.shape.Types[name] = ShapeType{Is: b.unnamed(t)}
	}
	return name
}

// unnamed spells t's structure (for a named t, its underlying type's).
func (b *shapeBuilder) unnamed(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Slice:
		return "[]" + b.spell(t.Elem())
	case reflect.Array:
		return fmt.Sprintf("[%d]%s", t.Len(), b.spell(t.Elem()))
	case reflect.Map:
		return "map[" + b.spell(t.Key()) + "]" + b.spell(t.Elem())
	case reflect.Pointer:
		return "*" + b.spell(t.Elem())
	case reflect.Interface:
		if t.NumMethod() == 0 {
			return "any"
		}
	case reflect.Struct:
		return b.anonymous(t)
	}
	if t.Kind() <= reflect.Complex128 || t.Kind() == reflect.String {
		return t.Kind().String()
	}
	return t.String()
}

// anonymous spells an anonymous struct whole: its fields, sorted by key.
func (b *shapeBuilder) anonymous(t reflect.Type) string {
	fields := b.fields(t)
	parts := make([]string, 0, len(fields))
	for _, key := range slices.Sorted(maps.Keys(fields)) {
		parts = append(parts, fmt.Sprintf("%q %s", key, fields[key]))
	}
	return "struct{" + strings.Join(parts, "; ") + "}"
}

// fields returns the fields encoding/json decodes into a struct, by key:
// exported fields under their tag's name or their own, with the fields of
// untagged embedded structs promoted (the shallower field wins a clash).
func (b *shapeBuilder) fields(t reflect.Type) map[string]string {
	out := map[string]string{}
	var embedded []reflect.Type
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		ft := f.Type
		if f.Anonymous && name == "" {
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				embedded = append(embedded, ft)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		spelling := b.spell(f.Type)
		if slices.Contains(strings.Split(opts, ","), "string") {
			spelling += ",string"
		}
		out[name] = spelling
	}
	for _, e := range embedded {
		for key, spelling := range b.fields(e) {
			if _, ok := out[key]; !ok {
				out[key] = spelling
			}
		}
	}
	return out
}
