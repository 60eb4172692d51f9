package picture

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/flowc-dev/flowc/internal/sharedtest"
)

// The JSONata test suite (jsonata-js test/test-suite/groups, converted into
// ../shared/conformance/jsonata/cases) exercises these functions through whole
// expressions. Most are one call with literal arguments; suiteCall extracts
// those so the cases run here without the evaluator. Cases that need more
// of the language are left to the evaluator's own suite run.
const suiteDir = "../../../../../shared/conformance/jsonata/cases"

type suiteCase struct {
	Expr            string          `json:"expr"`
	Dataset         *string         `json:"dataset"`
	Bindings        map[string]any  `json:"bindings"`
	Result          json.RawMessage `json:"result"`
	UndefinedResult bool            `json:"undefinedResult"`
	Code            string          `json:"code"`
	File            string          `json:"file"`
}

func loadSuite(t *testing.T, name string) []suiteCase {
	t.Helper()
	raw := sharedtest.ReadFile(t, filepath.Join(suiteDir, name))
	var cases []suiteCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

// literalArgs parses "$name(arg, ...)" where every argument is a string,
// number, undefined or a flat object of string values.
func literalArgs(expr, name string) ([]any, bool) {
	s := strings.TrimSpace(expr)
	if !strings.HasPrefix(s, "$"+name+"(") || !strings.HasSuffix(s, ")") {
		return nil, false
	}
	p := &argParser{src: s[len(name)+2 : len(s)-1]}
	var args []any
	for {
		p.space()
		if p.pos >= len(p.src) {
			return args, true
		}
		v, ok := p.value()
		if !ok {
			return nil, false
		}
		args = append(args, v)
		p.space()
		if p.pos < len(p.src) && p.src[p.pos] == ',' {
			p.pos++
		} else if p.pos < len(p.src) {
			return nil, false
		}
	}
}

type argParser struct {
	src string
	pos int
}

func (p *argParser) space() {
	for p.pos < len(p.src) && strings.ContainsRune(" \t\n", rune(p.src[p.pos])) {
		p.pos++
	}
}

type undefinedArg struct{}

func (p *argParser) value() (any, bool) {
	rest := p.src[p.pos:]
	switch {
	case rest == "":
		return nil, false
	case rest[0] == '"' || rest[0] == '\'':
		return p.str()
	case rest[0] == '{':
		return p.object()
	case strings.HasPrefix(rest, "undefined"):
		p.pos += len("undefined")
		return undefinedArg{}, true
	}
	f, ok := p.number()
	p.space()
	if !ok || !strings.HasPrefix(p.src[p.pos:], "*") {
		return f, ok
	}
	p.pos++
	p.space()
	g, ok := p.number()
	return f * g, ok
}

// number reads a numeric literal, possibly parenthesised as in 2*(-3).
func (p *argParser) number() (float64, bool) {
	rest := p.src[p.pos:]
	parens := strings.HasPrefix(rest, "(")
	if parens {
		rest = rest[1:]
	}
	end := 0
	for end < len(rest) && strings.ContainsRune("0123456789.eE+-", rune(rest[end])) {
		end++
	}
	f, err := strconv.ParseFloat(rest[:end], 64)
	if err != nil || parens && !strings.HasPrefix(rest[end:], ")") {
		return 0, false
	}
	p.pos += end
	if parens {
		p.pos += 2
	}
	return f, true
}

func (p *argParser) str() (any, bool) {
	quote := p.src[p.pos]
	var b strings.Builder
	for i := p.pos + 1; i < len(p.src); i++ {
		c := p.src[i]
		switch {
		case c == quote:
			p.pos = i + 1
			return b.String(), true
		case c == '\\' && i+1 < len(p.src):
			i++
			switch p.src[i] {
			case 'n':
				b.WriteByte('\n')
			case 'u':
				r, err := strconv.ParseUint(p.src[i+1:i+5], 16, 32)
				if err != nil {
					return nil, false
				}
				b.WriteRune(rune(r))
				i += 4
			default:
				b.WriteByte(p.src[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return nil, false
}

func (p *argParser) object() (any, bool) {
	obj := map[string]string{}
	p.pos++
	for {
		p.space()
		if p.pos < len(p.src) && p.src[p.pos] == '}' {
			p.pos++
			return obj, true
		}
		k, ok := p.str()
		if !ok {
			return nil, false
		}
		p.space()
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			return nil, false
		}
		p.pos++
		p.space()
		v, ok := p.str()
		if !ok {
			return nil, false
		}
		obj[k.(string)] = v.(string)
		p.space()
		if p.pos < len(p.src) && p.src[p.pos] == ',' {
			p.pos++
		}
	}
}

// outcome is what a case produced: a JSON value, undefined, or an error code.
type outcome struct {
	value     any
	undefined bool
	code      string
}

func (o outcome) String() string {
	switch {
	case o.code != "":
		return "error " + o.code
	case o.undefined:
		return "undefined"
	}
	b, _ := json.Marshal(o.value)
	return string(b)
}

func fromError(err error) outcome {
	var pe *Error
	if errors.As(err, &pe) {
		return outcome{code: pe.Code}
	}
	return outcome{code: "go error: " + err.Error()}
}

func expected(c suiteCase) outcome {
	switch {
	case c.Code != "":
		return outcome{code: c.Code}
	case c.UndefinedResult:
		return outcome{undefined: true}
	}
	var v any
	if err := json.Unmarshal(c.Result, &v); err != nil {
		return outcome{code: "bad result"}
	}
	return outcome{value: v}
}

// runSuite runs every case of file that call recognises and reports the
// pass count; a case call cannot run is counted as not run.
func runSuite(t *testing.T, file string, call func(expr string) (outcome, bool)) {
	cases := loadSuite(t, file)
	passed, ran := 0, 0
	for _, c := range cases {
		got, ok := call(c.Expr)
		if !ok {
			t.Logf("%s %s: not run here: %s", file, c.File, c.Expr)
			continue
		}
		ran++
		want := expected(c)
		if fmt.Sprint(got) == fmt.Sprint(want) {
			passed++
			continue
		}
		t.Errorf("%s %s: %s\n got  %v\n want %v", file, c.File, c.Expr, got, want)
	}
	t.Logf("%s: %d of %d run cases pass (%d cases in the file)", file, passed, ran, len(cases))
}
