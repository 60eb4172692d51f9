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
)

// Of is the part of the generator that knows w's language.
func Of(w *ir.Workflow) emit.Dialect {
	switch w.Mode {
	case ir.ModeChain:
		return chain.New(w)
	case ir.ModeASL:
		return asl.New(w)
	case ir.ModeJSON:
		return jsonmode.New(w)
	}
	return typed.New(w)
}

// Shell is the dialect's description of w, which the Temporal file and
// the programs read without writing the native code.
func Shell(w *ir.Workflow) *emit.Shell { return Of(w).Shell() }
