package asl

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/flowc-dev/flowc/compiler/diag"
	"github.com/flowc-dev/flowc/ir"
)

// argType is what an intrinsic argument may be; a literal or a nested call
// of a known result type is checked against it at compile time, a path only
// at run time.
type argType int

const (
	tAny argType = iota
	tString
	tNumber
	tInteger
	tBool
	tArray
	tObject
	tScalar // string, number, boolean or null: a States.Format value
)

var typeWords = map[argType]string{
	tAny: "any value", tString: "a string", tNumber: "a number", tInteger: "a whole number",
	tBool: "a boolean", tArray: "an array", tObject: "an object", tScalar: "a string, number, boolean or null",
}

// signature is an intrinsic function's arity and argument types; the last
// type repeats for variadic functions.
type signature struct {
	min, max int // max -1: no limit
	args     []argType
	result   argType
}

var intrinsics = map[string]signature{
	"States.Format":         {1, -1, []argType{tString, tScalar}, tString},
	"States.StringToJson":   {1, 1, []argType{tString}, tAny},
	"States.JsonToString":   {1, 1, []argType{tAny}, tString},
	"States.Array":          {0, -1, []argType{tAny}, tArray},
	"States.ArrayPartition": {2, 2, []argType{tArray, tInteger}, tArray},
	"States.ArrayContains":  {2, 2, []argType{tArray, tAny}, tBool},
	"States.ArrayRange":     {3, 3, []argType{tInteger, tInteger, tInteger}, tArray},
	"States.ArrayGetItem":   {2, 2, []argType{tArray, tInteger}, tAny},
	"States.ArrayLength":    {1, 1, []argType{tArray}, tInteger},
	"States.ArrayUnique":    {1, 1, []argType{tArray}, tArray},
	"States.Base64Encode":   {1, 1, []argType{tString}, tString},
	"States.Base64Decode":   {1, 1, []argType{tString}, tString},
	"States.Hash":           {2, 2, []argType{tString, tString}, tString},
	"States.JsonMerge":      {3, 3, []argType{tObject, tObject, tBool}, tObject},
	"States.MathRandom":     {2, 3, []argType{tInteger, tInteger, tNumber}, tInteger},
	"States.MathAdd":        {2, 2, []argType{tNumber, tNumber}, tNumber},
	"States.StringSplit":    {2, 2, []argType{tString, tString}, tArray},
	"States.UUID":           {0, 0, nil, tString},
}

var intrinsicNames = func() []string {
	names := make([]string, 0, len(intrinsics))
	for n := range intrinsics {
		names = append(names, n)
	}
	return names
}()

var hashAlgorithms = []string{"MD5", "SHA-1", "SHA-256", "SHA-384", "SHA-512"}

// intrinsicParser reads one intrinsic call; errors carry byte offsets into
// the text, which the caller turns into file positions.
type intrinsicParser struct {
	src  string
	i    int
	errs []*pathError
}

// parseIntrinsic compiles a call such as States.Format('{}', $.name). It
// returns nil when the text has errors, all of which are returned.
func parseIntrinsic(src string) (*ir.Intrinsic, []*pathError) {
	p := &intrinsicParser{src: src}
	call := p.call()
	p.skipSpace()
	if len(p.errs) == 0 && p.i < len(src) {
		p.errf(p.i, "unexpected %q after the intrinsic function call", src[p.i:])
	}
	if len(p.errs) > 0 {
		return nil, p.errs
	}
	return call, nil
}

func (p *intrinsicParser) errf(at int, format string, args ...any) {
	p.errs = append(p.errs, &pathError{at, fmt.Sprintf(format, args...)})
}

func (p *intrinsicParser) skipSpace() {
	for p.i < len(p.src) && p.src[p.i] == ' ' {
		p.i++
	}
}

func (p *intrinsicParser) call() *ir.Intrinsic {
	start := p.i
	for p.i < len(p.src) && (isIdent(p.src[p.i]) || p.src[p.i] == '.') {
		p.i++
	}
	name := p.src[start:p.i]
	if p.i >= len(p.src) || p.src[p.i] != '(' {
		p.errf(start, "expected an intrinsic function call such as States.Format(...), got %q", p.src[start:])
		return nil
	}
	sig, known := intrinsics[name]
	if !known {
		p.errf(start, "unknown intrinsic function %s%s", name, diag.DidYouMean(name, intrinsicNames))
	}
	p.i++
	call := &ir.Intrinsic{Name: name, Pos: ir.Pos{Col: start}}
	call.Args = p.args()
	if known && len(p.errs) == 0 {
		p.check(call, sig, start)
	}
	return call
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func (p *intrinsicParser) args() []*ir.IntrinsicArg {
	var args []*ir.IntrinsicArg
	p.skipSpace()
	if p.i < len(p.src) && p.src[p.i] == ')' {
		p.i++
		return nil
	}
	for p.i < len(p.src) {
		p.skipSpace()
		a := p.arg()
		if a == nil {
			return args
		}
		args = append(args, a)
		p.skipSpace()
		if p.i < len(p.src) && p.src[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.src) && p.src[p.i] == ')' {
			p.i++
			return args
		}
		break
	}
	p.errf(min(p.i, len(p.src)), "expected `,` or `)` in the argument list")
	return args
}

func (p *intrinsicParser) arg() *ir.IntrinsicArg {
	start := p.i
	a := &ir.IntrinsicArg{Pos: ir.Pos{Col: start}}
	rest := p.src[p.i:]
	switch {
	case strings.HasPrefix(rest, "'"):
		s, pieces, ok := p.quoted()
		if !ok {
			return nil
		}
		a.Value, a.Pieces = s, pieces
	case strings.HasPrefix(rest, "$"):
		end := pathEnd(p.src, p.i, ", )")
		path, err := parsePath(p.src[start:end], false, true)
		if err != nil {
			p.errf(start+err.At, "%s", err.Msg)
			return nil
		}
		a.Path = path
		p.i = end
	case strings.HasPrefix(rest, "States."):
		a.Call = p.call()
		if a.Call == nil {
			return nil
		}
	default:
		v, ok := p.literal()
		if !ok {
			return nil
		}
		a.Value = v
	}
	return a
}

// quoted reads a 'string' with the escapes \' \{ \} \\ and also returns
// the string cut at its unescaped {} placeholders.
func (p *intrinsicParser) quoted() (string, []string, bool) {
	start := p.i
	p.i++
	var b strings.Builder
	var pieces []string
	var piece strings.Builder
	for p.i < len(p.src) {
		c := p.src[p.i]
		switch {
		case c == '\\' && p.i+1 < len(p.src):
			p.i++
			b.WriteByte(p.src[p.i])
			piece.WriteByte(p.src[p.i])
		case c == '\'':
			p.i++
			return b.String(), append(pieces, piece.String()), true
		case c == '{' && p.i+1 < len(p.src) && p.src[p.i+1] == '}':
			p.i++
			b.WriteString("{}")
			pieces = append(pieces, piece.String())
			piece.Reset()
		default:
			b.WriteByte(c)
			piece.WriteByte(c)
		}
		p.i++
	}
	p.errf(start, "unclosed string in the intrinsic function call")
	return "", nil, false
}

// literal reads a number, true, false or null.
func (p *intrinsicParser) literal() (any, bool) {
	start := p.i
	for p.i < len(p.src) && !strings.ContainsRune(", )", rune(p.src[p.i])) {
		p.i++
	}
	text := p.src[start:p.i]
	switch text {
	case "true":
		return true, true
	case "false":
		return false, true
	case "null":
		return nil, true
	}
	n, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(n, 0) || text == "" {
		p.errf(start, "invalid argument %q: use a 'string', a number, true, false, null, a path or an intrinsic function", text)
		return nil, false
	}
	return n, true
}

// check compares the arguments with the function's signature.
func (p *intrinsicParser) check(call *ir.Intrinsic, sig signature, at int) {
	n := len(call.Args)
	switch {
	case sig.max >= 0 && sig.min == sig.max && n != sig.min:
		p.errf(at, "%s takes %s, got %d", call.Name, plural(sig.min, "argument"), n)
		return
	case n < sig.min:
		p.errf(at, "%s takes at least %s, got %d", call.Name, plural(sig.min, "argument"), n)
		return
	case sig.max >= 0 && n > sig.max:
		p.errf(at, "%s takes at most %s, got %d", call.Name, plural(sig.max, "argument"), n)
		return
	}
	for i, a := range call.Args {
		want := sig.args[min(i, len(sig.args)-1)]
		if got, ok := staticType(a); ok && !fits(got, a.Value, want) {
			p.errf(a.Pos.Col, "argument %d of %s must be %s", i+1, call.Name, typeWords[want])
		}
	}
	p.checkValues(call, at)
}

// checkValues checks what only the literal values tell.
func (p *intrinsicParser) checkValues(call *ir.Intrinsic, at int) {
	args := call.Args
	switch call.Name {
	case "States.Format":
		if t := args[0]; t.Path == nil && t.Call == nil && len(t.Pieces)-1 != len(args)-1 {
			p.errf(at, "States.Format has %s but %s", plural(len(t.Pieces)-1, "placeholder"), plural(len(args)-1, "value"))
		}
	case "States.Hash":
		if s, ok := args[1].Value.(string); ok && args[1].Path == nil && args[1].Call == nil && !contains(hashAlgorithms, s) {
			p.errf(args[1].Pos.Col, "unknown hash algorithm %q; use %s", s, strings.Join(hashAlgorithms, ", "))
		}
	case "States.ArrayPartition":
		if v, ok := literalNumber(args[1]); ok && v <= 0 {
			p.errf(args[1].Pos.Col, "the chunk size of States.ArrayPartition must be positive")
		}
	case "States.ArrayRange":
		if v, ok := literalNumber(args[2]); ok && v == 0 {
			p.errf(args[2].Pos.Col, "the step of States.ArrayRange cannot be 0")
		}
	}
}

func literalNumber(a *ir.IntrinsicArg) (float64, bool) {
	v, ok := a.Value.(float64)
	return v, ok && a.Path == nil && a.Call == nil
}

// staticType is the type of a literal or of a call with a known result.
func staticType(a *ir.IntrinsicArg) (argType, bool) {
	switch {
	case a.Path != nil:
		return tAny, false
	case a.Call != nil:
		t := intrinsics[a.Call.Name].result
		return t, t != tAny
	}
	switch v := a.Value.(type) {
	case string:
		return tString, true
	case float64:
		if v == math.Trunc(v) {
			return tInteger, true
		}
		return tNumber, true
	case bool:
		return tBool, true
	}
	return tAny, true // null
}

func fits(got argType, value any, want argType) bool {
	switch want {
	case tAny:
		return true
	case tScalar:
		return got == tString || got == tNumber || got == tInteger || got == tBool || (got == tAny && value == nil)
	case tNumber:
		return got == tNumber || got == tInteger
	}
	return got == want
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
