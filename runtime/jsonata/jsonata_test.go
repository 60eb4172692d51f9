package jsonata

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// keyed is an ordered object from outside the package, like flowc's
// runtime *Object.
type keyed struct {
	keys []string
	vals map[string]any
}

func (k *keyed) Keys() []string             { return k.keys }
func (k *keyed) Get(key string) (any, bool) { v, ok := k.vals[key]; return v, ok }

func eval(t *testing.T, src string, input any, env *Env) any {
	t.Helper()
	x, err := Compile(src)
	if err != nil {
		t.Fatalf("Compile(%q): %v", src, err)
	}
	v, _, err := x.Eval(context.Background(), input, env)
	if err != nil {
		t.Fatalf("Eval(%q): %v", src, err)
	}
	return v
}

func asJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Key order is the input's, or insertion order for built objects, with
// array-index keys first as in JavaScript; a Go map is read in sorted key
// order so that results never depend on map iteration.
func TestKeyOrder(t *testing.T) {
	ordered := &keyed{keys: []string{"zeta", "alpha", "mid"}, vals: map[string]any{"zeta": 1, "alpha": 2, "mid": 3}}
	cases := []struct {
		src   string
		input any
		want  string
	}{
		{"$keys($)", ordered, `["zeta","alpha","mid"]`},
		{"$keys($)", map[string]any{"zeta": 1, "alpha": 2, "mid": 3}, `["alpha","mid","zeta"]`},
		{"$.*", ordered, `[1,2,3]`},
		{`{"b": 1, "a": 2, "c": 3}`, nil, `{"b":1,"a":2,"c":3}`},
		// JavaScript enumerates array-index keys first, in numeric order
		{`{"b": 1, "10": 2, "2": 3, "02": 4}`, nil, `{"2":3,"10":2,"b":1,"02":4}`},
		{`$keys({"b": 1, "10": 2, "2": 3})`, nil, `["2","10","b"]`},
		{`$merge([{"y": 1}, {"x": 2}, {"y": 3}])`, nil, `{"y":3,"x":2}`},
		{`$sift($, function($v){$v > 1})`, ordered, `{"alpha":2,"mid":3}`},
		{`$parse('{"q": 1, "b": [2, {"z": 0, "a": 1}]}')`, nil, `{"q":1,"b":[2,{"z":0,"a":1}]}`},
		{`$each($, function($v, $k){$k})`, ordered, `["zeta","alpha","mid"]`},
		{`$ ~> | $ | {"new": 1}, "alpha" |`, ordered, `{"zeta":1,"mid":3,"new":1}`},
	}
	for _, c := range cases {
		for i := 0; i < 20; i++ { // map order would show up as a difference between runs
			if got := asJSON(t, eval(t, c.src, c.input, nil)); got != c.want {
				t.Fatalf("%s: got %s, want %s", c.src, got, c.want)
			}
		}
	}
}

// One *Expr evaluated by many goroutines at once; run with -race.
func TestConcurrentEval(t *testing.T) {
	x, err := Compile(`($f := function($n){ $n <= 1 ? $n : $f($n-1) + $f($n-2) }; {"fib": $f(n), "name": $uppercase(name), "tags": tags[$ != "x"]^($)})`)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := 0; g < 64; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			in := map[string]any{"n": float64(g % 12), "name": fmt.Sprint("w", g), "tags": []any{"x", "b", "a"}}
			for i := 0; i < 20; i++ {
				v, _, err := x.Eval(context.Background(), in, nil)
				if err != nil {
					errs <- err
					return
				}
				want := fmt.Sprintf(`{"fib":%d,"name":"W%d","tags":["a","b"]}`, fib(g%12), g)
				if got := asJSON(t, v); got != want {
					errs <- fmt.Errorf("goroutine %d: got %s, want %s", g, got, want)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func fib(n int) int {
	if n <= 1 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	var je *Error
	if !errors.As(err, &je) || je.Code != code {
		t.Fatalf("want error %s, got %v", code, err)
	}
}

// Runaway recursion ends in U1001, by the depth bound for non-tail recursion
// and by the time budget for an endless tail call (the suite's
// tail-recursion group sets both).
func TestRunawayBounds(t *testing.T) {
	deep, _ := Compile(`($f := function($n){ 1 + $f($n + 1) }; $f(0))`)
	_, _, err := deep.Eval(context.Background(), nil, nil)
	wantCode(t, err, "U1001")

	endless, _ := Compile(`($inf := function(){ $inf() }; $inf())`)
	start := time.Now()
	_, _, err = endless.Eval(context.Background(), nil, &Env{Timeout: 50 * time.Millisecond})
	wantCode(t, err, "U1001")
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("timeout took %v", d)
	}
}

func TestCancellation(t *testing.T) {
	x, _ := Compile(`($loop := function($n){ $n > 0 ? $loop($n - 1) : "done" }; $loop(1e12))`)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(20 * time.Millisecond)
		cancel()
	}()
	start := time.Now()
	_, _, err := x.Eval(ctx, nil, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("want context.Canceled, got %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("cancellation took %v", d)
	}
}

// Step Functions' functions (Step Functions developer guide, "JSONata
// functions provided by Step Functions").
func TestAWSFunctions(t *testing.T) {
	cases := []struct{ src, want string }{
		{`$partition([1,2,3,4,5,6,7,8,9], 3)`, `[[1,2,3],[4,5,6],[7,8,9]]`},
		{`$partition([1,2,3,4], 3)`, `[[1,2,3],[4]]`},
		{`$range(0, 10, 2)`, `[0,2,4,6,8,10]`},
		{`$range(1, 0, -0.5)`, `[1,0.5,0]`},
		{`$range(0, 3)`, `[0,1,2,3]`},
		{`$hash("abc", "SHA-256")`, `"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"`},
		{`$hash("abc", "MD5")`, `"900150983cd24fb0d6963f7d28e17f72"`},
		{`$hash("abc", "SHA-1")`, `"a9993e364706816aba3e25717850c26c9cd0d89d"`},
		{`$random(42) = $random(42)`, `true`},
		{`$parse('[1, "a", {"k": null}]')`, `[1,"a",{"k":null}]`},
	}
	for _, c := range cases {
		if got := asJSON(t, eval(t, c.src, nil, nil)); got != c.want {
			t.Errorf("%s: got %s, want %s", c.src, got, c.want)
		}
	}
	uuid := eval(t, `$uuid()`, nil, nil).(string)
	if !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`).MatchString(uuid) {
		t.Errorf("$uuid() = %q, not a version 4 UUID", uuid)
	}
	for src, code := range map[string]string{
		`$partition([1,2], 0)`:  "D3151",
		`$range(1, 5, 0)`:       "D3152",
		`$hash("a", "SHA-3")`:   "D3150",
		`$parse("{not json")`:   "D3153",
		`$partition("a", "b")`:  "T0410",
		`$range(0, 1000)`:       "D3154",
		`$hash("a", "sha-256")`: "D3150",
	} {
		x, err := Compile(src)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = x.Eval(context.Background(), nil, nil)
		wantCode(t, err, code)
	}
}

// With Env.Now and Env.Rand fixed, a replay gets the same values.
func TestDeterministicReplay(t *testing.T) {
	fixed := time.Date(2024, 3, 1, 12, 30, 0, 0, time.UTC)
	counter := 0.0
	newEnv := func() *Env {
		counter = 0
		return &Env{
			Now: func() time.Time { return fixed },
			Rand: func() float64 {
				counter += 0.0137
				return counter - float64(int(counter))
			},
		}
	}
	src := `{"now": $now(), "millis": $millis(), "r": $random(), "id": $uuid(), "s": $shuffle([1,2,3,4,5])}`
	first := asJSON(t, eval(t, src, nil, newEnv()))
	second := asJSON(t, eval(t, src, nil, newEnv()))
	if first != second {
		t.Fatalf("replay differs:\n%s\n%s", first, second)
	}
	if !strings.Contains(first, `"now":"2024-03-01T12:30:00.000Z"`) || !strings.Contains(first, `"millis":1709296200000`) {
		t.Fatalf("clock not used: %s", first)
	}
}

func TestCompileErrorPosition(t *testing.T) {
	_, err := Compile(`Account.Order[0`)
	var je *Error
	if !errors.As(err, &je) || je.Code != "S0203" || je.Position != 15 {
		t.Fatalf("got %#v", err)
	}
	if !strings.Contains(je.Error(), `Expected "]" before end of expression`) {
		t.Fatalf("message: %s", je.Error())
	}
}

func TestCheck(t *testing.T) {
	scope := Scope{
		Vars:   []string{"states", "total"},
		Fields: map[string][]string{"states": {"input", "result", "errorOutput", "context"}},
	}
	cases := []struct {
		src  string
		want []string // code@position
	}{
		{`$states.input.a & $string($total)`, nil},
		{`($x := 1; $f := function($a){ $a + $x + $y }; $f(2))`, []string{"V0001@42"}},
		{`$states.inputs.a`, []string{"V0002@14"}},
		{`$nosuch(1)`, []string{"T1006@7"}},
		{`$substring()`, []string{"T0410@11"}},
		{`"abc" ~> $substring(1)`, nil},
		{`$uppercase()`, nil},
		{`$sum(1, 2)`, []string{"T0410@5"}},
		{`Account.Order@$o.Product[$o.OrderID = "x"]#$i.{"i": $i}`, nil},
		{`$map([1,2], function($v){ $v * $undefinedVar })`, []string{"V0001@44"}},
	}
	for _, c := range cases {
		x, err := Compile(c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		var got []string
		for _, e := range x.Check(scope) {
			got = append(got, fmt.Sprintf("%s@%d", e.Code, e.Position))
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: got %v, want %v", c.src, got, c.want)
		}
	}
}

// $eval sees the variables in scope where it is called (JSONata docs,
// "Functions: $eval").
func TestEvalScope(t *testing.T) {
	got := asJSON(t, eval(t, `($x := 5; $f := function($y){ $eval("$x + $y") }; $f(2))`, nil, nil))
	if got != "7" {
		t.Fatalf("got %s", got)
	}
}

// Bad input is an error, never a panic or a runaway allocation.
func TestBadInputIsAnError(t *testing.T) {
	for src, code := range map[string]string{
		`function($a)<?>{$a}`: "S0401",
		`$pad("x", 1e15)`:     "D1001",
		`?`:                   "S0211",
		`"unterminated`:       "S0101",
		`/*`:                  "S0106",
		`{"a": 1} ~> |$|{"self": $}| ~> $string()`: "",
	} {
		x, err := Compile(src)
		if err == nil {
			_, _, err = x.Eval(context.Background(), nil, nil)
		}
		if code == "" {
			if err != nil {
				t.Errorf("%s: %v", src, err)
			}
			continue
		}
		wantCode(t, err, code)
	}
}

// A result fed back as the input of concurrent evaluations is only read:
// transforms work on copies and results are never written in place.
func TestSharedResultAsInput(t *testing.T) {
	shared := eval(t, `{"items": [1, 2, 3].{"n": $, "f": function(){1}}, "meta": {"k": "v"}}`, nil, nil)
	x, err := Compile(`{"t": $ ~> |items|{"seen": true}|, "items": items, "m": $merge([meta, {"x": 1}])}`)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				if _, _, err := x.Eval(context.Background(), shared, nil); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if got := asJSON(t, shared); got != `{"items":[{"n":1},{"n":2},{"n":3}],"meta":{"k":"v"}}` {
		t.Fatalf("shared input changed: %s", got)
	}
}

// A literal and a plain field path are recognised, so that a caller can
// skip the evaluator for them (flowc's generated code follows such paths
// itself); anything else is neither.
func TestLiteralAndFieldPath(t *testing.T) {
	for src, want := range map[string]any{`"s"`: "s", `12.5`: 12.5, `true`: true, `null`: nil} {
		x, err := Compile(src)
		require.NoError(t, err)
		v, ok := x.Literal()
		assert.True(t, ok, src)
		assert.Equal(t, want, v, src)
	}
	paths := map[string][]string{`$states.input.a.b`: {"states", "input", "a", "b"}, `$v`: {"v"}, `$v.x`: {"v", "x"}}
	for src, want := range paths {
		x, err := Compile(src)
		require.NoError(t, err)
		variable, fields, ok := x.FieldPath()
		assert.True(t, ok, src)
		assert.Equal(t, want, append([]string{variable}, fields...), src)
	}
	for _, src := range []string{`$states.input[0]`, `$states.input.a[]`, `$states.input.a.(b)`, `$x.y ~> $f()`, `a.b`} {
		x, err := Compile(src)
		require.NoError(t, err)
		_, _, ok := x.FieldPath()
		assert.False(t, ok, src)
		_, ok = x.Literal()
		assert.False(t, ok, src)
	}
}

// TestFrameReuse: a call's frame serves the next call only when nothing
// holds it. Each case keeps a callback's scope alive past its call (a
// closure, a partial application, a tail call, $eval) and would see a
// later item's value if the frame were reused.
func TestFrameReuse(t *testing.T) {
	for src, want := range map[string]any{
		`($fs := $map([1, 2, 3], function($v) { function() { $v } }); $fs.$())`:                                    []any{1.0, 2.0, 3.0},
		`($add := function($a, $b) { $a + $b }; $fs := $map([1, 2, 3], function($v) { $add($v, ?) }); $fs.$(10))`:  []any{11.0, 12.0, 13.0},
		`($id := function($x) { $x }; $map([1, 2, 3], function($v) { $id($v) }))`:                                  []any{1.0, 2.0, 3.0},
		`$map([1, 2, 3], function($v) { $eval('$v * 2') })`:                                                        []any{2.0, 4.0, 6.0},
		`$map([1, 2], function($v) { $map([10, 20], function($w) { $v + $w }) })`:                                  []any{[]any{11.0, 21.0}, []any{12.0, 22.0}},
		`($count := function($n) { $n <= 0 ? 0 : 1 + $count($n - 1) }; $map([3, 5], function($v) { $count($v) }))`: []any{3.0, 5.0},
		`$reduce([1, 2, 3, 4], function($acc, $v) { ($x := $acc + $v; $x) })`:                                      10.0,
		`$filter([1, 2, 3, 4, 5, 6], function($v, $i, $all) { $count($all) = 6 and $i % 2 = 0 })`:                  []any{1.0, 3.0, 5.0},
	} {
		assert.Equal(t, want, plain(eval(t, src, nil, nil)), src)
	}
}
