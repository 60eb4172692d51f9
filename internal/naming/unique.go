package naming

import "strconv"

// Namer hands out exported identifiers that are unique among those it has
// given or reserved: the first use of a name gets it bare, later clashes get
// 2, 3... in the order they are asked for, so the result depends only on
// declaration order.
type Namer struct {
	used map[string]bool
}

// Reserve marks identifiers as taken.
func (n *Namer) Reserve(ids ...string) {
	if n.used == nil {
		n.used = map[string]bool{}
	}
	for _, id := range ids {
		n.used[id] = true
	}
}

// Unique returns Exported(name), or fallback when name makes no identifier,
// with a numeric suffix when that is taken.
func (n *Namer) Unique(name, fallback string) string {
	base := Exported(name)
	if base == "" {
		base = fallback
	}
	return n.Fresh(base)
}

// Fresh returns id, an identifier already formed by the caller, with a
// numeric suffix when it is taken.
func (n *Namer) Fresh(id string) string {
	out := id
	for i := 2; n.used[out]; i++ {
		out = id + strconv.Itoa(i)
	}
	n.Reserve(out)
	return out
}
