package ir

// ExprKind classifies an Expr node.
type ExprKind int

const (
	ExprLit     ExprKind = iota // Lit: string, int64, float64, bool or nil
	ExprField                   // Path: a state field, then struct fields (Go names)
	ExprItem                    // Path: the iteration item, then struct fields (Go names)
	ExprVar                     // Name: a JSON-mode variable (a key of the previous output)
	ExprUnary                   // Op ("!", "-") applied to Args[0]
	ExprBinary                  // Args[0] Op Args[1], Op a Go operator: == != < <= > >= && || + - * / %
	ExprCall                    // Op names a built-in (see the Call* constants), Args[0] the receiver
	ExprConvert                 // Args[0] converted to the basic type Op (e.g. float64)
)

// Built-in calls an ExprCall may name.
const (
	CallLower      = "lower"      // strings.ToLower(a)
	CallUpper      = "upper"      // strings.ToUpper(a)
	CallStartsWith = "startswith" // strings.HasPrefix(a, b)
	CallEndsWith   = "endswith"   // strings.HasSuffix(a, b)
	CallContains   = "contains"   // strings.Contains(a, b)
	CallHasKey     = "haskey"     // key b present in map a
	CallInSlice    = "inslice"    // b is an element of slice a
	CallLen        = "len"        // len(a) of a slice or map
	CallRuneCount  = "runecount"  // the number of characters of string a
	CallIsNil      = "isnil"      // a == nil
)

// Expr is a checked expression, lowered to a tree codegen can print as Go
// without re-checking it.
type Expr struct {
	Pos    Pos // where this node starts in the definition file
	Kind   ExprKind
	Op     string
	Lit    any
	Path   []string
	Name   string
	Args   []*Expr
	Source string // the expression text as written (root node only)
	// Where is the file position of each rune of Source (root node only),
	// when the front-end knows it: quotes, escapes and line folds make the
	// text and the file differ. Nil means Source sits at Pos unchanged.
	Where []Pos
}
