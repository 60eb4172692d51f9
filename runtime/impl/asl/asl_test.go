package asl

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/flowc-dev/flowc/runtime/impl"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func mustJSON(t *testing.T, s string) any {
	t.Helper()
	v, err := decodeJSON([]byte(s))
	require.NoError(t, err)
	return v
}

func path(src string, segs ...PathSeg) *JSONPath { return &JSONPath{Src: src, Segs: segs} }

func TestLookup(t *testing.T) {
	in := mustJSON(t, `{"a": {"b": [10, 20, 30]}, "items": [{"p": 5, "t": "x"}, {"p": 15}, {"t": "y"}], "n": null}`)
	cases := []struct {
		name  string
		path  *JSONPath
		want  string
		found bool
	}{
		{"field and index", path("$.a.b[1]"), `20`, true},
		{"negative index", path("$.a.b[-1]"), `30`, true},
		{"null is present", path("$.n"), `null`, true},
		{"missing", path("$.zz"), ``, false},
		{"index past the end", path("$.a.b[3]"), ``, false},
		{"wildcard", path("$.a.b[*]"), `[10,20,30]`, true},
		{"slice", path("$.a.b[1:]"), `[20,30]`, true},
		{"filter", path("$.items[?(@.p > 10)]"), `[{"p":15}]`, true},
		{"filter without spaces", path("$.items[?(@.p==15)]"), `[{"p":15}]`, true},
		{"filter with a bare word", path("$.items[?(@.t==y)]"), `[{"t":"y"}]`, true},
		{"filter exists", path("$.items[?(@.t)].t"), `["x","y"]`, true},
		{"descent", path("$..p"), `[5,15]`, true},
		{"no match is an empty list", path("$.items[?(@.p > 99)]"), `[]`, true},
		{"a final list of names picks an object", path("$.items[0]['t','p']"), `{"t":"x","p":5}`, true},
		{"length is no member of an array", path("$.a.b.length"), ``, false},
		{"length()", path("$.a.b.length()"), `3`, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, found := c.path.Lookup(in, nil)
			require.Equal(t, c.found, found)
			if found {
				assert.JSONEq(t, c.want, impl.JSONText(got))
			}
		})
	}
}

// TestGet: a path that names nothing, or a step Jayway refuses, fails the
// state with States.Runtime (docs/jsonpath.md, "Missing values").
func TestGet(t *testing.T) {
	in := mustJSON(t, `{"a": [1, 2], "s": "x"}`)
	_, err := path("$.zz").Get(in, nil)
	assert.Equal(t, impl.StatesRuntime, impl.ErrorName(err))
	assert.Contains(t, err.Error(), `the path "$.zz" does not point to a value`)
	_, err = path("$.s[?(@.x)]").Get(in, nil)
	assert.Equal(t, impl.StatesRuntime, impl.ErrorName(err))
	assert.Contains(t, err.Error(), "cannot be applied to a string")
	v, err := path("$.a.sum()").Get(in, nil)
	require.NoError(t, err)
	assert.Equal(t, 3.0, v)
}

func TestSetPath(t *testing.T) {
	raw := mustJSON(t, `{"x": 1, "a": {"keep": true}}`)
	out, err := setPath(raw, []PathSeg{Field("a"), Field("b"), Field("c")}, "deep", "$.a.b.c")
	require.NoError(t, err)
	assert.Equal(t, `{"x":1,"a":{"keep":true,"b":{"c":"deep"}}}`, impl.JSONText(out), "missing objects are created, order kept")
	assert.Equal(t, `{"x":1,"a":{"keep":true}}`, impl.JSONText(raw), "the raw input is not changed")

	out, err = setPath(raw, []PathSeg{Field("x"), Field("y"), Index(1)}, 1.0, "$.x.y[1]")
	require.NoError(t, err)
	assert.Equal(t, `{"x":{"y":[null,1]},"a":{"keep":true}}`, impl.JSONText(out), "a scalar on the way becomes an object")
	_, err = setPath(mustJSON(t, `[1]`), []PathSeg{Field("y")}, 1.0, "$.y")
	assert.Equal(t, statesResultPathMatchFailure, impl.ErrorName(err))
}

func TestObjectOrder(t *testing.T) {
	v := mustJSON(t, `{"b": 1, "a": 2, "10": 3, "2": 4}`)
	assert.Equal(t, `{"2":4,"10":3,"b":1,"a":2}`, impl.JSONText(v), "JavaScript order: index keys first, then insertion order")
	n, err := normalize(map[string]any{"z": 1, "y": []any{int(2)}})
	require.NoError(t, err)
	assert.Equal(t, `{"y":[2],"z":1}`, impl.JSONText(n))
	assert.Equal(t, map[string]any{"y": []any{2.0}, "z": 1.0}, Plain(n))
}

func TestMatchPattern(t *testing.T) {
	cases := []struct {
		pattern, s string
		want       bool
	}{
		{"log-*.txt", "log-2024.txt", true},
		{"log-*.txt", "log-.txt", true},
		{"log-*.txt", "log-1.csv", false},
		{"*", "", true},
		{"a*b*c", "aXXbYYc", true},
		{`\*star`, "*star", true},
		{`\*star`, "xstar", false},
		{`back\\slash`, `back\slash`, true},
		{"a?c", "abc", false},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, matchPattern(c.pattern, c.s), "%q ~ %q", c.pattern, c.s)
	}
}

func TestChoice(t *testing.T) {
	in := mustJSON(t, `{"s": "b", "n": 3, "t": "2024-01-01T00:00:00Z", "nil": null}`)
	c := NewChoice(in, nil)
	assert.True(t, c.Cmp(StringGreaterThan, path("$.s", Field("s")), "a"))
	assert.False(t, c.Cmp(StringEquals, path("$.n", Field("n")), "3"), "type mismatch is false")
	assert.True(t, c.Cmp(NumericLessThanEquals, path("$.n", Field("n")), 3.0))
	assert.True(t, c.Cmp(TimestampLessThan, path("$.t", Field("t")), "2024-06-01T00:00:00+02:00"))
	assert.True(t, c.Is(IsNull, path("$.nil", Field("nil")), true))
	assert.True(t, c.Is(IsNull, path("$.n", Field("n")), false), "Is*: false negates")
	assert.True(t, c.Is(IsPresent, path("$.zz", Field("zz")), false))
	assert.True(t, c.Is(IsPresent, path("$.nil", Field("nil")), true), "a null value is present")
	require.NoError(t, c.Err())
	assert.False(t, c.Cmp(StringEquals, path("$.zz", Field("zz")), "x"))
	assert.Equal(t, impl.StatesRuntime, impl.ErrorName(c.Err()), "a missing Variable is States.Runtime")
}

func call(t *testing.T, fn func([]any) (any, error), args ...any) string {
	t.Helper()
	v, err := fn(args)
	require.NoError(t, err)
	return impl.JSONText(v)
}

func TestIntrinsics(t *testing.T) {
	assert.Equal(t, `"a 1 true null"`, call(t, FormatPieces("a ", " ", " ", ""), "tmpl", 1.0, true, nil))
	assert.Equal(t, `"x{}y"`, call(t, FormatPieces("x{}y"), "x\\{\\}y"))
	assert.Equal(t, `[10,7,4,1]`, call(t, StatesArrayRange, 10.0, 0.0, -3.0))
	assert.Equal(t, `[]`, call(t, StatesArrayRange, 1.0, 5.0, -1.0))
	assert.Equal(t, `[[1,2],[3]]`, call(t, StatesArrayPartition, []any{1.0, 2.0, 3.0}, 2.0))
	assert.Equal(t, `["This","is","a","test","string"]`, call(t, StatesStringSplit, "This.is+a,test=string", ".+,="))
	assert.Equal(t, `4`, call(t, StatesMathAdd, 1.2, 2.7))
	assert.Equal(t, `null`, call(t, StatesArrayGetItem, []any{1.0}, 5.0))
	assert.Equal(t, `[1,{"a":1}]`, call(t, StatesArrayUnique, []any{1.0, mustJSON(t, `{"a":1}`), 1.0, mustJSON(t, `{"a":1}`)}))
	assert.Equal(t, `"812f45842bc6d66ee14572ce20db8e86"`, call(t, StatesHash, "input data", "MD5"))
	assert.Equal(t, `"{\"b\":1,\"a\":[2]}"`, call(t, StatesJsonToString, mustJSON(t, `{"b":1,"a":[2]}`)))
	a, b := mustJSON(t, `{"x": {"x1": 1}, "y": 2}`), mustJSON(t, `{"x": {"x2": 2}, "z": 3}`)
	assert.Equal(t, `{"x":{"x2":2},"y":2,"z":3}`, call(t, StatesJsonMerge, a, b, false))
	assert.Equal(t, `{"x":{"x1":1,"x2":2},"y":2,"z":3}`, call(t, StatesJsonMerge, a, b, true))
	r1, r2 := call(t, StatesMathRandom, 1.0, 100.0, 7.0), call(t, StatesMathRandom, 1.0, 100.0, 7.0)
	assert.Equal(t, r1, r2, "a seed makes MathRandom repeatable")

	_, err := StatesArrayLength([]any{"no"})
	assert.Error(t, err)
	_, err = FormatPieces("", "")([]any{"t", []any{}})
	assert.Error(t, err, "States.Format takes no arrays")
}

func TestDoRetriesAndCatches(t *testing.T) {
	clock := impl.NewFakeClock(time.Unix(0, 0))
	cfg := impl.NewConfig(impl.WithClock(clock))
	x, in, err := NewASLExec(&cfg, "m", nil, map[string]any{"v": 1})
	require.NoError(t, err)
	st := &ASLState{
		Name: "T", Task: true,
		Retry: []impl.Retrier{
			{Errors: []string{"A"}, MaxAttempts: 2, Interval: time.Second, BackoffRate: 2},
			{Errors: []string{statesTaskFailed}, MaxAttempts: 3, Interval: 3 * time.Second, BackoffRate: 2},
		},
		Catch: []ASLCatcher{{Errors: []string{statesALL}, ResultPath: &PathField{Path: path("$.err", Field("err"))}}},
	}
	errs := []error{impl.NewError("A", ""), errors.New("plain"), impl.NewError("B", "b"), impl.NewError("B", "last")}
	calls := 0
	body := x.Task(st, func(context.Context, any) (any, error) {
		err := errs[calls]
		calls++
		return nil, err
	})
	cx := x.Enter(context.Background(), "T")
	_, err = x.Do(context.Background(), st, cx, in, body)
	assert.Equal(t, 4, calls, "one counter per retrier: A once, TaskFailed twice")
	assert.Equal(t, []time.Duration{time.Second, 3 * time.Second, 6 * time.Second}, clock.Sleeps())
	i, out, err := st.Caught(cx, in, err)
	require.NoError(t, err)
	assert.Equal(t, 0, i)
	assert.Equal(t, `{"v":1,"err":{"Error":"B","Cause":"last"}}`, impl.JSONText(out))

	_, _, err = st.Caught(cx, in, runtimeErrorf("bad path"))
	assert.Equal(t, impl.StatesRuntime, impl.ErrorName(err), "States.ALL does not catch States.Runtime")
}
