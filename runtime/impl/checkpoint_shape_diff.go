package impl

import (
	"maps"
	"slices"
	"strings"
)

// ShapeChange is one difference between the shape a checkpoint was saved
// with and the current one. Path names the value from the state down:
// "state.review.score"; "[]" stands for the elements of a slice or array,
// "{}" for the values of a map.
type ShapeChange struct {
	Path    string
	Message string
	// Breaking: a saved state cannot be read as the new shape. A field
	// added is not breaking; the others are.
	Breaking bool
	// In is the field the change is in, or is: the old and the new named
	// struct types that hold it, and its key; zero at the root. Tools
	// that know where the types are declared point at it.
	In ShapeField
}

// ShapeField is a field of a named struct type in two shapes.
type ShapeField struct{ Old, New, Key string }

func (c ShapeChange) String() string { return c.Path + ": " + c.Message }

// DiffShapes lists the differences between shape old and shape new, in
// the order of the paths they name. Named types are compared by what
// they hold, not by name: renaming a type changes nothing its JSON holds.
// A pointer decodes the same JSON as what it points to.
func DiffShapes(old, new Shape) []ShapeChange {
	d := &shapeDiff{old: old.Types, new: new.Types, seen: map[[2]string]string{}}
	d.compare("state", old.Root, new.Root)
	return d.changes
}

type shapeDiff struct {
	old, new map[string]ShapeType
	seen     map[[2]string]string // pairs with a named type compared already, each once: where
	at       ShapeField           // the field being compared
	changes  []ShapeChange
}

func (d *shapeDiff) compare(path, a, b string) {
	aStr, bStr := strings.HasSuffix(a, ",string"), strings.HasSuffix(b, ",string")
	if aStr != bStr {
		d.retyped(path, a, b)
		return
	}
	a, b = strings.TrimSuffix(a, ",string"), strings.TrimSuffix(b, ",string")
	a, b = strings.TrimLeft(a, "*"), strings.TrimLeft(b, "*")
	ta, namedA := d.old[a]
	tb, namedB := d.new[b]
	if namedA || namedB {
		if at, seen := d.seen[[2]string{a, b}]; seen {
			if at == path { // named types whose underlying types loop: only a corrupt saved shape has them
				d.retyped(path, a, b)
			}
			return // compared at the first path that reached the pair; this also ends recursive types
		}
		d.seen[[2]string{a, b}] = path
	}
	switch {
	case namedA && namedB:
		d.compareNamed(path, a, b, ta, tb)
	case namedA && ta.Is != "" && ta.Is != ShapeCustom:
		d.compare(path, ta.Is, b) // a named type became its underlying type
	case namedB && tb.Is != "" && tb.Is != ShapeCustom:
		d.compare(path, a, tb.Is)
	case namedA || namedB:
		d.retyped(path, a, b)
	default:
		d.compareUnnamed(path, a, b)
	}
}

// compareNamed compares two named types.
func (d *shapeDiff) compareNamed(path, a, b string, ta, tb ShapeType) {
	switch {
	case ta.Is == ShapeCustom || tb.Is == ShapeCustom:
		if a != b || ta.Is != tb.Is {
			d.retyped(path, a, b)
		}
	case ta.Is != "" && tb.Is != "":
		d.compare(path, ta.Is, tb.Is)
	case ta.Is != "" || tb.Is != "":
		d.retyped(path, a, b) // a struct and something else
	default:
		d.compareFields(path, [2]string{a, b}, ta.Fields, tb.Fields)
	}
}

// compareFields compares two structs field by field. A field removed
// while one of the same type was added is likely renamed: the message
// says so.
func (d *shapeDiff) compareFields(path string, types [2]string, a, b map[string]string) {
	outer := d.at
	defer func() { d.at = outer }()
	keys := slices.Sorted(maps.Keys(a))
	for key := range b {
		if _, ok := a[key]; !ok {
			keys = append(keys, key)
		}
	}
	slices.Sort(keys)
	for _, key := range keys {
		at, inA := a[key]
		bt, inB := b[key]
		sub := path + "." + key
		d.at = ShapeField{Old: types[0], New: types[1], Key: key}
		switch {
		case !inA:
			d.add(ShapeChange{Path: sub, Message: "added (" + bt + "): carried over as its zero value"})
		case !inB:
			msg := "removed (was " + at + ")"
			if to := renamedTo(at, a, b); to != "" {
				msg += ", or renamed to " + to
			}
			d.add(ShapeChange{Path: sub, Message: msg, Breaking: true})
		default:
			d.compare(sub, at, bt)
		}
	}
}

// renamedTo returns the one field of b, absent from a, whose type is
// spelled t; "" when there is none or more than one.
func renamedTo(t string, a, b map[string]string) string {
	found := ""
	for _, key := range slices.Sorted(maps.Keys(b)) {
		if _, old := a[key]; !old && b[key] == t {
			if found != "" {
				return ""
			}
			found = key
		}
	}
	return found
}

func (d *shapeDiff) compareUnnamed(path, a, b string) {
	pa, ea, okA := container(a)
	pb, eb, okB := container(b)
	switch {
	case !okA || !okB:
		if a != b {
			d.retyped(path, a, b)
		}
	case pa != pb && !(strings.HasPrefix(pa, "map[") && strings.HasPrefix(pb, "map[")):
		d.retyped(path, a, b)
	case strings.HasPrefix(pa, "map["):
		if ka, kb := pa[len("map["):len(pa)-1], pb[len("map["):len(pb)-1]; ka != kb {
			d.retyped(path+"{}", "key "+ka, "key "+kb)
			return
		}
		d.compare(path+"{}", ea, eb)
	default:
		d.compare(path+"[]", ea, eb)
	}
}

// container splits the spelling of a slice, array or map into its prefix
// ("[]", "[4]", "map[string]") and its element type.
func container(t string) (prefix, elem string, ok bool) {
	start := 0
	if strings.HasPrefix(t, "map[") {
		start = len("map")
	} else if !strings.HasPrefix(t, "[") {
		return "", "", false
	}
	depth := 0
	for i := start; i < len(t); i++ {
		switch t[i] {
		case '[':
			depth++
		case ']':
			if depth--; depth == 0 {
				return t[:i+1], t[i+1:], true
			}
		}
	}
	return "", "", false
}

func (d *shapeDiff) retyped(path, a, b string) {
	d.add(ShapeChange{Path: path, Message: "was " + a + ", now " + b, Breaking: true})
}

func (d *shapeDiff) add(c ShapeChange) {
	c.In = d.at
	d.changes = append(d.changes, c)
}
