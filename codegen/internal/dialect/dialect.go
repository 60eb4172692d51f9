// Package dialect chooses the part of the generator that knows a
// workflow's language. The front door and the programs ask it for the
// dialect, or only its shell, and never name a dialect themselves.
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

// Of is the part of the generator that knows c's language. Only typed mode
// reads what the checker found; the other dialects' values are JSON.
func Of(c *ir.Checked) emit.Dialect {
	switch c.Mode {
	case ir.ModeChain:
		return chain.New(c.Workflow)
	case ir.ModeASL:
		return asl.New(c.Workflow)
	case ir.ModeJSON:
		return jsonmode.New(c.Workflow)
	}
	return typed.New(c)
}

// Shell is the dialect's description of c, which the Temporal file and
// the programs read without writing the native code.
func Shell(c *ir.Checked) *plan.Plan { return Of(c).Shell() }
