package pyexpr

import (
	"slices"
	"strings"
	"unicode"
)

// Methods a condition may call on values: safe_eval lets a condition call
// any public method of a value (safe_eval.py, _call_method_on_attribute).
// flowc has those of str, dict and list that read without changing the
// value; a method that would change a variable is not there.

var strMethods = map[string]func(s string, args []any) (any, error){
	"lower":      func(s string, _ []any) (any, error) { return strings.ToLower(s), nil },
	"upper":      func(s string, _ []any) (any, error) { return strings.ToUpper(s), nil },
	"casefold":   func(s string, _ []any) (any, error) { return strings.ToLower(s), nil },
	"title":      func(s string, _ []any) (any, error) { return title(s), nil },
	"capitalize": func(s string, _ []any) (any, error) { return capitalize(s), nil },
	"swapcase":   func(s string, _ []any) (any, error) { return swapcase(s), nil },
	"strip":      strip(strings.TrimSpace, strings.Trim),
	"lstrip":     strip(func(s string) string { return strings.TrimLeftFunc(s, unicode.IsSpace) }, strings.TrimLeft),
	"rstrip":     strip(func(s string) string { return strings.TrimRightFunc(s, unicode.IsSpace) }, strings.TrimRight),
	"startswith": affix(strings.HasPrefix), "endswith": affix(strings.HasSuffix),
	"split": split, "splitlines": func(s string, _ []any) (any, error) { return strList(splitLines(s)), nil },
	"replace": replace, "join": join,
	"find": find(strings.Index, false), "rfind": find(strings.LastIndex, false),
	"index": find(strings.Index, true), "rindex": find(strings.LastIndex, true),
	"count":        count,
	"removeprefix": oneString(strings.TrimPrefix), "removesuffix": oneString(strings.TrimSuffix),
	"isdigit": all(unicode.IsDigit), "isdecimal": all(unicode.IsDigit), "isnumeric": all(unicode.IsNumber),
	"isalpha": all(unicode.IsLetter), "isspace": all(unicode.IsSpace),
	"isalnum": all(func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }),
	"islower": cased(unicode.IsLower, unicode.IsUpper), "isupper": cased(unicode.IsUpper, unicode.IsLower),
}

var dictMethods = map[string]func(d *dict, args []any) (any, error){
	"get": func(d *dict, args []any) (any, error) {
		if len(args) < 1 || len(args) > 2 {
			return nil, typeErr("get expected 1 or 2 arguments, got %d", len(args))
		}
		v, ok, err := d.get(args[0])
		if !ok && len(args) == 2 {
			return args[1], err
		}
		return v, err
	},
	"keys":   func(d *dict, _ []any) (any, error) { return dictKeys(slices.Clone(d.keys)), nil },
	"values": func(d *dict, _ []any) (any, error) { return slices.Clone(d.vals), nil },
	"items": func(d *dict, _ []any) (any, error) {
		out := make([]any, len(d.keys))
		for i, k := range d.keys {
			out[i] = tuple{k, d.vals[i]}
		}
		return out, nil
	},
	"copy": func(d *dict, _ []any) (any, error) {
		c := newDict()
		for i, k := range d.keys {
			_ = c.set(k, d.vals[i])
		}
		return c, nil
	},
}

var seqMethods = map[string]func(l []any, args []any) (any, error){
	"count": func(l []any, args []any) (any, error) {
		if len(args) != 1 {
			return nil, typeErr("count() takes exactly one argument (%d given)", len(args))
		}
		n := int64(0)
		for _, x := range l {
			if equal(x, args[0]) {
				n++
			}
		}
		return n, nil
	},
	"index": func(l []any, args []any) (any, error) {
		if len(args) != 1 {
			return nil, typeErr("index() takes exactly one argument (%d given)", len(args))
		}
		for i, x := range l {
			if equal(x, args[0]) {
				return int64(i), nil
			}
		}
		return nil, valueErr("%s is not in list", Repr(args[0]))
	},
}

func hasMethod(recv any, name string) bool {
	switch recv.(type) {
	case string:
		return strMethods[name] != nil
	case *dict:
		return dictMethods[name] != nil
	case []any:
		return seqMethods[name] != nil || name == "copy"
	case tuple:
		return seqMethods[name] != nil
	}
	return false
}

func callMethod(recv any, name string, args []any, kwargs map[string]any) (any, error) {
	if len(kwargs) > 0 {
		return nil, typeErr("%s.%s() takes no keyword arguments in flowc", typeName(recv), name)
	}
	switch r := recv.(type) {
	case string:
		return strMethods[name](r, args)
	case *dict:
		return dictMethods[name](r, args)
	case []any:
		if name == "copy" {
			return slices.Clone(r), nil
		}
		return seqMethods[name](r, args)
	case tuple:
		return seqMethods[name](r, args)
	}
	return nil, typeErr("'%s' object has no attribute '%s'", typeName(recv), name)
}

func strArg(args []any, i int, method string) (string, error) {
	if i >= len(args) {
		return "", typeErr("%s() missing an argument", method)
	}
	s, ok := args[i].(string)
	if !ok {
		return "", typeErr("%s() argument must be str, not %s", method, typeName(args[i]))
	}
	return s, nil
}

func strip(space func(string) string, chars func(string, string) string) func(string, []any) (any, error) {
	return func(s string, args []any) (any, error) {
		if len(args) == 0 || args[0] == nil {
			return space(s), nil
		}
		c, err := strArg(args, 0, "strip")
		if err != nil {
			return nil, err
		}
		return chars(s, c), nil
	}
}

func affix(test func(s, p string) bool) func(string, []any) (any, error) {
	return func(s string, args []any) (any, error) {
		if len(args) != 1 {
			return nil, typeErr("startswith/endswith take one argument in flowc (%d given)", len(args))
		}
		options := []any{args[0]}
		if t, ok := args[0].(tuple); ok {
			options = t
		}
		for _, o := range options {
			p, ok := o.(string)
			if !ok {
				return nil, typeErr("startswith/endswith first arg must be str or a tuple of str, not %s", typeName(o))
			}
			if test(s, p) {
				return true, nil
			}
		}
		return false, nil
	}
}

func split(s string, args []any) (any, error) {
	limit := int64(-1)
	if len(args) == 2 {
		n, _, isFloat, ok := number(args[1])
		if !ok || isFloat {
			return nil, typeErr("'%s' object cannot be interpreted as an integer", typeName(args[1]))
		}
		limit = n
	}
	if len(args) == 0 || args[0] == nil {
		fields := strings.Fields(s)
		if limit >= 0 && int64(len(fields)) > limit+1 {
			// The rest after limit splits keeps its inner spacing.
			rest := strings.TrimLeftFunc(s, unicode.IsSpace)
			out := []string{}
			for range limit {
				f := strings.IndexFunc(rest, unicode.IsSpace)
				out = append(out, rest[:f])
				rest = strings.TrimLeftFunc(rest[f:], unicode.IsSpace)
			}
			fields = append(out, strings.TrimRightFunc(rest, unicode.IsSpace))
		}
		return strList(fields), nil
	}
	sep, err := strArg(args, 0, "split")
	if err != nil {
		return nil, err
	}
	if sep == "" {
		return nil, valueErr("empty separator")
	}
	n := -1
	if limit >= 0 {
		n = int(limit) + 1
	}
	return strList(strings.SplitN(s, sep, n)), nil
}

// splitLines is Python's str.splitlines() for \n, \r and \r\n.
func splitLines(s string) []string {
	out := strings.Split(strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n"), "\n")
	if out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

func strList(l []string) []any {
	out := make([]any, len(l))
	for i, s := range l {
		out[i] = s
	}
	return out
}

func replace(s string, args []any) (any, error) {
	old, err := strArg(args, 0, "replace")
	if err != nil {
		return nil, err
	}
	repl, err := strArg(args, 1, "replace")
	if err != nil {
		return nil, err
	}
	n := -1
	if len(args) == 3 {
		c, _, isFloat, ok := number(args[2])
		if !ok || isFloat {
			return nil, typeErr("'%s' object cannot be interpreted as an integer", typeName(args[2]))
		}
		n = int(c)
	}
	return strings.Replace(s, old, repl, n), nil
}

func join(s string, args []any) (any, error) {
	if len(args) != 1 {
		return nil, typeErr("join() takes exactly one argument (%d given)", len(args))
	}
	l, err := items(args[0])
	if err != nil {
		return nil, err
	}
	parts := make([]string, len(l))
	for i, x := range l {
		p, ok := x.(string)
		if !ok {
			return nil, typeErr("sequence item %d: expected str instance, %s found", i, typeName(x))
		}
		parts[i] = p
	}
	return strings.Join(parts, s), nil
}

func find(search func(s, sub string) int, raise bool) func(string, []any) (any, error) {
	return func(s string, args []any) (any, error) {
		sub, err := strArg(args, 0, "find")
		if err != nil {
			return nil, err
		}
		i := search(s, sub)
		if i < 0 {
			if raise {
				return nil, valueErr("substring not found")
			}
			return int64(-1), nil
		}
		return runeLen(s[:i]), nil
	}
}

func count(s string, args []any) (any, error) {
	sub, err := strArg(args, 0, "count")
	if err != nil {
		return nil, err
	}
	if sub == "" {
		return runeLen(s) + 1, nil
	}
	return int64(strings.Count(s, sub)), nil
}

func oneString(f func(s, arg string) string) func(string, []any) (any, error) {
	return func(s string, args []any) (any, error) {
		a, err := strArg(args, 0, "removeprefix")
		if err != nil {
			return nil, err
		}
		return f(s, a), nil
	}
}

func all(test func(rune) bool) func(string, []any) (any, error) {
	return func(s string, _ []any) (any, error) {
		if s == "" {
			return false, nil
		}
		for _, r := range s {
			if !test(r) {
				return false, nil
			}
		}
		return true, nil
	}
}

// cased is Python's islower/isupper: some cased character, and none of
// the other case.
func cased(is, isOther func(rune) bool) func(string, []any) (any, error) {
	return func(s string, _ []any) (any, error) {
		found := false
		for _, r := range s {
			if isOther(r) || unicode.IsTitle(r) {
				return false, nil
			}
			found = found || is(r)
		}
		return found, nil
	}
}

func title(s string) string {
	var b strings.Builder
	prevCased := false
	for _, r := range s {
		if prevCased {
			b.WriteRune(unicode.ToLower(r))
		} else {
			b.WriteRune(unicode.ToTitle(r))
		}
		prevCased = unicode.IsLetter(r)
	}
	return b.String()
}

func capitalize(s string) string {
	for i, r := range s {
		return string(unicode.ToTitle(r)) + strings.ToLower(s[i+len(string(r)):])
	}
	return s
}

func swapcase(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsUpper(r) {
			return unicode.ToLower(r)
		}
		return unicode.ToUpper(r)
	}, s)
}
