package impl

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// An object's members come out of $keys, $each and $spread in key order,
// the same on every evaluation, not in Go's map order.
func TestJSONataObjectOrder(t *testing.T) {
	cx := jsonataContext(t, `{"m": "m!", "c": "c!", "x": "x!", "a": "a!", "q": "q!", "f": "f!", "z": "z!", "b": "b!"}`, nil)
	cases := map[string]string{
		`$keys($states.input)`:                             `["a","b","c","f","m","q","x","z"]`,
		`$each($states.input, function($v, $k) {$k & $v})`: `["aa!","bb!","cc!","ff!","mm!","qq!","xx!","zz!"]`,
		`$spread($states.input)[0]`:                        `{"a":"a!"}`,
		`$spread([$states.input, {"y": 1, "d": 2}])[-1]`:   `{"y":1}`,
	}
	for src, want := range cases {
		for range 20 {
			got, err := (&JSONata{Src: src}).Eval(cx)
			require.NoError(t, err, src)
			require.JSONEq(t, want, jsonText(got), src)
		}
	}
}
