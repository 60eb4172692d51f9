package asl

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/flowc-dev/flowc/runtime/impl"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func jsonataContext(t *testing.T, input string, vars map[string]any) *aslContext {
	t.Helper()
	x, _, err := NewASLExec(&impl.Config{}, "m", nil, nil)
	require.NoError(t, err)
	cx := x.Enter(context.Background(), "S")
	cx.input = mustJSON(t, input)
	for k, v := range vars {
		cx.vars.vals[k] = v
	}
	return cx
}

// A simple path followed without the evaluator gives what the evaluator
// gives, arrays (over which JSONata maps) included.
func TestJSONataSimplePaths(t *testing.T) {
	cx := jsonataContext(t, `{"a": {"b": 1, "list": [{"c": 1}, {"c": 2}], "one": [{"c": 3}]}, "n": null}`,
		map[string]any{"v": Obj("x", "y")})
	for _, c := range []struct {
		src    string
		root   string
		fields []string
	}{
		{"$states.input.a.b", "input", []string{"a", "b"}},
		{"$states.input.a.list.c", "input", []string{"a", "list", "c"}},
		{"$states.input.a.one.c", "input", []string{"a", "one", "c"}},
		{"$states.input.a.list", "input", []string{"a", "list"}},
		{"$states.input.n", "input", []string{"n"}},
		{"$v.x", "$v", []string{"x"}},
		{"$v", "$v", nil},
	} {
		t.Run(c.src, func(t *testing.T) {
			want, err := (&JSONata{Src: c.src}).Eval(cx)
			require.NoError(t, err)
			got, err := (&JSONata{Src: c.src, Simple: true, Root: c.root, Fields: c.fields}).Eval(cx)
			require.NoError(t, err)
			assert.Equal(t, impl.JSONText(want), impl.JSONText(got))
		})
	}
	for _, src := range []string{"$states.input.zz", "$nope"} {
		_, err := (&JSONata{Src: src}).Eval(cx)
		assert.Equal(t, statesQueryEvaluationError, impl.ErrorName(err), src)
	}
}

// One compiled expression evaluates at once with different variables
// (Map iterations do), each seeing its own.
func TestJSONataConcurrent(t *testing.T) {
	j := &JSONata{Src: "$i * 2 + $count($states.input)"}
	var wg sync.WaitGroup
	errs := make([]error, 20)
	for i := range errs {
		wg.Go(func() {
			cx := jsonataContext(t, `[1, 2]`, map[string]any{"i": float64(i)})
			v, err := j.Eval(cx)
			if err == nil && v != float64(2*i+2) {
				err = fmt.Errorf("got %v", v)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for _, err := range errs {
		assert.NoError(t, err)
	}
}

// The functions Step Functions adds to JSONata.
func TestJSONataAWSFunctions(t *testing.T) {
	cx := jsonataContext(t, `{}`, nil)
	for src, want := range map[string]string{
		"$partition([1,2,3], 2)": `[[1,2],[3]]`,
		"$range(1, 5, 2)":        `[1,3,5]`,
		"$hash('a', 'SHA-256')":  `"ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"`,
		"$parse('{\"a\": [1]}')": `{"a":[1]}`,
		"$random() < 1":          `true`,
		"$length($uuid())":       `36`,
	} {
		v, err := (&JSONata{Src: src}).Eval(cx)
		require.NoError(t, err, src)
		assert.Equal(t, want, impl.JSONText(v), src)
	}
}
