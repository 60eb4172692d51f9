// Package branchop reads the `when` of the numeric branch operators (`>`,
// `<`, `in_range`), which task chains and flowc YAML `branches` share.
package branchop

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/flowc-dev/flowc/ir"
)

// Numbers parses b.When for a numeric operator into b.Num, or b.Min and
// b.Max. It returns what is wrong with `when`, or "" when nothing is or the
// operator is not numeric.
func Numbers(b *ir.Branch) string {
	switch b.Operator {
	case ir.OpGreater, ir.OpLess:
		v, ok := number(b.When)
		b.Num = v
		if !ok {
			return fmt.Sprintf("`when` of a `%s` branch must be a number, got %q", b.Operator, b.When)
		}
	case ir.OpInRange:
		lo, hi, ok := numberRange(b.When)
		b.Min, b.Max = lo, hi
		if !ok {
			return fmt.Sprintf("`when` of an `in_range` branch must be `min,max` with min <= max, got %q", b.When)
		}
	}
	return ""
}

func number(s string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return v, err == nil && !math.IsNaN(v) && !math.IsInf(v, 0)
}

func numberRange(s string) (lo, hi float64, ok bool) {
	a, b, found := strings.Cut(s, ",")
	lo, ok1 := number(a)
	hi, ok2 := number(b)
	return lo, hi, found && ok1 && ok2 && lo <= hi
}
