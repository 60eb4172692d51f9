package chain

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// The numeric branch operators of task chains read numbers as contenox's
// parseNumber and compare (runtime/taskengine/taskenv.go at 0c28a698) do:
// quotes and spaces are dropped, and a text that is not a number as a whole
// is read as the first number in it, so that "Score: 8/10" is 8. An eval
// without a number matches no numeric branch.

// firstNumber is the number parseNumber falls back to.
var firstNumber = regexp.MustCompile(`[-+]?\d*\.?\d+`)

// ChainNumber reads s as contenox reads an eval or a `when` for `>`, `<`
// and `in_range`.
func ChainNumber(s string) (float64, bool) {
	s = strings.NewReplacer(`"`, "", "'", "", " ", "").Replace(strings.TrimSpace(s))
	if s == "" {
		return 0, false
	}
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		return v, true
	}
	v, err := strconv.ParseFloat(firstNumber.FindString(s), 64)
	return v, err == nil
}

// rangeDash is contenox's "min-max", whose bounds may be negative.
var rangeDash = regexp.MustCompile(`^(-?\d+(?:\.\d+)?)-(-?\d+(?:\.\d+)?)$`)

// ChainRange reads the `when` of an in_range branch: "min-max" as the
// engine writes it, or "min,max" as the seed documentation does. It
// reports false for any other text and for min > max.
func ChainRange(s string) (lo, hi float64, ok bool) {
	s = strings.TrimSpace(s)
	a, b, found := strings.Cut(s, ",")
	if m := rangeDash.FindStringSubmatch(s); m != nil {
		a, b, found = m[1], m[2], true
	}
	lo, ok1 := strictNumber(a)
	hi, ok2 := strictNumber(b)
	return lo, hi, found && ok1 && ok2 && lo <= hi
}

func strictNumber(s string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return v, err == nil && !math.IsNaN(v) && !math.IsInf(v, 0)
}

// EvalGreater reports whether the number in eval is greater than n.
func EvalGreater(eval string, n float64) bool {
	v, ok := ChainNumber(eval)
	return ok && v > n
}

// EvalLess reports whether the number in eval is less than n.
func EvalLess(eval string, n float64) bool {
	v, ok := ChainNumber(eval)
	return ok && v < n
}

// EvalInRange reports whether the number in eval lies in [lo, hi].
func EvalInRange(eval string, lo, hi float64) bool {
	v, ok := ChainNumber(eval)
	return ok && v >= lo && v <= hi
}

// NoBranchMatched is the error of a task none of whose branches matches
// its eval string: the chain fails, as contenox's evaluateTransitions
// (runtime/taskengine/taskenv.go) fails it.
func NoBranchMatched(task, eval string) error {
	return &impl.StateError{State: task, Err: fmt.Errorf("no matching transition found for eval: %s", eval)}
}
