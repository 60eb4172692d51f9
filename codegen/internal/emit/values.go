package emit

import (
	"strconv"
	"time"

	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/ir"
)

// PolicyFields writes a state's id, timeout and retry rules.
func PolicyFields(vals *jen.Group, s *ir.State) {
	vals.Id("State").Op(":").Lit(s.ID)
	if s.Timeout > 0 {
		vals.Id("Timeout").Op(":").Add(Duration(s.Timeout))
	}
	if len(s.Retry) > 0 {
		vals.Id("Retry").Op(":").Index().Add(Flowcimpl("Retrier")).ValuesFunc(func(rs *jen.Group) {
			for _, r := range s.Retry {
				rs.Add(Retrier(r))
			}
		})
	}
}

// Quote is s as a Go string literal.
func Quote(s string) string { return strconv.Quote(s) }

// Retrier writes a rule with its fields in declaration order, for diffs.
func Retrier(r *ir.Retrier) jen.Code {
	return jen.CustomFunc(Multiline, func(vals *jen.Group) {
		vals.Id("Errors").Op(":").Add(StringSlice(r.Errors))
		vals.Id("MaxAttempts").Op(":").Lit(r.MaxAttempts)
		if r.Interval > 0 {
			vals.Id("Interval").Op(":").Add(Duration(r.Interval))
		}
		vals.Id("BackoffRate").Op(":").Lit(r.BackoffRate)
		if r.MaxDelay > 0 {
			vals.Id("MaxDelay").Op(":").Add(Duration(r.MaxDelay))
		}
		if r.Jitter {
			vals.Id("Jitter").Op(":").True()
		}
	})
}

// StringSlice is a []string literal of ss.
func StringSlice(ss []string) *jen.Statement {
	return jen.Index().String().ValuesFunc(func(vals *jen.Group) {
		for _, s := range ss {
			vals.Lit(s)
		}
	})
}

// Duration writes d in the largest whole unit: 30 * time.Second.
func Duration(d time.Duration) *jen.Statement {
	units := []struct {
		size time.Duration
		name string
	}{{time.Hour, "Hour"}, {time.Minute, "Minute"}, {time.Second, "Second"}, {time.Millisecond, "Millisecond"}, {time.Microsecond, "Microsecond"}}
	for _, u := range units {
		if d%u.size == 0 {
			return jen.Lit(int(d/u.size)).Op("*").Qual("time", u.name)
		}
	}
	return jen.Qual("time", "Duration").Call(jen.Lit(int64(d)))
}
