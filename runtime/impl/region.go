package impl

import (
	"fmt"
	"maps"
)

// Support for the fan-out regions of typed workflows. Each branch or item
// of a region runs on its own copy of the state and records the updates its
// states return; when all are done, the generated join applies the records
// to the state in branch or item order, so the result does not depend on
// which branch finished first. Records is generic so that JSON mode can
// keep its own per-branch results (context stores, histories) the same way
// and merge them in the same order.

// Records holds the updates each branch or item of one fan-out returns,
// one list per branch. Branch i appends to Of(i) only, so branches share
// no storage and need no lock.
type Records[U any] struct {
	lists [][]U
}

// NewRecords returns the records of n branches, with room for per updates
// in each: a fan-out whose branches record no more than that allocates
// twice, however many branches it has.
func NewRecords[U any](n, per int) *Records[U] {
	backing := make([]U, n*per)
	lists := make([][]U, n)
	for i := range lists {
		// The capacity stops at the branch's own room, so a branch that
		// records more reallocates instead of writing into its neighbour's.
		lists[i] = backing[i*per : i*per : (i+1)*per]
	}
	return &Records[U]{lists: lists}
}

// Of returns the list branch i records into.
func (r *Records[U]) Of(i int) *[]U { return &r.lists[i] }

// Lists returns every branch's list, in branch order.
func (r *Records[U]) Lists() [][]U { return r.lists }

// AppendOwned is the append reducer of a join, which folds many updates
// into one field. Until *own is set it copies as AppendSlice does, and sets
// *own once the result is a slice of its own; from then on it appends in
// place, since nothing else holds that slice. A join of n updates thus
// copies the old value once instead of n times.
func AppendOwned[S ~[]E, E any](old, upd S, own *bool) S {
	if *own {
		return append(old, upd...)
	}
	out := AppendSlice(old, upd)
	*own = out != nil
	return out
}

// MergeOwned is the merge reducer of a join, as AppendOwned is the append
// reducer: the first merge copies the old map, later ones write into that
// copy.
func MergeOwned[M ~map[K]V, K comparable, V any](old, upd M, own *bool) M {
	if *own {
		maps.Copy(old, upd)
		return old
	}
	out := MergeMap(old, upd)
	*own = out != nil
	return out
}

// CloneSliceFunc returns a copy of s whose elements are copies made by
// clone, for slices of slices or maps; nil stays nil.
func CloneSliceFunc[S ~[]E, E any](s S, clone func(E) E) S {
	if s == nil {
		return nil
	}
	out := make(S, len(s))
	for i, e := range s {
		out[i] = clone(e)
	}
	return out
}

// CloneMapFunc returns a copy of m whose values are copies made by clone,
// for maps of slices or maps; nil stays nil.
func CloneMapFunc[M ~map[K]V, K comparable, V any](m M, clone func(V) V) M {
	if m == nil {
		return nil
	}
	out := make(M, len(m))
	for k, v := range m {
		out[k] = clone(v)
	}
	return out
}

// ItemsError is the error of a fan-out whose iter_key leads nowhere at run
// time: past the end of a list, to a missing map key, or through a nil
// pointer. missing is the JSON pointer of the value that does not exist.
func ItemsError(iterKey, missing string) error {
	return fmt.Errorf("iter_key %q: there is no value at %s", iterKey, missing)
}
