package agent

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// Guardrails are the rules of an agent task's Guardrails that need no
// model: length, pattern and regex. The others (semantic, pii, custom)
// reach the agent's handler in Agent.Guardrails.
type Guardrails struct {
	Input, Output []GuardRule
}

// GuardRule is one rule. length: the text (a string, else its JSON) is at
// most Max characters. pattern: it holds none of Block. regex: Pattern
// matches, and Action says what then: block (the default), redact (the
// matches removed from every string), mask (replaced by "***"), or
// anything else (warn, flag...), which lets it pass.
type GuardRule struct {
	Type    string
	Max     int
	Block   []string
	Pattern *regexp.Regexp
	Action  string
}

// MapStrings applies f to every string of a JSON value, keys aside; the
// executor, whose objects keep their order, gives it.
type MapStrings func(v any, f func(string) string) any

// Guard checks v against the rules of one side ("input" or "output") of
// state's task, returning it with redactions made.
func Guard(state, side string, rules []GuardRule, v any, mapStrings MapStrings) (any, error) {
	for _, r := range rules {
		text := guardText(v)
		switch r.Type {
		case "length":
			if r.Max > 0 && utf8.RuneCountInString(text) > r.Max {
				return nil, violation(state, side, fmt.Sprintf("%d characters, more than %d", utf8.RuneCountInString(text), r.Max))
			}
		case "pattern":
			for _, b := range r.Block {
				if strings.Contains(text, b) {
					return nil, violation(state, side, fmt.Sprintf("it holds %q", b))
				}
			}
		case "regex":
			if r.Pattern == nil || !r.Pattern.MatchString(text) {
				continue
			}
			switch r.Action {
			case "", "block":
				return nil, violation(state, side, fmt.Sprintf("it matches %q", r.Pattern.String()))
			case "redact":
				v = mapStrings(v, func(s string) string { return r.Pattern.ReplaceAllString(s, "") })
			case "mask":
				v = mapStrings(v, func(s string) string { return r.Pattern.ReplaceAllLiteralString(s, "***") })
			}
		}
	}
	return v, nil
}

func violation(state, side, why string) error {
	return &impl.Error{Name: GuardrailViolation, Cause: fmt.Sprintf("state %q: the %s guardrails block it: %s", state, side, why)}
}

// guardText is the text rules read: a string, else its JSON.
func guardText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return impl.JSONText(v)
}
