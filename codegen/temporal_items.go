package codegen

import "github.com/flowc-dev/flowc/ir"

// distributedIO says whether a distributed Map of w reads its items with
// an ItemReader: the Temporal workflow then reads them through an
// activity, never in workflow code.
func distributedIO(w *ir.Workflow) (reads bool) {
	if w.Mode != ir.ModeASL {
		return false
	}
	for _, s := range allStates(w.States) {
		if d := s.ASL.Distributed; d != nil && d.Reader != nil {
			reads = true
		}
	}
	return reads
}
