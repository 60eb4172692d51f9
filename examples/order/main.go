// Command order runs the generated Order state machine (order.asl.json, Amazon
// States Language) over an in-memory shop: a catalog, a stock and credit
// limits stand in for the Lambda functions its Task states name, so the run is
// deterministic.
//
//	go run ./examples/order examples/order/input.json
package main

//go:generate go run github.com/flowc-dev/flowc/cmd/flowc gen .

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// shop implements OrderHandlers. Handlers get JSON values: objects as
// map[string]any, numbers as float64.
type shop struct {
	prices    map[string]float64 // sku → unit price
	stock     map[string]float64 // sku → units in stock
	discounts map[string]float64 // customer tier → percent off
	credit    map[string]float64 // customer id → the most one charge may be
}

var demoShop = shop{
	prices:    map[string]float64{"go-book": 30, "gopher-mug": 20},
	stock:     map[string]float64{"go-book": 10, "gopher-mug": 3},
	discounts: map[string]float64{"gold": 10},
	credit:    map[string]float64{"c-42": 500},
}

// line is one line of the order, as CheckStock gets it and PriceLine gets it
// from the Map's ItemSelector (with the customer's tier).
type line struct {
	SKU  string  `json:"sku"`
	Qty  float64 `json:"qty"`
	Tier string  `json:"tier"`
}

// CheckStock fails with Inventory.OutOfStock, which the state catches, when a
// line asks for more than the stock holds.
func (s shop) CheckStock(_ context.Context, in any) (any, error) {
	var req struct {
		Lines []line `json:"lines"`
	}
	if err := decode(in, &req); err != nil {
		return nil, err
	}
	for _, l := range req.Lines {
		if have := s.stock[l.SKU]; l.Qty > have {
			return nil, flowcrt.NewError("Inventory.OutOfStock", fmt.Sprintf("%s: %g wanted, %g in stock", l.SKU, l.Qty, have))
		}
	}
	return map[string]any{"reserved": true}, nil
}

// PriceLine prices one line of the order, with the customer's tier discount.
func (s shop) PriceLine(_ context.Context, in any) (any, error) {
	var l line
	if err := decode(in, &l); err != nil {
		return nil, err
	}
	price, ok := s.prices[l.SKU]
	if !ok {
		return nil, flowcrt.NewError("Pricing.UnknownSku", l.SKU+" is not in the catalog")
	}
	// Whole percents of whole prices keep the amounts exact in float64.
	amount := price * l.Qty * (100 - s.discounts[l.Tier]) / 100
	return map[string]any{"sku": l.SKU, "qty": l.Qty, "amount": amount}, nil
}

// ChargePayment charges the customer, or declines a charge over their limit
// with Payment.Declined, which the state catches.
func (s shop) ChargePayment(_ context.Context, in any) (any, error) {
	var req struct {
		OrderID    string  `json:"orderId"`
		CustomerID string  `json:"customerId"`
		Amount     float64 `json:"amount"`
	}
	if err := decode(in, &req); err != nil {
		return nil, err
	}
	if limit := s.credit[req.CustomerID]; req.Amount > limit {
		return nil, flowcrt.NewError("Payment.Declined", fmt.Sprintf("customer %s: %g is over the limit of %g", req.CustomerID, req.Amount, limit))
	}
	return map[string]any{"receiptId": "rcpt-" + req.OrderID, "amount": req.Amount}, nil
}

// decode reads a handler's JSON value into a Go struct; input of the wrong
// shape is an error (States.TaskFailed), not a panic.
func decode(in, into any) error {
	data, err := json.Marshal(in)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, into); err != nil {
		return fmt.Errorf("unexpected input %s: %w", data, err)
	}
	return nil
}

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
	out, err := NewOrder(demoShop).Run(context.Background(), input)
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
