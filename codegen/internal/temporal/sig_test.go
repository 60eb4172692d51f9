package temporal

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
)

// A user's package whose name is one the Temporal file imports itself
// (workflow, context, json...) is imported under a name of its own, not
// as a second import of that name, which would not compile.
func TestSignaturePackageNamedLikeTheFilesOwn(t *testing.T) {
	ticket := &ir.Type{Kind: ir.TypeNamed, Pkg: "example.com/shop/workflow", Name: "Ticket"}
	p := &plan.Plan{Runs: []plan.Entry{{Name: "Run", Sig: plan.Sig{
		Params:  []plan.Param{{Name: "in", Typ: ticket}},
		Results: []*ir.Type{{Kind: ir.TypeNamed, Pkg: "example.com/shop/context", Name: "Done"}},
	}}}}
	sigs := signaturesOf(p)
	assert.Equal(t, "workflow2.Ticket", sigs.run.Params[0].Type)
	assert.Equal(t, "context2.Done", sigs.run.Results[0])
	assert.Contains(t, sigs.imports, emit.Import{Name: "workflow2", Path: "example.com/shop/workflow"})
	assert.Contains(t, sigs.imports, emit.Import{Path: "go.temporal.io/sdk/workflow"})
	assert.Contains(t, sigs.imports, emit.Import{Path: "context"})
}
