package jsonata

import (
	"strings"
	"unicode/utf8"
)

// matchAt is one regex match in JSONata's shape.
type matchAt struct {
	start, end int // byte offsets
	groups     []any
	text       string
}

func (m *matcher) find(s string, from int) *matchAt {
	loc := m.re.FindStringSubmatchIndex(s[from:])
	if loc == nil {
		return nil
	}
	r := &matchAt{start: from + loc[0], end: from + loc[1], text: s[from+loc[0] : from+loc[1]]}
	for g := 1; g < len(loc)/2; g++ {
		if loc[2*g] < 0 {
			r.groups = append(r.groups, "")
		} else {
			r.groups = append(r.groups, s[from+loc[2*g]:from+loc[2*g+1]])
		}
	}
	if r.groups == nil {
		r.groups = []any{}
	}
	return r
}

// all returns up to limit (negative: no limit) matches; an empty match is D1004.
func (m *matcher) all(s string, limit int) ([]*matchAt, error) {
	var out []*matchAt
	from := 0
	for from <= len(s) && (limit < 0 || len(out) < limit) {
		r := m.find(s, from)
		if r == nil {
			break
		}
		if r.end == r.start {
			return nil, newError("D1004", -1, m.re.String())
		}
		out = append(out, r)
		from = r.end
	}
	return out, nil
}

func (r *matchAt) object(s string) *Object {
	o := newObject(3)
	o.set("match", r.text)
	o.set("index", float64(utf16Len(s[:r.start])))
	o.set("groups", r.groups)
	return o
}

// call makes a regex usable as a function: it returns the first match with a
// next() that continues after it.
func (m *matcher) call(e *evaluator, args []any) (any, error) {
	s, ok := str(args, 0)
	if !ok {
		return undefined, nil
	}
	return m.matchObject(s, 0), nil
}

func (m *matcher) matchObject(s string, from int) any {
	if from > len(s) {
		return undefined
	}
	r := m.find(s, from)
	if r == nil {
		return undefined
	}
	o := newObject(5)
	o.set("match", r.text)
	o.set("start", float64(utf16Len(s[:r.start])))
	o.set("end", float64(utf16Len(s[:r.end])))
	o.set("groups", r.groups)
	next := r.end
	if r.end == r.start {
		_, w := utf8.DecodeRuneInString(s[r.end:])
		next += max(w, 1)
	}
	o.set("next", &builtin{name: "next", fn: func(e *evaluator, _ []any, _ any) (any, error) {
		return m.matchObject(s, next), nil
	}})
	return o
}

// matches runs a regex or a user matcher function over s.
func (e *evaluator) matches(pattern any, s string, limit int) ([]*matchAt, error) {
	if m, ok := pattern.(*matcher); ok {
		return m.all(s, limit)
	}
	var out []*matchAt
	r, err := e.apply(pattern, []any{s}, undefined, nil)
	if err != nil {
		return nil, err
	}
	for !isUndef(r) && (limit < 0 || len(out) < limit) {
		if !isObject(r) {
			return nil, newError("T1010", -1, "")
		}
		mt, _ := objectGet(r, "match")
		st, _ := objectGet(r, "start")
		en, _ := objectGet(r, "end")
		gs, _ := objectGet(r, "groups")
		text, ok1 := mt.(string)
		sf, ok2 := asNumber(st)
		ef, ok3 := asNumber(en)
		if !ok1 || !ok2 || !ok3 {
			return nil, newError("T1010", -1, "")
		}
		garr, _ := arrayOf(gs)
		out = append(out, &matchAt{start: byteOffset(s, int(sf)), end: byteOffset(s, int(ef)), text: text, groups: garr})
		next, _ := objectGet(r, "next")
		if _, ok := next.(callable); !ok {
			break
		}
		if r, err = e.apply(next, nil, undefined, nil); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// byteOffset converts a UTF-16 index into a byte offset of s.
func byteOffset(s string, u int) int {
	n := 0
	for i, r := range s {
		if n >= u {
			return i
		}
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return len(s)
}

func limitArg(a []any, i int, code string) (int, error) {
	v := arg(a, i)
	if isUndef(v) {
		return -1, nil
	}
	f, _ := asNumber(v)
	if f < 0 {
		return 0, newError(code, -1, "")
	}
	return int(f), nil
}

func fnContains(e *evaluator, a []any, _ any) (any, error) {
	s, ok := str(a, 0)
	if !ok || isUndef(arg(a, 1)) {
		return undefined, nil
	}
	if t, ok := a[1].(string); ok {
		return strings.Contains(s, t), nil
	}
	ms, err := e.matches(a[1], s, 1)
	if err != nil {
		return nil, err
	}
	return len(ms) > 0, nil
}

func fnSplit(e *evaluator, a []any, _ any) (any, error) {
	s, ok := str(a, 0)
	if !ok || isUndef(arg(a, 1)) {
		return undefined, nil
	}
	limit, err := limitArg(a, 2, "D3020")
	if err != nil {
		return nil, err
	}
	var parts []any
	if sep, ok := a[1].(string); ok {
		if sep == "" {
			for _, r := range s {
				parts = append(parts, string(r))
			}
		} else {
			for _, p := range strings.Split(s, sep) {
				parts = append(parts, p)
			}
		}
	} else {
		ms, err := e.matches(a[1], s, -1)
		if err != nil {
			return nil, err
		}
		from := 0
		for _, m := range ms {
			parts = append(parts, s[from:m.start])
			from = m.end
		}
		parts = append(parts, s[from:])
	}
	if parts == nil {
		parts = []any{}
	}
	if limit >= 0 && limit < len(parts) {
		parts = parts[:limit]
	}
	return parts, nil
}

func fnMatch(e *evaluator, a []any, _ any) (any, error) {
	s, ok := str(a, 0)
	if !ok || isUndef(arg(a, 1)) {
		return undefined, nil
	}
	limit, err := limitArg(a, 2, "D3040")
	if err != nil {
		return nil, err
	}
	ms, err := e.matches(a[1], s, limit)
	if err != nil {
		return nil, err
	}
	out := newSeq(len(ms))
	for _, m := range ms {
		out.v = append(out.v, m.object(s))
	}
	return out, nil
}

func fnReplace(e *evaluator, a []any, _ any) (any, error) {
	s, ok := str(a, 0)
	if !ok || isUndef(arg(a, 1)) {
		return undefined, nil
	}
	if p, ok := a[1].(string); ok && p == "" {
		return nil, newError("D3010", -1, "replace")
	}
	limit, err := limitArg(a, 3, "D3011")
	if err != nil {
		return nil, err
	}
	var ms []*matchAt
	if p, ok := a[1].(string); ok {
		from := 0
		for limit < 0 || len(ms) < limit {
			i := strings.Index(s[from:], p)
			if i < 0 {
				break
			}
			ms = append(ms, &matchAt{start: from + i, end: from + i + len(p), text: p, groups: []any{}})
			from += i + len(p)
		}
	} else if ms, err = e.matches(a[1], s, limit); err != nil {
		return nil, err
	}
	var b strings.Builder
	from := 0
	for _, m := range ms {
		b.WriteString(s[from:m.start])
		switch rep := a[2].(type) {
		case string:
			b.WriteString(substitute(rep, m))
		default:
			r, err := e.apply(rep, []any{m.object(s)}, undefined, nil)
			if err != nil {
				return nil, err
			}
			rs, ok := r.(string)
			if !ok {
				return nil, valueError("D3012", -1, r)
			}
			b.WriteString(rs)
		}
		from = m.end
	}
	b.WriteString(s[from:])
	return b.String(), nil
}

// substitute expands $$, $0 and $n in a replacement string; a group number
// takes as many digits as the group count allows.
func substitute(rep string, m *matchAt) string {
	var b strings.Builder
	for i := 0; i < len(rep); i++ {
		c := rep[i]
		if c != '$' || i+1 >= len(rep) {
			b.WriteByte(c)
			continue
		}
		d := rep[i+1]
		switch {
		case d == '$':
			b.WriteByte('$')
			i++
		case d == '0':
			b.WriteString(m.text)
			i++
		case d >= '1' && d <= '9':
			maxDigits := 1
			if len(m.groups) > 0 {
				maxDigits = len(itoa(len(m.groups)))
			}
			j := i + 1
			for j < len(rep) && j < i+1+maxDigits && rep[j] >= '0' && rep[j] <= '9' {
				j++
			}
			idx := atoi(rep[i+1 : j])
			if j-(i+1) > 1 && idx > len(m.groups) {
				j--
				idx = atoi(rep[i+1 : j])
			}
			if idx >= 1 && idx <= len(m.groups) {
				if g, ok := m.groups[idx-1].(string); ok {
					b.WriteString(g)
				}
			}
			i = j - 1
		default:
			b.WriteByte('$')
		}
	}
	return b.String()
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var d []byte
	for ; n > 0; n /= 10 {
		d = append([]byte{byte('0' + n%10)}, d...)
	}
	return string(d)
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}
