// Package jsonpath evaluates JSONPath the way Jayway JsonPath (Java), the
// engine behind the JSONPath of AWS Step Functions, reads and evaluates
// it: dot and bracket notation, quoted names, wildcards, deep scan,
// unions, slices, filters with Jayway's operators and literals, and the
// path functions. A path is parsed once and evaluated many times.
//
// Values are those of encoding/json with float64 numbers: nil, bool,
// float64, string, []any, map[string]any (read in sorted key order) and any
// ordered object with Keys() []string and Get(string) (any, bool).
package jsonpath

import (
	"errors"
	"fmt"
)

// Path is a parsed JSONPath, safe for concurrent evaluation.
type Path struct {
	tokens   []token
	fromItem bool // starts with @: inside a filter, reads the item tested
	// stepsDefinite is whether the tokens name one value.
	stepsDefinite bool
	// aggregate is a function Jayway applies to the whole result of a
	// path that starts with a deep scan ($..price.sum()).
	aggregate string
}

// SyntaxError is a path that does not parse; Offset is the byte offset of
// the problem in the path text.
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("invalid JSONPath at offset %d: %s", e.Offset, e.Msg)
}

// ErrNotFound is Jayway's PathNotFoundException: a definite path, or a
// definite part of one, names nothing. Eval's errors wrap it.
var ErrNotFound = errors.New("no value")

// errTooMuchWork stops an evaluation that would visit more values than
// workLimit.
var errTooMuchWork = errors.New("the path visits too many values")

// workLimit bounds the values one evaluation visits, filters included.
const workLimit = 1 << 22

// Parse compiles src.
func Parse(src string) (*Path, error) {
	p, err := parse(src, 0)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Eval evaluates the path against doc. A definite path (single names and
// indexes, a final list of names, which Jayway merges into one object,
// and functions) gives its value; an indefinite one the list of what it
// matched. A definite path, or a definite start of one, that names nothing
// is an error wrapping ErrNotFound, as is a step Jayway refuses (a filter
// applied to a number after a definite start, an aggregate of no numbers).
func (p *Path) Eval(doc any) (any, error) {
	work := 0
	return p.eval(doc, doc, false, &work)
}

// Step is one step of a path that names a single node: a member or an
// array item (negative from the end).
type Step struct {
	Name    string
	Index   int
	IsIndex bool
}

// Steps returns the steps of a path made only of single names and
// indexes, which names one node (a reference path); the error has the
// offset of the first other step.
func (p *Path) Steps() ([]Step, error) {
	var steps []Step
	for _, t := range p.tokens {
		switch {
		case t.kind == tokProperty && len(t.names) == 1:
			steps = append(steps, Step{Name: t.names[0]})
		case t.kind == tokIndex && len(t.indexes) == 1:
			steps = append(steps, Step{Index: t.indexes[0], IsIndex: true})
		default:
			return nil, &SyntaxError{Offset: t.at, Msg: "only single names and indexes can be used here"}
		}
	}
	if p.fromItem || p.aggregate != "" {
		return nil, &SyntaxError{Msg: "only single names and indexes can be used here"}
	}
	return steps, nil
}
