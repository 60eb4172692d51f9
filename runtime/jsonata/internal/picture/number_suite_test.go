package picture

import "testing"

func decimalFormatOf(opts map[string]string) DecimalFormat {
	f := DefaultDecimalFormat()
	fields := map[string]*string{
		"decimal-separator": &f.DecimalSeparator, "grouping-separator": &f.GroupingSeparator,
		"exponent-separator": &f.ExponentSeparator, "minus-sign": &f.MinusSign,
		"infinity": &f.Infinity, "NaN": &f.NaN, "percent": &f.Percent, "per-mille": &f.PerMille,
		"zero-digit": &f.ZeroDigit, "digit": &f.Digit, "pattern-separator": &f.PatternSeparator,
	}
	for k, v := range opts {
		if p, ok := fields[k]; ok {
			*p = v
		}
	}
	return f
}

// function-formatNumber.json of the JSONata suite.
func TestSuiteFormatNumber(t *testing.T) {
	runSuite(t, "function-formatNumber.json", func(expr string) (outcome, bool) {
		args, ok := literalArgs(expr, "formatNumber")
		if !ok || len(args) < 2 {
			return outcome{}, false
		}
		v, isNum := args[0].(float64)
		pic, isStr := args[1].(string)
		if !isNum || !isStr {
			return outcome{}, false
		}
		f := DefaultDecimalFormat()
		if len(args) == 3 {
			opts, isObj := args[2].(map[string]string)
			if !isObj {
				return outcome{}, false
			}
			f = decimalFormatOf(opts)
		}
		s, err := FormatNumber(v, pic, f)
		if err != nil {
			return fromError(err), true
		}
		return outcome{value: s}, true
	})
}
