package plan

import (
	"strconv"
	"strings"

	"github.com/flowc-dev/flowc/ir"
)

// firstHandlers lists each handler once, in order of first use; skip
// leaves out those without a method.
func firstHandlers(states []*ir.State, skip func(*ir.Handler) bool) []*ir.Handler {
	var out []*ir.Handler
	seen := map[string]bool{}
	for _, s := range states {
		if h := s.Handler; h != nil && !skip(h) && !seen[h.Name] {
			seen[h.Name] = true
			out = append(out, h)
		}
	}
	return out
}

// usersOf maps each handler to the ids of the states that call it, in one
// pass: a scan per handler made large workflows quadratic.
func usersOf(states []*ir.State) map[string][]string {
	ids := map[string][]string{}
	for _, s := range states {
		if s.Handler != nil {
			ids[s.Handler.Name] = append(ids[s.Handler.Name], s.ID)
		}
	}
	return ids
}

// callHandlers lists the methods of a dialect whose handlers all take
// (ctx, call), sig spelled as text in sigText, and whose mocks answer with
// the Mocks method respond; skip leaves out the handlers without a method.
func callHandlers(states []*ir.State, skip func(*ir.Handler) bool, noun string,
	sg Sig, sigText, respond string) []Handler {
	users := usersOf(states)
	var out []Handler
	for _, h := range firstHandlers(states, skip) {
		out = append(out, Handler{
			Name: h.Name, Doc: h.Name + " runs " + usersList(noun, users[h.Name]) + ".", Sig: sg,
			SigText: sigText, MockText: "return m.mocks." + respond + "(call)",
		})
	}
	return out
}

// usersList is "state \"a\"" or "tasks \"a\", \"b\"".
func usersList(noun string, ids []string) string {
	if len(ids) > 1 {
		noun += "s"
	}
	return noun + " " + QuoteList(ids)
}

// QuoteList quotes each id, comma-separated.
func QuoteList(ids []string) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = strconv.Quote(id)
	}
	return strings.Join(q, ", ")
}
