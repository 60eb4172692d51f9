package impl

import (
	"maps"
	"slices"
)

// MergeMap is the merge reducer: it returns a new map holding old's entries
// and upd's, upd winning on shared keys. It never modifies old or upd, since
// both may still be referenced by other branches or by the caller. The result
// is nil only when both are nil.
func MergeMap[M ~map[K]V, K comparable, V any](old, upd M) M {
	if old == nil && upd == nil {
		return nil
	}
	out := make(M, len(old)+len(upd))
	maps.Copy(out, old)
	maps.Copy(out, upd)
	return out
}

// AppendSlice is the append reducer: it returns a new slice holding old's
// elements followed by upd's. The result never shares old's backing array,
// so appending to it later cannot write into a slice the caller still holds.
// The result is nil only when both are nil.
func AppendSlice[S ~[]E, E any](old, upd S) S {
	if old == nil && upd == nil {
		return nil
	}
	out := make(S, 0, len(old)+len(upd))
	out = append(out, old...)
	return append(out, upd...)
}

// Message is one message of a chat history.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Messages is a chat history, oldest first. Its reducer is AppendSlice.
type Messages []Message

// HasKey reports whether m has the key k; it implements `k in m` in
// generated conditions.
func HasKey[M ~map[K]V, K comparable, V any](m M, k K) bool {
	_, ok := m[k]
	return ok
}

// Contains reports whether s holds e; it implements `e in s` in generated
// conditions.
func Contains[S ~[]E, E comparable](s S, e E) bool {
	return slices.Contains(s, e)
}
