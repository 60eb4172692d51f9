package asl

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A constant Variable is compared as the run compares a value it reads:
// by the operator's type, false on a value of another type.
func TestConstHolds(t *testing.T) {
	for _, tc := range []struct {
		op   string
		c, w any
		want bool
	}{
		{"StringEquals", "email", "email", true},
		{"StringEquals", "email", "slack", false},
		{"StringLessThan", "email", "slack", true},
		{"StringGreaterThanEquals", "email", "email", true},
		{"StringEquals", 1.0, "1", false},
		{"NumericGreaterThan", 3.0, 2.0, true},
		{"NumericLessThanEquals", 3.0, 2.0, false},
		{"NumericEquals", "3", 3.0, false},
		{"BooleanEquals", true, true, true},
		{"BooleanEquals", "true", true, false},
		{"TimestampLessThan", "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z", true},
		{"TimestampEquals", "yesterday", "2026-01-02T00:00:00Z", false},
		{"StringMatches", "ops-chat", "*-c*t", true},
		{"StringMatches", "a*b", `a\*b`, true},
		{"StringMatches", "axb", `a\*b`, false},
		{"IsString", "x", true, true},
		{"IsNumeric", "x", true, false},
		{"IsNumeric", "x", false, true},
		{"IsTimestamp", "2026-01-01T00:00:00Z", true, true},
		{"IsNull", nil, true, true},
		{"IsPresent", "x", true, true},
	} {
		assert.Equal(t, tc.want, constHolds(tc.op, tc.c, tc.w), "%v %s %v", tc.c, tc.op, tc.w)
	}
}
