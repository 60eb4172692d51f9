package dialect

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flowc-dev/flowc/compiler"
	"github.com/flowc-dev/flowc/ir"
)

// Every mode a registered dialect plans has a writer, and every writer a
// dialect that plans its mode: a dialect added to compiler.Dialects
// without its writer would otherwise fail only when a file of it is
// generated.
func TestEveryPlannedModeHasAWriter(t *testing.T) {
	planned := map[ir.Mode]bool{}
	for _, d := range compiler.Dialects {
		for mode := range d.Plans {
			planned[mode] = true
			assert.NotNil(t, writers[mode], "dialect %s plans mode %d, which no writer writes", d.Name, mode)
		}
	}
	for mode := range writers {
		assert.True(t, planned[mode], "mode %d has a writer but no dialect plans it", mode)
	}
}
