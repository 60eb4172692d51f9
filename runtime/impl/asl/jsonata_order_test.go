package asl

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// An object's members come out of $keys, $each and $spread in the order
// the input gave them, as JSONata defines, the same on every evaluation.
func TestJSONataObjectOrder(t *testing.T) {
	cx := jsonataContext(t, `{"m": "m!", "c": "c!", "x": "x!", "a": "a!", "q": "q!", "f": "f!", "z": "z!", "b": "b!"}`, nil)
	cases := map[string]string{
		`$keys($states.input)`:                             `["m","c","x","a","q","f","z","b"]`,
		`$each($states.input, function($v, $k) {$k & $v})`: `["mm!","cc!","xx!","aa!","qq!","ff!","zz!","bb!"]`,
		`$spread($states.input)[0]`:                        `{"m":"m!"}`,
		`$spread([$states.input, {"y": 1, "d": 2}])[-1]`:   `{"d":2}`,
	}
	for src, want := range cases {
		for range 20 {
			got, err := (&JSONata{Src: src}).Eval(cx)
			require.NoError(t, err, src)
			require.Equal(t, want, impl.JSONText(got), src)
		}
	}
}
