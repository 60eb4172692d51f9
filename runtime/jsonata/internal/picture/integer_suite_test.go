package picture

import "testing"

// function-formatInteger.json of the JSONata suite.
func TestSuiteFormatInteger(t *testing.T) {
	runSuite(t, "function-formatInteger.json", func(expr string) (outcome, bool) {
		args, ok := literalArgs(expr, "formatInteger")
		if !ok || len(args) != 2 {
			return outcome{}, false
		}
		pic, isStr := args[1].(string)
		if !isStr {
			return outcome{}, false
		}
		if _, undef := args[0].(undefinedArg); undef {
			return outcome{undefined: true}, true // the evaluator's rule, not this package's
		}
		v, isNum := args[0].(float64)
		if !isNum {
			return outcome{}, false
		}
		s, err := FormatInteger(v, pic)
		if err != nil {
			return fromError(err), true
		}
		return outcome{value: s}, true
	})
}

// function-parseInteger.json of the JSONata suite.
func TestSuiteParseInteger(t *testing.T) {
	runSuite(t, "function-parseInteger.json", func(expr string) (outcome, bool) {
		args, ok := literalArgs(expr, "parseInteger")
		if !ok || len(args) != 2 {
			return outcome{}, false
		}
		pic, isStr := args[1].(string)
		if !isStr {
			return outcome{}, false
		}
		if _, undef := args[0].(undefinedArg); undef {
			return outcome{undefined: true}, true // the evaluator's rule, not this package's
		}
		s, isStr := args[0].(string)
		if !isStr {
			return outcome{}, false
		}
		v, err := ParseInteger(s, pic)
		if err != nil {
			return fromError(err), true
		}
		return outcome{value: v}, true
	})
}
