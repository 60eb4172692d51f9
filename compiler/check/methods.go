package check

import (
	"slices"

	"github.com/flowc-dev/flowc/internal/naming"
	"github.com/flowc-dev/flowc/ir"
)

// checkMethodNames rejects handlers named like a standard method
// (naming.VetMethods), once per name, at the first state that uses it.
func (c *checker) checkMethodNames() {
	seen := map[string]bool{}
	for _, s := range ir.AllStates(c.w.States) {
		h := s.Handler
		if h == nil || seen[h.Name] || !slices.Contains(naming.VetMethods, h.Name) {
			continue
		}
		seen[h.Name] = true
		c.diags.Errorf(h.Pos, "handler %s would be a method that go vet expects with another signature; choose another handler name", h.Name)
	}
}
