package flowyaml

import (
	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/compiler/diag"
	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/ir"
)

// An approval state (`type: approval`) asks a person to choose one of its
// `options`. It calls no handler: the workflow's approver answers, or the
// run stops until someone does. Its `next` routes on the variable
// `decision`, which the checker puts in scope for that state alone.

var stateTypes = []string{"task", "approval"}

// approvalOnly are the keys of approval states alone; taskOnly those that
// configure a handler, which an approval state has not.
var (
	approvalOnly = []string{"prompt", "options"}
	taskOnly     = []string{"handler", "assistant_id", "tool_id", "task", "tool_args", "retry"}
)

// stateType reads `type:` once the rest of the state is read, and turns an
// approval state's handler and timeout into its request.
func (l *lowerer) stateType(m yamlx.Map, s *ir.State) {
	kind := "task"
	if n := m.Get("type"); n != nil {
		kind, _ = l.String(n, "type")
	}
	switch kind {
	case "task":
		l.forbid(m, approvalOnly, "belongs to approval states (`type: approval`)")
	case "approval":
		l.approval(m, s)
	default:
		l.Diags.Errorf(l.ContentPos(m.Get("type")), "unknown state type %q; use task (the default) or approval%s",
			kind, diag.DidYouMean(kind, stateTypes))
	}
}

func (l *lowerer) approval(m yamlx.Map, s *ir.State) {
	l.forbid(m, taskOnly, "does not go with `type: approval`: an approval state calls no handler")
	ap := &ir.Approval{Timeout: s.Timeout}
	s.Kind, s.Handler, s.Timeout, s.Approval = ir.StateApproval, nil, 0, ap
	if n := m.Get("prompt"); n != nil {
		ap.Prompt, _ = l.String(n, "prompt")
	} else {
		l.Diags.Errorf(s.Pos, "approval state %q needs a `prompt`", s.ID)
	}
	if n := m.Get("options"); n != nil {
		ap.Options = l.options(n)
	} else {
		l.Diags.Errorf(s.Pos, "approval state %q needs `options`, the answers a person may choose", s.ID)
	}
	t := s.Next
	// An iter_key may continue the iteration the state is in; one that
	// opens an iteration is reported once regions are known (regions).
	if t.Kind == ir.TransParallel || t.Kind == ir.TransActions || t.Kind == ir.TransBranches {
		l.Diags.Errorf(s.Next.Pos, "approval state %q goes on with `state_id`, or routes on `decision` with `condition` or `switch`; "+
			"it has no handler result for `actions` or `branches`, and cannot open a fan-out", s.ID)
	}
}

// options reads a non-empty list of distinct strings.
func (l *lowerer) options(n *yaml.Node) []string {
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		l.Diags.Errorf(l.Pos(n), "`options` must be a non-empty list of strings")
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, item := range n.Content {
		o, ok := l.String(item, "an option")
		if !ok {
			continue
		}
		if seen[o] {
			l.Diags.Errorf(l.ContentPos(item), "option %q repeated", o)
		}
		seen[o] = true
		out = append(out, o)
	}
	return out
}

// forbid reports each of keys that m has.
func (l *lowerer) forbid(m yamlx.Map, keys []string, why string) {
	for _, k := range keys {
		if e, ok := m.Entries[k]; ok {
			l.Diags.Errorf(l.Pos(e.Key), "`%s` %s", k, why)
		}
	}
}
