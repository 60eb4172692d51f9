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

// writers are the generator's half of each dialect, by the mode its
// planner plans (compiler.Dialects registers the other half). They are a
// second list because writing Go is codegen's, and codegen/internal is
// closed to the compiler: a test checks every planned mode has a writer.
var writers = map[ir.Mode]func(*plan.Plan) emit.Dialect{
	ir.ModeTyped: typed.New,
	ir.ModeJSON:  jsonmode.New,
	ir.ModeChain: chain.New,
	ir.ModeASL:   asl.New,
}

// Of is the part of the generator that writes the Go of plan p's language.
func Of(p *plan.Plan) emit.Dialect { return writers[p.Mode](p) }
