package expression

import "go/types"

// StructField finds the field of st a definition means by name, as
// conditions do: by json tag, else by Go name ignoring case and
// underscores. The checker uses it for the JSON pointers of iter_key, so
// that a name means the same field everywhere.
func StructField(st *types.Struct, name string) *types.Var { return structField(st, name) }

// FieldSuggestion is the " (did you mean `x`?)" hint for a name that is no
// field of st, or "".
func FieldSuggestion(st *types.Struct, name string) string {
	return didYouMeanFold(name, fieldNames(st))
}

// TypeName renders t as diagnostics show it: without package qualifiers.
func TypeName(t types.Type) string { return typeName(t) }
