package jsonata

import (
	"context"
	"testing"
)

func BenchmarkOne(b *testing.B) {
	for _, src := range []string{`"hello"`, `$spread("Hello World")`, `Account.Order[0].Product[0].Price`, `$sum(Account.Order.Product.(Price * Quantity))`, `Account.Order.Product{"x": Price}`} {
		x, _ := Compile(src)
		in := map[string]any{"Account": map[string]any{"Order": []any{map[string]any{"Product": []any{map[string]any{"Price": 1.0, "Quantity": 2.0}}}}}}
		b.Run(src, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				x.Eval(context.Background(), in, nil)
			}
		})
	}
}

func BenchmarkFormatNumber(b *testing.B) {
	for i := 0; i < b.N; i++ {
		formatNumber(34.45)
	}
}
