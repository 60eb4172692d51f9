package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/examples/order/shop"
	flowcrun "github.com/flowc-dev/flowc/flowrun"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// run runs the machine over h on input, with a fake clock whose sleeps the
// caller checks, and returns the output as JSON.
func run(t *testing.T, h OrderHandlers, input string) (string, *flowcrt.FakeClock, error) {
	t.Helper()
	var in any
	require.NoError(t, json.Unmarshal([]byte(input), &in))
	clock := flowcrt.NewFakeClock(time.Unix(0, 0))
	out, err := NewOrder(h, flowcrt.WithClock(clock)).Run(context.Background(), in)
	if err != nil {
		return "", clock, err
	}
	data, err := json.Marshal(out)
	require.NoError(t, err)
	return string(data), clock, nil
}

func inputFile(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("input.json")
	require.NoError(t, err)
	return string(data)
}

func order(lines string) string {
	return `{"orderId": "A-1001", "customer": {"id": "c-42", "tier": "gold"}, "lines": ` + lines + `}`
}

// The Map prices each line (2 × 30 and 1 × 20, 10 % off for gold), the
// JSONata Pass sums them, and under 100 the Choice goes straight to Charge.
func TestOrderIsConfirmed(t *testing.T) {
	out, clock, err := run(t, shop.Handlers(), inputFile(t))
	require.NoError(t, err)
	assert.JSONEq(t, `{"orderId": "A-1001", "status": "confirmed", "total": 72, "receipt": "rcpt-A-1001"}`, out)
	assert.Empty(t, clock.Sleeps(), "a small order does not wait")
}

// An order of 100 or more waits the Wait state's 5 seconds before the charge.
func TestLargeOrderWaitsForTheFraudScreen(t *testing.T) {
	out, clock, err := run(t, shop.Handlers(), order(`[{"sku": "go-book", "qty": 5}]`))
	require.NoError(t, err)
	assert.JSONEq(t, `{"orderId": "A-1001", "status": "confirmed", "total": 135, "receipt": "rcpt-A-1001"}`, out)
	assert.Equal(t, []time.Duration{5 * time.Second}, clock.Sleeps())
}

// CheckStock's catcher puts {Error, Cause} at $.error, and Backordered
// reports the cause.
func TestOutOfStockIsBackordered(t *testing.T) {
	out, _, err := run(t, shop.Handlers(), order(`[{"sku": "go-book", "qty": 1}, {"sku": "gopher-mug", "qty": 4}]`))
	require.NoError(t, err)
	assert.JSONEq(t, `{"orderId": "A-1001", "status": "backordered", "reason": "gopher-mug: 4 wanted, 3 in stock"}`, out)
}

// Charge's catcher goes to the Fail state, which fails the run with its
// Error and the declined charge's cause.
func TestDeclinedPaymentFailsTheRun(t *testing.T) {
	tight := shop.Handlers()
	tight.Credit = map[string]float64{"c-42": 50}
	_, _, err := run(t, tight, inputFile(t))
	var named *flowcrt.Error
	require.True(t, errors.As(err, &named), "err = %v", err)
	assert.Equal(t, "PaymentDeclined", named.Name)
	assert.Equal(t, "customer c-42: 72 is over the limit of 50", named.Cause)
}

// An error no catcher matches fails the Map item, the Map and the run under
// its own name.
func TestUnknownSkuFailsTheRun(t *testing.T) {
	pricesOnly := shop.Handlers()
	pricesOnly.Stock = map[string]float64{"go-book": 1, "tea": 1}
	_, _, err := run(t, pricesOnly, order(`[{"sku": "go-book", "qty": 1}, {"sku": "tea", "qty": 1}]`))
	assert.Equal(t, "Pricing.UnknownSku", flowcrt.ErrorName(err), "err = %v", err)
}

// Every test case of mocks.json gives the result docs/asl.md shows for
// `flowc run examples/order/order.asl.json ... --test-case NAME`.
func TestMockCases(t *testing.T) {
	data, err := os.ReadFile("mocks.json")
	require.NoError(t, err)
	cfg, err := flowcrun.ParseMockConfig(data)
	require.NoError(t, err)
	var input any
	require.NoError(t, json.Unmarshal([]byte(inputFile(t)), &input))

	for _, tc := range []struct {
		name, output, err, cause string
		sleeps                   []time.Duration
	}{
		{name: "ok", output: `{"orderId": "A-1001", "status": "confirmed", "total": 72, "receipt": "rcpt-A-1001"}`},
		{name: "large-order", output: `{"orderId": "A-1001", "status": "confirmed", "total": 720, "receipt": "rcpt-A-1001"}`,
			sleeps: []time.Duration{5 * time.Second}},
		{name: "stock-busy", output: `{"orderId": "A-1001", "status": "confirmed", "total": 72, "receipt": "rcpt-A-1001"}`,
			sleeps: []time.Duration{time.Second}},
		{name: "backordered", output: `{"orderId": "A-1001", "status": "backordered", "reason": "gopher-mug: 1 wanted, 0 in stock"}`},
		{name: "declined", err: "PaymentDeclined", cause: "customer c-42: 72 is over the limit of 50"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := cfg.Case("order", tc.name)
			require.NoError(t, err)
			clock := flowcrt.NewFakeClock(time.Unix(0, 0))
			out, err := NewOrderMock(m, flowcrt.WithClock(clock)).Run(context.Background(), input)
			if tc.err != "" {
				var named *flowcrt.Error
				require.True(t, errors.As(err, &named), "err = %v", err)
				assert.Equal(t, tc.err, named.Name)
				assert.Equal(t, tc.cause, named.Cause)
				return
			}
			require.NoError(t, err)
			got, err := json.Marshal(out)
			require.NoError(t, err)
			assert.JSONEq(t, tc.output, string(got))
			assert.Equal(t, tc.sleeps, clock.Sleeps())
		})
	}
}
