package expression

import (
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/compiler/diag"
	"github.com/flowc-dev/flowc/ir"
)

// at is where the tests' expressions start: column 20 of line 3.
var at = ir.Pos{File: "f.yaml", Line: 3, Col: 20}

func TestCheckSeeds(t *testing.T) {
	// The examples of CodeMie's State Transitions documentation, 5.3 and 5.4.
	runLowering(t, []lowering{
		{"count > 10", `(> .Count 10)`},
		{"status == 'success'", `(== .Status "success")`},
		{"count > 10 and status == 'active'", `(&& (> .Count 10) (== .Status "active"))`},
		{"'result' in keys", `(inslice .Keys "result")`},
		{"'error' in message.lower()", `(contains (lower .Message) "error")`},
		{"status == 'warning'", `(== .Status "warning")`},
		{"score >= 90", `(>= .Score 90)`},
		{"score >= 70", `(>= .Score 70)`},
		{"error_count == 0 and status == 'complete'", `(&& (== .ErrorCount 0) (== .Status "complete"))`},
		{"error_count > 0 and error_count < 5", `(&& (> .ErrorCount 0) (< .ErrorCount 5))`},
		{"error_count >= 5", `(>= .ErrorCount 5)`},
		{"'email' in type.lower()", `(contains (lower .Type) "email")`},
		{"'push' in type.lower()", `(contains (lower .Type) "push")`},
	})
}

func TestCheckForms(t *testing.T) {
	runLowering(t, []lowering{
		{`status != "done"`, `(!= .Status "done")`},
		{"flag && count < 3 || !flag", `(|| (&& .Flag (< .Count 3)) (! .Flag))`},
		{"not flag or False", `(|| (! .Flag) false)`},
		{"True", `true`},
		{"flag == True", `(== .Flag true)`},
		// Python's not binds looser than comparisons and in, unless parenthesized.
		{"not status == 'a'", `(! (== .Status "a"))`},
		{"not 'k' in labels and flag", `(&& (! (haskey .Labels "k")) .Flag)`},
		{"not not count + 1 > 2", `(! (! (> (+ .Count 1) 2)))`},
		{"(not flag) == False", `(== (! .Flag) false)`},
		{"'k' not in labels", `(! (haskey .Labels "k"))`},
		{"status in tags", `(inslice .Tags .Status)`},
		{"'err' in message", `(contains .Message "err")`},
		{"'bug' in kinds", `(inslice .Kinds "bug")`},
		{"kind == 'bug'", `(== .Kind "bug")`},
		{"kind == status", `(== (string .Kind) .Status)`},
		// The functions of package strings take string, not Kind.
		{"kind.lower() == 'bug'", `(== (lower (string .Kind)) "bug")`},
		{"'b' in kind or kind.startswith(status)", `(|| (contains (string .Kind) "b") (startswith (string .Kind) .Status))`},
		{"status.upper() == 'OK'", `(== (upper .Status) "OK")`},
		{"status.startswith('a') or status.endswith('z')", `(|| (startswith .Status "a") (endswith .Status "z"))`},
		{"message.contains('x')", `(contains .Message "x")`},
		{"tags.contains(status)", `(inslice .Tags .Status)`},
		{"labels.contains('k')", `(haskey .Labels "k")`},
		{"len(tags) > 0 and len(status) == 3 and len(labels) >= 1", `(&& (&& (> (len .Tags) 0) (== (runecount .Status) 3)) (>= (len .Labels) 1))`},
		{"owner == None", `(isnil .Owner)`},
		{"tags != None", `(! (isnil .Tags))`},
		{"None == labels", `(isnil .Labels)`},
		{"meta == 'x'", `(== .Meta "x")`},
		{"count + 1 > 10 - 2 * 3", `(> (+ .Count 1) (- 10 (* 2 3)))`},
		{"count % 2 == 0", `(== (% .Count 2) 0)`},
		{"-count < -1", `(< (- .Count) (- 1))`},
		{"1 < count < 10", `(&& (< 1 .Count) (< .Count 10))`},
		{"not 1 < count <= 10", `(! (&& (< 1 .Count) (<= .Count 10)))`},
		{"(count == 1) == flag", `(== (== .Count 1) .Flag)`},
		{"status + '!' == 'ok!'", `(== (+ .Status "!") "ok!")`},
	})
}

func TestCheckConversions(t *testing.T) {
	runLowering(t, []lowering{
		{"count > score", `(> (float64 .Count) .Score)`},
		{"ratio < score", `(< (float64 .Ratio) .Score)`},
		{"level > count", `(> (int .Level) .Count)`},
		{"level > score", `(> (float64 .Level) .Score)`},
		{"score >= 90", `(>= .Score 90)`},
		{"count > 2.5", `(> (float64 .Count) 2.5)`},
		{"count > 2.0", `(> .Count 2.0)`},
		{"small < 300", `(< (float64 .Small) 300)`},
		{"small > -1", `(> (float64 .Small) (- 1))`},
		// Python's / never truncates.
		{"count / 2 > 3", `(> (/ (float64 .Count) 2) 3)`},
		{"7 / count > 3", `(> (/ 7 (float64 .Count)) 3)`},
		{"7 / 2 > count", `(> (/ (float64 7) 2) (float64 .Count))`},
		{"count / error_count > 1", `(> (/ (float64 .Count) (float64 .ErrorCount)) 1)`},
		{"count / 2.0 > 1", `(> (/ (float64 .Count) 2.0) 1)`},
		{"7.0 / 2 > level", `(> (/ (float64 7.0) 2) (float64 .Level))`},
		{"flag and 1 < 2", `(&& .Flag (< 1 2))`},
	})
}

func TestCheckNames(t *testing.T) {
	runLowering(t, []lowering{
		{"ticket.priority > 2", `(> .Ticket.Priority 2)`},
		{"ticket.Priority > 2 and ticket.TITLE == 'x'", `(&& (> .Ticket.Priority 2) (== .Ticket.Title "x"))`},
		{"item.priority > 1", `(> item.Priority 1)`},
		{"item.title.lower() == 'x'", `(== (lower item.Title) "x")`},
		{"item == ticket", `(== item .Ticket)`},
		{"decision == 'approve'", `(== $decision "approve")`},
	})
}

func TestCheckShadowing(t *testing.T) {
	str := types.Typ[types.String]
	env := &Env{
		Fields: []Field{{"True", "True", types.Typ[types.Int]}, {"item", "Item", str}, {"decision", "Decision", types.Typ[types.Int]}},
		Vars:   []Field{{"decision", "decision", str}},
	}
	for text, want := range map[string]string{
		"True > 1":             `(> .True 1)`,
		"item == 'x'":          `(== .Item "x")`,
		"decision == 'yes'":    `(== $decision "yes")`,
		"None == None or True": ``,
	} {
		e, ds := Check(Source{Text: text, Pos: at}, env)
		if want == "" {
			assert.True(t, ds.HasErrors(), text)
			continue
		}
		require.Empty(t, ds, text)
		assert.Equal(t, want, sexpr(e), text)
	}
}

type lowering struct{ text, want string }

// runLowering checks each text, compares its tree, and compiles it as Go.
func runLowering(t *testing.T, cases []lowering) {
	t.Helper()
	for _, tc := range cases {
		e, ds := Check(Source{Text: tc.text, Pos: at}, testEnv())
		require.Empty(t, ds.Lines(), tc.text)
		assert.Equal(t, tc.want, sexpr(e), tc.text)
		assert.Equal(t, tc.text, e.Source)
		compileGo(t, e)
	}
}

func TestCheckPositions(t *testing.T) {
	e, ds := Check(Source{Text: "count > 10 and 'k' not in labels", Pos: at}, testEnv())
	require.Empty(t, ds)
	and, gt, not := e, e.Args[0], e.Args[1]
	assert.Equal(t, ir.Pos{File: "f.yaml", Line: 3, Col: 20}, and.Pos)
	assert.Equal(t, at, gt.Pos)
	assert.Equal(t, at.Shift(8), gt.Args[1].Pos, "10")
	assert.Equal(t, at.Shift(15), not.Pos, "'k' not in labels starts at 'k'")
	assert.Equal(t, at.Shift(15), not.Args[0].Pos)
	assert.Equal(t, at.Shift(26), not.Args[0].Args[0].Pos, "labels")

	e, ds = Check(Source{Text: "flag and\n  len(tags) > 0", Pos: at}, testEnv())
	require.Empty(t, ds)
	assert.Equal(t, ir.Pos{File: "f.yaml", Line: 4, Col: 3}, e.Args[1].Pos)
	assert.Equal(t, ir.Pos{File: "f.yaml", Line: 4, Col: 7}, e.Args[1].Args[0].Args[0].Pos)
}

// failure is an expression that must be rejected with one diagnostic, at
// col columns past the start of its line (the first line starts at `at`).
type failure struct {
	text      string
	line, col int
	msg       string
}

func TestCheckErrors(t *testing.T) {
	runFailures(t, checkTyped, []failure{
		{"count > 'x'", 3, 26, "cannot compare int and string"},
		{"count >\t'x'", 3, 26, "cannot compare int and string"},
		{"'é' + status > 1", 3, 33, "cannot compare string and int"},
		{"count > 1 and\nstatus == 1", 4, 8, "cannot compare string and int"},
		{"stauts == 'a'", 3, 20, "unknown name `stauts` (did you mean `status`?)"},
		{"none == 1", 3, 20, "unknown name `none` (did you mean `None`?)"},
		{"count + 1", 3, 20, "condition must be boolean, got int"},
		{"  status", 3, 22, "condition must be boolean, got string"},
		{"not count", 3, 20, "operator not needs a boolean, got int"},
		{"count and flag", 3, 26, "operator and needs booleans, got int and bool"},
		{"-status == 1", 3, 20, "operator - needs a number, got string"},
		{"count + True > 1", 3, 26, "mismatched types int and bool for +"},
		{"status - 'a' == ''", 3, 27, "operator - needs numbers, got string"},
		{"'a' / 'b' == ''", 3, 24, "operator / needs numbers, got string"},
		{"score % 2 == 0", 3, 26, "operator % needs integers, got float64"},
		{"count / 0 > 1", 3, 28, "division by zero"},
		{"flag > True", 3, 25, "operator > needs numbers or strings, got bool"},
		{"tags == tags", 3, 25, "cannot compare []string with ==; only None can be compared to it"},
		{"status == None", 3, 27, "cannot compare string with None: it is never None"},
		{"None == None", 3, 25, "cannot compare None with None"},
		{"ticket > 1", 3, 27, "cannot compare Ticket and int"},
		{"count in tags", 3, 26, "cannot look for int in []string (element type string)"},
		{"status in kinds", 3, 27, "cannot look for string in []Kind (element type Kind)"},
		{"'a' in count", 3, 24, "`in` needs a string, list or map on its right, got int"},
		{"1 in status", 3, 22, "`in` a string needs a string on its left, got int"},
		{"count.lower() == ''", 3, 26, "lower() needs a string, got int"},
		{"status.startswith(1)", 3, 38, "startswith() needs a string argument, got int"},
		{"count.contains(1)", 3, 26, "contains() needs a string, list or map, got int"},
		{"len(count) > 1", 3, 24, "len() needs a string, list or map, got int"},
		{"ticket.prio > 1", 3, 27, "Ticket has no field `prio`"},
		{"ticket.titl == ''", 3, 27, "Ticket has no field `titl` (did you mean `Title`?)"},
		{"ticket.secret == ''", 3, 27, "Ticket has no field `secret`"},
		{"owner.priority > 1", 3, 26, "cannot read `priority` through the pointer *Ticket: conditions do not follow pointers"},
		{"status.x == ''", 3, 27, "string has no field `x`"},
		{"len(status).x == 1", 3, 32, "int has no field `x`"},
		{"1e300 * 1e300 > score", 3, 20, "constant overflow: the value does not fit float64"},
	})
}

// checkTyped is Check with its diagnostics alone.
func checkTyped(src Source) diag.List {
	_, ds := Check(src, testEnv())
	return ds
}

func TestSyntaxErrors(t *testing.T) {
	runFailures(t, checkTyped, []failure{
		{"count > ", 3, 28, "unexpected token EOF"},
		{"'abc", 3, 24, "literal not terminated"},
		{"status is None", 3, 27, `unexpected token Identifier("is")`},
		{"count // 2 > 1", 3, 26, "unsupported in conditions: comment (`//` starts a comment in expr, it is not floor division)"},
		{"status.lowr()", 3, 27, "unknown method `lowr` (did you mean `lower`?)"},
		{"status.lower(1)", 3, 27, "lower() takes no arguments, got 1"},
		{"status.startsWith('a')", 3, 27, "unknown method `startsWith` (did you mean `startswith`?)"},
		{"foo(count)", 3, 20, "unknown function `foo`"},
		{"upper(status)", 3, 20, "unknown function `upper`"},
		{"len(tags, tags) > 1", 3, 20, "len() takes 1 argument, got 2"},
		{"tags | len() > 0", 3, 27, "unsupported in conditions: pipe `|`"},
		{"count > 1 ? true : false", 3, 20, "unsupported in conditions: conditional expression"},
		{"tags[0] == 'a'", 3, 20, "unsupported in conditions: indexing"},
		{"labels['k'] == 'v'", 3, 20, "unsupported in conditions: indexing"},
		{"status in ['a', 'b']", 3, 30, "unsupported in conditions: list literal"},
		{"{a: 1}", 3, 20, "unsupported in conditions: map literal"},
		{"status matches 'a.*'", 3, 27, "unsupported in conditions: operator `matches`"},
		{"status contains 'x'", 3, 27, "unsupported in conditions: operator `contains` (write x.contains(y))"},
		{"count ** 2 > 1", 3, 26, "unsupported in conditions: operator `**` (no exponentiation in conditions)"},
		{"1..3", 3, 21, "unsupported in conditions: operator `..`"},
		{"ticket?.title", 3, 20, "unsupported in conditions: optional chaining `?.`"},
		{"count > 1; flag", 3, 20, "unsupported in conditions: `;`"},
		{"all(tags, # == 'x')", 3, 20, "unknown function `all`"},
		// Python chains every comparison, expr only < <= > >=.
		{"count == 1 == flag", 3, 31, "unsupported in conditions: `==` after a comparison (write `a < b and b == c`, or add parentheses)"},
		{"not 1 < count != flag", 3, 34, "unsupported in conditions: `!=` after a comparison (write `a < b and b != c`, or add parentheses)"},
		{"status not in tags == flag", 3, 39, "unsupported in conditions: `==` after a comparison (write `a < b and b == c`, or add parentheses)"},
	})
}

func TestCheckReportsEveryError(t *testing.T) {
	_, ds := Check(Source{Text: "stauts == 'a' and error_cont > 1", Pos: at}, testEnv())
	assert.Equal(t, "f.yaml:3:20: unknown name `stauts` (did you mean `status`?)\n"+
		"f.yaml:3:38: unknown name `error_cont` (did you mean `error_count`?)\n", ds.Lines())
}

func TestCheckItemOutOfScope(t *testing.T) {
	env := testEnv()
	env.Item = nil
	_, ds := Check(Source{Text: "item.priority > 1", Pos: at}, env)
	assert.Equal(t, "f.yaml:3:20: unknown name `item`\n", ds.Lines())
}

func TestCheckUnresolvedField(t *testing.T) {
	// The field's type was reported where it was declared; say nothing more.
	env := &Env{Fields: []Field{{Name: "ticket", GoName: "Ticket"}}}
	e, ds := Check(Source{Text: "ticket.priority > 1", Pos: at}, env)
	assert.Nil(t, e)
	assert.Empty(t, ds)
}

func runFailures(t *testing.T, check func(Source) diag.List, cases []failure) {
	t.Helper()
	for _, tc := range cases {
		ds := check(Source{Text: tc.text, Pos: at})
		want := ir.Pos{File: at.File, Line: tc.line, Col: tc.col}.String() + ": " + tc.msg + "\n"
		assert.Equal(t, want, ds.Lines(), tc.text)
	}
}
