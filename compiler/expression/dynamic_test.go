package expression

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/compiler/diag"
)

func runDynamic(t *testing.T, cases []lowering) {
	t.Helper()
	for _, tc := range cases {
		e, ds := Dynamic(Source{Text: tc.text, Pos: at})
		require.Empty(t, ds.Lines(), tc.text)
		assert.Equal(t, tc.want, sexpr(e), tc.text)
		assert.Equal(t, tc.text, e.Source)
	}
}

func TestDynamicSeeds(t *testing.T) {
	// The examples of CodeMie's State Transitions documentation, 5.3 and 5.4.
	runDynamic(t, []lowering{
		{"variable > 100", `(> $variable 100)`},
		{"count > 10", `(> $count 10)`},
		{"status == 'success'", `(== $status "success")`},
		{"count > 10 and status == 'active'", `(&& (> $count 10) (== $status "active"))`},
		{"'result' in keys", `(in (keys) "result")`},
		{"'error' in message.lower()", `(in (lower $message) "error")`},
		{"score >= 90", `(>= $score 90)`},
		{"error_count == 0 and status == 'complete'", `(&& (== $error_count 0) (== $status "complete"))`},
		{"error_count > 0 and error_count < 5", `(&& (> $error_count 0) (< $error_count 5))`},
		{"'email' in type.lower()", `(in (lower $type) "email")`},
	})
}

func TestDynamicForms(t *testing.T) {
	runDynamic(t, []lowering{
		{"not status == 'a'", `(! (== $status "a"))`},
		{"'k' not in labels", `(! (in $labels "k"))`},
		{"1 < x < 9", `(&& (< 1 $x) (< $x 9))`},
		{"message.contains('x')", `(in $message "x")`},
		{"name.startswith('a') or name.endswith(suffix)", `(|| (startswith $name "a") (endswith $name $suffix))`},
		{"name.upper() == 'A'", `(== (upper $name) "A")`},
		{"len(items) > 2.5", `(> (len $items) 2.5)`},
		{"-count + 2 * 3 / 4 % 5 >= 0", `(>= (+ (- $count) (% (/ (* 2 3) 4) 5)) 0)`},
		{"flag", `$flag`},
		{"flag or done", `(|| $flag $done)`},
		{"True and None == x", `(&& true (== nil $x))`},
		{"keys == keys", `(== (keys) (keys))`},
	})
}

func TestDynamicPositions(t *testing.T) {
	e, ds := Dynamic(Source{Text: "count > 10 and 'k' in keys", Pos: at})
	require.Empty(t, ds)
	assert.Equal(t, at, e.Pos)
	assert.Equal(t, at.Shift(8), e.Args[0].Args[1].Pos, "10")
	assert.Equal(t, at.Shift(15), e.Args[1].Pos, "'k' in keys starts at 'k'")
	assert.Equal(t, at.Shift(22), e.Args[1].Args[0].Pos, "keys")
}

func dynamicErrors(src Source) diag.List {
	_, ds := Dynamic(src)
	return ds
}

func TestDynamicErrors(t *testing.T) {
	runFailures(t, dynamicErrors, []failure{
		{"count + 1", 3, 20, "condition must be boolean, got a number"},
		{"  'yes'", 3, 22, "condition must be boolean, got a string"},
		{"name.lower()", 3, 20, "condition must be boolean, got a string"},
		{"None", 3, 20, "condition must be boolean, got None"},
		{"count / 0 > 1", 3, 28, "division by zero"},
		{"count % 0.0 > 1", 3, 28, "division by zero"},
		{"-'a' == 1", 3, 20, "operator - needs a number, got a string"},
		{"user.name == 'x'", 3, 25, "cannot read `name` of a JSON value: conditions read the keys of the previous output as variables, by name"},
		{"count >", 3, 27, "unexpected token EOF"},
		{"status.lowr() == 'x'", 3, 27, "unknown method `lowr` (did you mean `lower`?)"},
		{"size(items) > 1", 3, 20, "unknown function `size`"},
		{"items[0] == 'a'", 3, 20, "unsupported in conditions: indexing"},
	})
}
