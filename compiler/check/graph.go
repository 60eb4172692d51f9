package check

import "github.com/flowc-dev/flowc/ir"

// checkGraph warns about states of a scope no run can enter and states
// from which no run can finish. Both are legal but almost always mistakes.
func (c *checker) checkGraph(sc *scope) {
	if sc.byID[sc.start.ID] == nil {
		return
	}
	succ, ends := c.edges(sc)
	reached := walk([]string{sc.start.ID}, succ)
	pred := reverse(succ)
	var enders []string
	for id := range ends {
		enders = append(enders, id)
	}
	finishing := walk(enders, pred)
	for _, s := range sc.states {
		if sc.byID[s.ID] != s {
			continue
		}
		if !reached[s.ID] {
			if c.w.Mode == ir.ModeASL && len(pred[s.ID]) == 0 {
				continue // the ASL front-end rejects a state nothing names, or it is a module's export
			}
			c.diags.Warnf(s.Pos, "%[1]s %[2]q is unreachable from the start %[1]s %[3]q", c.noun(), sc.name(s.ID), sc.name(sc.start.ID))
		} else if !finishing[s.ID] {
			c.diags.Warnf(s.Pos, "no run that enters %s %q can finish: every path loops forever", c.noun(), sc.name(s.ID))
		}
	}
}

// edges returns each state's successors in the scope and the set of states
// that can end the run directly.
func (c *checker) edges(sc *scope) (map[string][]string, map[string]bool) {
	succ := map[string][]string{}
	ends := map[string]bool{}
	for _, s := range sc.states {
		if sc.byID[s.ID] != s {
			continue
		}
		forEachRef(s, func(r ir.Ref) {
			if c.isEnd(r) {
				ends[s.ID] = true
			} else if sc.byID[r.ID] != nil {
				succ[s.ID] = append(succ[s.ID], r.ID)
			}
		})
		if mayEndImplicitly(s.Next) {
			ends[s.ID] = true
		}
	}
	return succ, ends
}

// mayEndImplicitly: an unmatched action or eval with no fallback ends the
// run, as in PocketFlow; a state without `next` ends too.
func mayEndImplicitly(t *ir.Transition) bool {
	switch t.Kind {
	case ir.TransEnd:
		return true
	case ir.TransActions:
		return t.Default == nil
	case ir.TransBranches:
		for _, b := range t.Branches {
			if b.Operator == ir.OpDefault {
				return false
			}
		}
		return true
	}
	return false
}

func walk(from []string, next map[string][]string) map[string]bool {
	seen := map[string]bool{}
	queue := append([]string(nil), from...)
	for _, id := range from {
		seen[id] = true
	}
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		for _, n := range next[id] {
			if !seen[n] {
				seen[n] = true
				queue = append(queue, n)
			}
		}
	}
	return seen
}

func reverse(succ map[string][]string) map[string][]string {
	pred := map[string][]string{}
	for from, tos := range succ {
		for _, to := range tos {
			pred[to] = append(pred[to], from)
		}
	}
	return pred
}
