package console

import (
	"strings"
)

// The marks of a state's node in the graph, as CSS classes.
const (
	markDone    = "done"    // the run went through it
	markFailed  = "failed"  // it failed there last
	markHere    = "here"    // the run is there
	markWaiting = "waiting" // a stop there waits for an answer
)

// markGraph is g's SVG with each state's node classed by what the
// session did there: its history gives the path taken, its stops where
// it waits. The SVG is flowc's own (codegen/graph), whose nodes start
// exactly as `<g class="node" id="node-NAME"`.
func markGraph(g Graph, s *Session, events []Event) string {
	marks := map[string]string{}
	mark := func(state, m string) {
		if name := nodeOf(g, state); name != "" {
			marks[name] = m
		}
	}
	for _, e := range events {
		switch e.Kind {
		case "state_entered", "state_succeeded":
			mark(e.State, markDone)
		case "state_failed":
			mark(e.State, markFailed)
		}
	}
	if s.State != "" && s.Status != "succeeded" {
		m := markHere
		if s.Status == "failed" {
			m = markFailed
		}
		mark(s.State, m)
	}
	for _, st := range s.Stops {
		mark(st.State, markWaiting)
	}
	pairs := make([]string, 0, 2*len(marks))
	for name, m := range marks {
		pairs = append(pairs, `<g class="node" id="node-`+name+`"`, `<g class="node `+m+`" id="node-`+name+`"`)
	}
	return strings.NewReplacer(pairs...).Replace(g.SVG)
}

// nodeOf is the node of state in g: a state inside fan-outs is named by
// its stop-key path ("Map/2/Review", "Map/2/Inner/0/Check"), whose part
// after the last item index is the state; "" for none.
func nodeOf(g Graph, state string) string {
	if n, ok := g.Nodes[state]; ok {
		return n
	}
	parts := strings.Split(state, "/")
	for i := len(parts) - 1; i > 0; i-- {
		if isIndex(parts[i]) {
			return g.Nodes[strings.Join(parts[i+1:], "/")]
		}
	}
	return g.Nodes[parts[len(parts)-1]]
}

func isIndex(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
