package jsonata_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/flowc-dev/flowc/runtime/jsonata"
)

// An object the expression builds is a *jsonata.Object: its keys keep the
// order JavaScript gives them (array-index keys first, then as written),
// which a Go map would lose, and it encodes as JSON in that order.
func ExampleExpr_Eval() {
	x, err := jsonata.Compile(`{"total": $sum(items.price), "count": $count(items), "1": "first"}`)
	if err != nil {
		panic(err)
	}
	input := map[string]any{"items": []any{
		map[string]any{"price": 3.5},
		map[string]any{"price": 1.5},
	}}
	v, defined, err := x.Eval(context.Background(), input, nil)
	if err != nil || !defined {
		panic(fmt.Sprint(defined, err))
	}
	obj := v.(*jsonata.Object)
	fmt.Println(obj.Keys())
	total, _ := obj.Get("total")
	fmt.Println(total)
	text, _ := json.Marshal(obj)
	fmt.Println(string(text))
	// Output:
	// [1 total count]
	// 5
	// {"1":"first","total":5,"count":2}
}
