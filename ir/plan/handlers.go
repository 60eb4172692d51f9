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

// MockCall is a mock method's body when it is one call, returned: a
// method of the mock's flowcrun.Mocks, or of the mock itself when Own
// (typed mode's respond), with its arguments.
type MockCall struct {
	Own    bool
	Method string
	Args   []MockArg
}

// MockArg is an argument of a MockCall: a parameter of the method, ctx
// included, by name; or, when Param is "", the string literal Lit, or nil
// when Lit is nil too.
type MockArg struct {
	Param string
	Lit   *string
}

// respond answers from the mock of the state or task that calls it, with
// the Mocks method named method, given params.
func respond(method string, params ...string) *MockCall {
	c := &MockCall{Method: method}
	for _, p := range params {
		c.Args = append(c.Args, MockArg{Param: p})
	}
	return c
}

// callHandlers lists the methods of a dialect whose handlers all take
// (ctx, call) as sg says; answer, when set, is their mocks' one call.
// skip leaves out the handlers without a method.
func callHandlers(states []*ir.State, skip func(*ir.Handler) bool, noun string, sg Sig, answer *MockCall) []Handler {
	users := usersOf(states)
	var out []Handler
	for _, h := range firstHandlers(states, skip) {
		out = append(out, Handler{
			Name: h.Name, Doc: h.Name + " runs " + usersList(noun, users[h.Name]) + ".", Sig: sg, Answer: answer,
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
