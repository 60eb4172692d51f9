package asl

import (
	"time"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/ir"
)

const statesALL = "States.ALL"

// AWS defaults of a retrier.
const (
	defaultMaxAttempts = 3
	defaultInterval    = time.Second
	defaultBackoffRate = 2.0
)

var (
	retrierKeys = []string{"ErrorEquals", "IntervalSeconds", "MaxAttempts", "BackoffRate", "MaxDelaySeconds", "MaxIntervalSeconds", "JitterStrategy", "Comment"}
	catcherKeys = []string{"ErrorEquals", "Next", "ResultPath", "Comment", "Assign", "Output"}
)

// retriers reads Retry. The IR counts attempts, the first one included, so
// AWS's MaxAttempts (retries) becomes MaxAttempts+1.
func (l *lowerer) retriers(n *yaml.Node) []*ir.Retrier {
	var out []*ir.Retrier
	items := l.Seq(n, "Retry")
	for i, item := range items {
		m, ok := l.Mapping(item, "a retrier", retrierKeys...)
		if !ok {
			continue
		}
		r := &ir.Retrier{Pos: l.Pos(item), MaxAttempts: defaultMaxAttempts + 1, Interval: defaultInterval, BackoffRate: defaultBackoffRate}
		r.Errors = l.errorEquals(m.Get("ErrorEquals"), item, i == len(items)-1, "retrier")
		if v := m.Get("IntervalSeconds"); v != nil {
			r.Interval = time.Duration(l.Int(v, "IntervalSeconds", 0, 99999999)) * time.Second
		}
		if v := m.Get("MaxAttempts"); v != nil {
			r.MaxAttempts = l.Int(v, "MaxAttempts", 0, 99999999) + 1
		}
		if v := m.Get("BackoffRate"); v != nil {
			r.BackoffRate = l.Float(v, "BackoffRate", 1, 1e9)
		}
		for _, k := range []string{"MaxDelaySeconds", "MaxIntervalSeconds"} { // the agent language's name for it
			if v := m.Get(k); v != nil {
				r.MaxDelay = time.Duration(l.Int(v, k, 1, 31622400)) * time.Second
			}
		}
		if v := m.Get("JitterStrategy"); v != nil {
			if s, ok := l.String(v, "JitterStrategy"); ok {
				switch s {
				case "FULL":
					r.Jitter = true
				case "NONE":
				default:
					l.Diags.Errorf(l.ContentPos(v), "JitterStrategy must be FULL or NONE, got %q", s)
				}
			}
		}
		if v := m.Get("Comment"); v != nil {
			l.String(v, "Comment")
		}
		out = append(out, r)
	}
	return out
}

// catchers reads Catch into s.Catch and the catchers' ResultPaths into
// s.ASL.CatchPaths.
func (l *lowerer) catchers(n *yaml.Node, s *ir.State) {
	items := l.Seq(n, "Catch")
	for i, item := range items {
		m, ok := l.Mapping(item, "a catcher", catcherKeys...)
		if !ok {
			continue
		}
		c := &ir.Catcher{Pos: l.Pos(item)}
		c.Errors = l.errorEquals(m.Get("ErrorEquals"), item, i == len(items)-1, "catcher")
		if v := m.Get("Next"); v != nil {
			id, _ := l.String(v, "Next")
			c.Next = ir.Ref{Pos: l.ContentPos(v), ID: id}
		} else {
			l.Diags.Errorf(c.Pos, "a catcher needs `Next`")
			c.Next = ir.Ref{Pos: c.Pos, ID: s.ID}
		}
		if v := m.Get("Comment"); v != nil {
			l.String(v, "Comment")
		}
		s.Catch = append(s.Catch, c)
		s.ASL.CatchPaths = append(s.ASL.CatchPaths, l.pathField(m.Get("ResultPath"), "ResultPath", true))
		l.catcherQuery(m, s) // Assign, and Output in JSONata
	}
}

// errorEquals reads a non-empty list of error names. States.ALL must stand
// alone, in the last rule: it matches everything, so nothing after it could.
func (l *lowerer) errorEquals(n, rule *yaml.Node, last bool, what string) []string {
	if n == nil {
		l.Diags.Errorf(l.Pos(rule), "a %s needs `ErrorEquals`", what)
		return nil
	}
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		l.Diags.Errorf(l.Pos(n), "`ErrorEquals` must be a non-empty list of error names")
		return nil
	}
	var names []string
	for _, item := range n.Content {
		name, ok := l.String(item, "an error name")
		if !ok {
			continue
		}
		if name == statesALL && len(n.Content) > 1 {
			l.Diags.Errorf(l.ContentPos(item), "`States.ALL` must appear alone in `ErrorEquals`")
		}
		if name == statesALL && !last {
			l.Diags.Errorf(l.ContentPos(item), "a %s with `States.ALL` must be the last one", what)
		}
		names = append(names, name)
	}
	return names
}
