package flowyaml

import (
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/ir"
)

// parallel reads `state_ids`: the first state of each branch. Which states
// the branches hold and where they join is found once every state is read
// (see regions).
func (l *lowerer) parallel(t *ir.Transition, n *yaml.Node) {
	t.Kind = ir.TransParallel
	t.Pos = l.Pos(n)
	items := l.Seq(n, "state_ids")
	if l.json && len(items) == 1 { // CodeMie: one state in parallel is that state next
		l.gotoTransition(t, items[0])
		return
	}
	if n.Kind == yaml.SequenceNode && len(items) < 2 {
		l.Diags.Errorf(t.Pos, "state_ids needs at least two states to run in parallel; for one, use `state_id`")
	}
	seen := map[string]bool{}
	for _, item := range items {
		ref := l.ref(item, "a state id of state_ids")
		switch {
		case ref.ID == "":
			l.Diags.Errorf(ref.Pos, "missing state id")
		case ref.IsEnd():
			l.Diags.Errorf(ref.Pos, "`end` cannot be a parallel branch; a branch is a state that runs")
		case seen[ref.ID]:
			l.Diags.Errorf(ref.Pos, "state %q is already a branch of this fan-out", ref.ID)
		default:
			seen[ref.ID] = true
			t.Targets = append(t.Targets, ref)
		}
	}
}

// iter reads `iter_key` and `max_concurrency`, which only go with a plain
// `state_id`: the state that runs for each item.
func (l *lowerer) iter(t *ir.Transition, m yamlx.Map, form string) {
	keyNode, limitNode := m.Get("iter_key"), m.Get("max_concurrency")
	if keyNode == nil {
		if limitNode != nil {
			l.Diags.Errorf(l.Pos(limitNode), "`max_concurrency` bounds an iteration: it goes with `iter_key`")
		}
		return
	}
	if form == "condition" && l.json {
		l.conditionIter(t, keyNode)
		return
	}
	if form != "state_id" {
		l.Diags.Errorf(l.Pos(keyNode), "`iter_key` cannot be combined with `%s`: an iteration runs one `state_id` for each item", form)
		return
	}
	if t.Kind == ir.TransEnd {
		l.Diags.Errorf(l.Pos(m.Get("state_id")), "an iteration needs a state to run for each item, not `end`")
		return
	}
	key, ok := l.String(keyNode, "iter_key")
	if !ok {
		return
	}
	it := &ir.Iter{Pos: l.ContentPos(keyNode), Key: key}
	path, why := parseIterKey(key)
	if why != "" {
		l.Diags.Errorf(it.Pos, "invalid iter_key %q: %s", key, why)
		return
	}
	it.Path = path
	if limitNode != nil {
		it.MaxConcurrency = l.maxConcurrency(limitNode)
		it.MaxConcurrencyPos = l.Pos(limitNode)
	}
	t.Iter = it
}

func (l *lowerer) maxConcurrency(n *yaml.Node) int {
	v := l.Int(n, "max_concurrency", minInt, maxInt)
	if v < 0 {
		l.Diags.Errorf(l.Pos(n), "max_concurrency must be 0 (no bound) or more, got %d", v)
		return 0
	}
	return v
}

const (
	maxInt = int(^uint(0) >> 1)
	minInt = -maxInt - 1
)

// parseIterKey decodes an iter_key into the names it walks: "." is the
// whole value (no names), a string starting with "/" is an RFC 6901 JSON
// pointer (each reference token unescaped: ~1 is "/", ~0 is "~"), anything
// else names one field. It returns a reason when the key is malformed.
func parseIterKey(key string) ([]string, string) {
	switch {
	case strings.TrimSpace(key) == "":
		return nil, "it must name a list: a field name, `.` or a JSON pointer such as /data/items"
	case key == ".":
		return nil, ""
	case !strings.HasPrefix(key, "/"):
		return []string{key}, ""
	}
	tokens := strings.Split(key[1:], "/")
	for i, tok := range tokens {
		rest := tok
		for {
			_, after, found := strings.Cut(rest, "~")
			if !found {
				break
			}
			if after == "" || (after[0] != '0' && after[0] != '1') {
				return nil, "in a JSON pointer `~` must be followed by 0 or 1 (~0 is `~`, ~1 is `/`)"
			}
			rest = after[1:]
		}
		tokens[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
	}
	return tokens, ""
}
