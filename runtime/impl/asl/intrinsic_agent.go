package asl

import (
	"math"
	"unicode/utf8"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// The Agent State Language's intrinsic functions beyond AWS's. Token
// counts are estimates: a token per four bytes of text, as the language's
// reference engine counts them.

// StatesMathSubtract is States.MathSubtract: the first minus the second.
func StatesMathSubtract(args []any) (any, error) {
	a, b, err := twoNumbers(args)
	return a - b, err
}

// StatesMathMultiply is States.MathMultiply.
func StatesMathMultiply(args []any) (any, error) {
	a, b, err := twoNumbers(args)
	return a * b, err
}

func twoNumbers(args []any) (float64, float64, error) {
	a, err := argNumber(args, 0)
	if err != nil {
		return 0, 0, err
	}
	b, err := argNumber(args, 1)
	return a, b, err
}

// StatesArrayConcat is States.ArrayConcat: the arrays one after another.
func StatesArrayConcat(args []any) (any, error) {
	out := []any{}
	for i := range args {
		a, err := argArray(args, i)
		if err != nil {
			return nil, err
		}
		out = append(out, a...)
	}
	return out, nil
}

// StatesCoalesce is States.Coalesce: the first argument that is not null
// (a path that points nowhere counts as null), else null.
func StatesCoalesce(args []any) (any, error) {
	for _, a := range args {
		if a != nil {
			return a, nil
		}
	}
	return nil, nil
}

// StatesMerge is States.Merge: the objects merged deeply, later members
// winning.
func StatesMerge(args []any) (any, error) {
	out := newObject(0)
	for i := range args {
		o, err := argObject(args, i)
		if err != nil {
			return nil, err
		}
		out = mergeObjects(out, o, true)
	}
	return out, nil
}

// StatesPick is States.Pick: the named members of an object, in its order.
func StatesPick(args []any) (any, error) { return filterMembers(args, true) }

// StatesOmit is States.Omit: the object without the named members.
func StatesOmit(args []any) (any, error) { return filterMembers(args, false) }

func filterMembers(args []any, keep bool) (any, error) {
	o, err := argObject(args, 0)
	if err != nil {
		return nil, err
	}
	named := map[string]bool{}
	for i := 1; i < len(args); i++ {
		s, err := argString(args, i)
		if err != nil {
			return nil, err
		}
		named[s] = true
	}
	out := newObject(o.Len())
	for _, m := range o.members {
		if named[m.key] == keep {
			out.set(m.key, m.value)
		}
	}
	return out, nil
}

// StatesTokenCount is States.TokenCount: the estimated tokens of a string,
// or of the JSON text of any other value.
func StatesTokenCount(args []any) (any, error) {
	return tokens(args[0]), nil
}

func tokens(v any) float64 {
	s, ok := v.(string)
	if !ok {
		s = impl.JSONText(v)
	}
	return math.Ceil(float64(len(s)) / 4)
}

// StatesTruncate is States.Truncate: the text cut to about maxTokens
// tokens (four bytes each, at a character boundary), "..." marking a cut.
func StatesTruncate(args []any) (any, error) {
	s, err := argString(args, 0)
	if err != nil {
		return nil, err
	}
	n, err := argInt(args, 1)
	if err != nil {
		return nil, err
	}
	limit := max(n, 0) * 4
	if len(s) <= limit {
		return s, nil
	}
	for limit > 0 && !utf8.RuneStart(s[limit]) {
		limit--
	}
	return s[:limit] + "...", nil
}

// StatesEstimateCost is States.EstimateCost(text[, model]): the estimated
// tokens priced at costPerToken. Prices differ by model and change; the
// estimate uses one list price for every model, so it ranks inputs, it
// does not quote them.
func StatesEstimateCost(args []any) (any, error) {
	if len(args) > 1 {
		if _, err := argString(args, 1); err != nil {
			return nil, err
		}
	}
	return tokens(args[0]) * costPerToken, nil
}

// costPerToken is the price States.EstimateCost uses: 15 USD per million
// tokens.
const costPerToken = 15.0 / 1e6
