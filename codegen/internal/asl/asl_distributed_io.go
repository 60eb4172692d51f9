package asl

import "github.com/flowc-dev/flowc/ir"

// distributedIO says whether a distributed Map of w reads its items with
// an ItemReader, and whether one writes its results with a ResultWriter.
func distributedIO(w *ir.Workflow) (reads, writes bool) {
	for _, s := range ir.AllStates(w.States) {
		if d := s.ASL.Distributed; d != nil {
			reads = reads || d.Reader != nil
			writes = writes || d.Writer != nil
		}
	}
	return reads, writes
}
