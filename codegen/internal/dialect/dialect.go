// Package dialect chooses the part of the generator that knows a
// workflow's language. The front door asks it for the dialect and never
// names a dialect itself.
package dialect

import (
	"github.com/flowc-dev/flowc/codegen/internal/asl"
	"github.com/flowc-dev/flowc/codegen/internal/chain"
	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/codegen/internal/jsonmode"
	"github.com/flowc-dev/flowc/codegen/internal/typed"
	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
)

// Of is the part of the generator that writes the Go of plan p's language.
func Of(p *plan.Plan) emit.Dialect {
	switch p.Mode {
	case ir.ModeChain:
		return chain.New(p)
	case ir.ModeASL:
		return asl.New(p)
	case ir.ModeJSON:
		return jsonmode.New(p)
	}
	return typed.New(p)
}
