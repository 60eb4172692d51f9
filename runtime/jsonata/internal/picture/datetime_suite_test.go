package picture

import (
	"regexp"
	"strconv"
	"testing"
)

// dateCall runs one $fromMillis or $toMillis call with literal arguments.
func dateCall(expr string) (outcome, bool) {
	if args, ok := literalArgs(expr, "fromMillis"); ok {
		return fromMillisCall(args)
	}
	args, ok := literalArgs(expr, "toMillis")
	if !ok || len(args) == 0 || len(args) > 2 {
		return outcome{}, false
	}
	var strs []string
	for _, a := range args {
		if _, undef := a.(undefinedArg); undef {
			return outcome{undefined: true}, true // the evaluator's rule, not this package's
		}
		s, isStr := a.(string)
		if !isStr {
			return outcome{}, false
		}
		strs = append(strs, s)
	}
	pic := ""
	if len(strs) == 2 {
		pic = strs[1]
	}
	ms, ok, err := ParseDateTime(strs[0], pic)
	switch {
	case err != nil:
		return fromError(err), true
	case !ok:
		return outcome{undefined: true}, true
	}
	return outcome{value: float64(ms)}, true
}

func fromMillisCall(args []any) (outcome, bool) {
	if len(args) == 0 || len(args) > 3 {
		return outcome{}, false
	}
	if _, undef := args[0].(undefinedArg); undef {
		return outcome{undefined: true}, true // the evaluator's rule, not this package's
	}
	ms, isNum := args[0].(float64)
	var strs []string
	for _, a := range args[1:] {
		s, isStr := a.(string)
		if !isStr {
			return outcome{}, false
		}
		strs = append(strs, s)
	}
	if !isNum {
		return outcome{}, false
	}
	strs = append(strs, "", "")
	s, err := FormatDateTime(int64(ms), strs[0], strs[1])
	if err != nil {
		return fromError(err), true
	}
	return outcome{value: s}, true
}

var (
	// ($ts := $toMillis(...); $fromMillis($ts, '...') )
	assignThenFormat = regexp.MustCompile(`^\(\$ts := (\$toMillis\([^;]*\)); \$fromMillis\(\$ts, ('[^']*')\) \)$`)
	// $toMillis(...) ~> $fromMillis()
	chainToFormat = regexp.MustCompile(`^(\$toMillis\(.*\)) ~> \$fromMillis\(\)\s*$`)
	// $toMillis(...) = $toMillis(...)
	compareMillis = regexp.MustCompile(`^(\$toMillis\([^)]*\)) = (\$toMillis\([^)]*\))$`)
)

// dateExpr runs the few expression shapes the date suites build around
// one call: a chain into $fromMillis() and an equality of two calls.
func dateExpr(expr string) (outcome, bool) {
	switch {
	case assignThenFormat.MatchString(expr):
		m := assignThenFormat.FindStringSubmatch(expr)
		return pipeToFormat(m[1], ", "+m[2])
	case chainToFormat.MatchString(expr):
		return pipeToFormat(chainToFormat.FindStringSubmatch(expr)[1], "")
	case compareMillis.MatchString(expr):
		m := compareMillis.FindStringSubmatch(expr)
		a, okA := dateCall(m[1])
		b, okB := dateCall(m[2])
		if !okA || !okB || a.code != "" || b.code != "" || a.undefined || b.undefined {
			return outcome{}, false
		}
		return outcome{value: a.value == b.value}, true
	}
	return dateCall(expr)
}

func pipeToFormat(call, picArg string) (outcome, bool) {
	ms, ok := dateCall(call)
	if !ok || ms.code != "" || ms.undefined {
		return ms, ok
	}
	return dateCall("$fromMillis(" + strconv.FormatFloat(ms.value.(float64), 'f', -1, 64) + picArg + ")")
}

// function-fromMillis.json of the JSONata suite.
func TestSuiteFromMillis(t *testing.T) {
	runSuite(t, "function-fromMillis.json", dateExpr)
}

// function-tomillis.json of the JSONata suite.
func TestSuiteToMillis(t *testing.T) {
	runSuite(t, "function-tomillis.json", dateExpr)
}
