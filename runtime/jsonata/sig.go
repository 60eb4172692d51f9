package jsonata

import "strings"

// signature is a parsed JSONata function signature such as <s-nn?:s>.
type signature struct {
	params []param
	src    string
}

type param struct {
	types   string // the type symbols the argument may have
	opt     bool   // ?
	many    bool   // +
	context bool   // - : a missing argument takes the context value
	sub     string // a<s>: the type every member must have
	arr     bool   // a: a single value is wrapped in an array
}

// typeSymbol is the signature symbol of a value.
func typeSymbol(v any) byte {
	switch v.(type) {
	case undefinedT:
		return 'm'
	case nil:
		return 'l'
	case bool:
		return 'b'
	case string:
		return 's'
	case []any, *seq:
		return 'a'
	case callable:
		return 'f'
	}
	if _, ok := asNumber(v); ok {
		return 'n'
	}
	if isObject(v) {
		return 'o'
	}
	return 'x'
}

func parseSignature(src string, pos int) (*signature, *Error) {
	sig := &signature{src: src}
	body := src[1 : len(src)-1]
	if c := depthColon(body); c >= 0 {
		body = body[:c]
	}
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch c {
		case 'b', 'n', 's', 'l', 'o':
			sig.params = append(sig.params, param{types: string(c)})
		case 'a':
			sig.params = append(sig.params, param{types: "asnblfo", arr: true})
		case 'f':
			sig.params = append(sig.params, param{types: "f"})
		case 'x':
			sig.params = append(sig.params, param{types: "asnblfo"})
		case 'j':
			sig.params = append(sig.params, param{types: "asnblo"})
		case '(':
			end := strings.IndexByte(body[i:], ')')
			if end < 0 {
				return nil, newError("S0401", pos+i, "(")
			}
			choice := body[i+1 : i+end]
			if strings.Contains(choice, "<") {
				return nil, newError("S0402", pos+i, choice)
			}
			sig.params = append(sig.params, param{types: choice})
			i += end
		case '<':
			if len(sig.params) == 0 {
				return nil, newError("S0401", pos+i, "<")
			}
			last := &sig.params[len(sig.params)-1]
			prev := body[i-1]
			if prev != 'a' && prev != 'f' {
				return nil, newError("S0401", pos+i, "<")
			}
			end := matchAngle(body, i)
			if end < 0 {
				return nil, newError("S0401", pos+i, "<")
			}
			if prev == 'a' {
				last.sub = body[i+1 : end]
			}
			i = end
		case '?', '+', '-':
			if len(sig.params) == 0 {
				return nil, newError("S0401", pos+i, string(c))
			}
			last := &sig.params[len(sig.params)-1]
			switch c {
			case '?':
				last.opt = true
			case '+':
				last.many = true
			default:
				last.context = true
			}
		default:
			return nil, newError("S0401", pos+i, string(c))
		}
	}
	return sig, nil
}

// depthColon finds the ':' that starts the return type, outside any <...>.
func depthColon(s string) int {
	d := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<':
			d++
		case '>':
			d--
		case ':':
			if d == 0 {
				return i
			}
		}
	}
	return -1
}

func matchAngle(s string, i int) int {
	d := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '<':
			d++
		case '>':
			d--
			if d == 0 {
				return i
			}
		}
	}
	return -1
}

func (p param) accepts(sym byte) bool {
	if sym == 'm' {
		return true
	}
	return strings.IndexByte(p.types, sym) >= 0
}

// validate matches the arguments against the signature the way JSONata's
// signature regular expression does, then fills context arguments, wraps
// single values given for arrays and checks typed arrays.
func (sig *signature) validate(args []any, context any, name string, pos int) ([]any, error) {
	var symBuf [8]byte
	var countBuf [8]int
	syms := symBuf[:0]
	for _, a := range args {
		syms = append(syms, typeSymbol(a))
	}
	counts := countBuf[:0]
	for range sig.params {
		counts = append(counts, 0)
	}
	if !sig.match(syms, 0, 0, counts) {
		return nil, &Error{Code: "T0410", Position: pos, Token: name, index: sig.firstMismatch(syms) + 1, value: nil}
	}
	out := make([]any, 0, len(sig.params))
	ai := 0
	for pi, p := range sig.params {
		n := counts[pi]
		if n == 0 {
			if p.context {
				if s, ok := context.(*seq); ok && s.outer {
					context = s.v[0]
				}
				sym := typeSymbol(context)
				if !p.accepts(sym) {
					return nil, &Error{Code: "T0411", Position: pos, Token: name, index: ai + 1, value: context}
				}
				out = append(out, p.coerce(context))
			}
			continue
		}
		for k := 0; k < n; k++ {
			a := args[ai]
			if p.sub != "" {
				if err := checkTypedArray(a, p.sub, name, ai+1, pos); err != nil {
					return nil, err
				}
			}
			out = append(out, p.coerce(a))
			ai++
		}
	}
	return out, nil
}

func (p param) coerce(v any) any {
	if p.arr {
		if _, ok := arrayOf(v); !ok && !isUndef(v) {
			return []any{v}
		}
	}
	return v
}

func checkTypedArray(v any, sub, name string, idx, pos int) error {
	items, ok := arrayOf(v)
	if !ok {
		if isUndef(v) {
			return nil
		}
		items = []any{v}
	}
	for _, it := range items {
		if strings.IndexByte(sub, typeSymbol(it)) < 0 {
			return &Error{Code: "T0412", Position: pos, Token: name, index: idx, value: v, value2: typeName(sub)}
		}
	}
	return nil
}

func typeName(sub string) string {
	switch sub {
	case "s":
		return "strings"
	case "n":
		return "numbers"
	case "b":
		return "booleans"
	case "o":
		return "objects"
	}
	return sub
}

// match reports whether syms from si on match the parameters from pi on,
// recording how many arguments each parameter takes.
func (sig *signature) match(syms []byte, si, pi int, counts []int) bool {
	if pi == len(sig.params) {
		return si == len(syms)
	}
	p := sig.params[pi]
	if p.many {
		for n := len(syms) - si; n >= 1; n-- {
			if allAccept(p, syms[si:si+n]) {
				counts[pi] = n
				if sig.match(syms, si+n, pi+1, counts) {
					return true
				}
			}
		}
		if !p.opt {
			return false
		}
		counts[pi] = 0
		return sig.match(syms, si, pi+1, counts)
	}
	if si < len(syms) && p.accepts(syms[si]) {
		counts[pi] = 1
		if sig.match(syms, si+1, pi+1, counts) {
			return true
		}
	}
	if p.opt || p.context {
		counts[pi] = 0
		return sig.match(syms, si, pi+1, counts)
	}
	return false
}

func allAccept(p param, syms []byte) bool {
	for _, s := range syms {
		if !p.accepts(s) {
			return false
		}
	}
	return true
}

// firstMismatch is the index of the first argument no matching prefix covers.
func (sig *signature) firstMismatch(syms []byte) int {
	best := 0
	var walk func(si, pi int)
	walk = func(si, pi int) {
		if si > best {
			best = si
		}
		if pi == len(sig.params) || si > len(syms) {
			return
		}
		p := sig.params[pi]
		if si < len(syms) && p.accepts(syms[si]) {
			if p.many {
				walk(si+1, pi)
			}
			walk(si+1, pi+1)
		}
		if p.opt || p.context || p.many {
			walk(si, pi+1)
		}
	}
	walk(0, 0)
	if best >= len(syms) {
		best = len(syms) - 1
	}
	if best < 0 {
		best = 0
	}
	return best
}
