// Package shop holds the handlers of the order example (order.asl.json): an
// in-memory catalog, stock and credit limits stand in for the Lambda
// functions its Task states name, so a run is deterministic. The example's
// main.go runs them, and so does the program of
// flowc build examples/order/order.asl.json --handlers ./examples/order/shop.
package shop

import (
	"context"
	"encoding/json"
	"fmt"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// Shop implements the generated OrderHandlers. Handlers get JSON values:
// objects as map[string]any, numbers as float64.
// The stock and the credit limits are exported so that a test can set them.
type Shop struct {
	Stock  map[string]float64 // sku → units in stock
	Credit map[string]float64 // customer id → the most one charge may be

	prices    map[string]float64 // sku → unit price
	discounts map[string]float64 // customer tier → percent off
}

// Handlers returns the demo shop. flowc build --handlers finds it by this
// name and signature.
func Handlers() *Shop {
	return &Shop{
		prices:    map[string]float64{"go-book": 30, "gopher-mug": 20},
		Stock:     map[string]float64{"go-book": 10, "gopher-mug": 3},
		discounts: map[string]float64{"gold": 10},
		Credit:    map[string]float64{"c-42": 500},
	}
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
func (s *Shop) CheckStock(_ context.Context, in any) (any, error) {
	var req struct {
		Lines []line `json:"lines"`
	}
	if err := decode(in, &req); err != nil {
		return nil, err
	}
	for _, l := range req.Lines {
		if have := s.Stock[l.SKU]; l.Qty > have {
			return nil, flowcrt.NewError("Inventory.OutOfStock", fmt.Sprintf("%s: %g wanted, %g in stock", l.SKU, l.Qty, have))
		}
	}
	return map[string]any{"reserved": true}, nil
}

// PriceLine prices one line of the order, with the customer's tier discount.
func (s *Shop) PriceLine(_ context.Context, in any) (any, error) {
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
func (s *Shop) ChargePayment(_ context.Context, in any) (any, error) {
	var req struct {
		OrderID    string  `json:"orderId"`
		CustomerID string  `json:"customerId"`
		Amount     float64 `json:"amount"`
	}
	if err := decode(in, &req); err != nil {
		return nil, err
	}
	if limit := s.Credit[req.CustomerID]; req.Amount > limit {
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
