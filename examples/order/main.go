// Command order runs the generated Order state machine (order.asl.json, Amazon
// States Language) over the handlers of package shop, an in-memory catalog,
// stock and credit limits, so the run is deterministic.
//
//	go run ./examples/order examples/order/input.json
package main

//go:generate go run github.com/flowc-dev/flowc/cmd/flowc gen .

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/flowc-dev/flowc/examples/order/shop"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: order INPUT_JSON_FILE")
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "order:", err)
		os.Exit(2)
	}
	var input any
	if err := json.Unmarshal(data, &input); err != nil {
		fmt.Fprintln(os.Stderr, "order:", os.Args[1], err)
		os.Exit(2)
	}
	out, err := NewOrder(shop.Handlers()).Run(context.Background(), input)
	if err != nil {
		fmt.Fprintf(os.Stderr, "order: %s: %v\n", flowcrt.ErrorName(err), err)
		os.Exit(1)
	}
	result, err := json.Marshal(out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "order:", err)
		os.Exit(1)
	}
	fmt.Println(string(result))
}
