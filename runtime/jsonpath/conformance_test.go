package jsonpath

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/flowc-dev/flowc/internal/sharedtest"
)

// The JSONPath comparison suite (cburgmer/json-path-comparison, converted
// into ../shared/conformance/jsonpath/cases/queries.json; see its README).
// A query is judged when it has a consensus or a Jayway answer. The answer
// flowc must give is the one Step Functions gives, which runs Jayway
// JsonPath: the Jayway answer, except where awsFollowsConsensus says
// otherwise. docs/jsonpath.md lists every query where the two differ.
const suitePath = "../../../shared/conformance/jsonpath/cases/queries.json"

type suiteQuery struct {
	ID                string          `json:"id"`
	Selector          string          `json:"selector"`
	Document          string          `json:"document"`
	Ordered           bool            `json:"ordered"`
	Consensus         *suiteAnswer    `json:"consensus"`
	ScalarConsensus   *suiteAnswer    `json:"scalar-consensus"`
	ScalarNotFound    *suiteAnswer    `json:"scalar-not-found-consensus"`
	Jayway            suiteJaywayNote `json:"jayway"`
	NotFoundConsensus *suiteAnswer    `json:"not-found-consensus"`
}

type suiteAnswer struct {
	Value   json.RawMessage `json:"value"`
	Special string          `json:"special"`
}

type suiteJaywayNote struct {
	Status string       `json:"status"`
	Result *suiteAnswer `json:"result"`
}

// awsFollowsConsensus names the queries where Step Functions does not give
// Jayway's answer, with the reason.
var awsFollowsConsensus = map[string]string{}

func TestConformance(t *testing.T) {
	data := sharedtest.ReadFile(t, suitePath)
	var queries []suiteQuery
	if err := json.Unmarshal(data, &queries); err != nil {
		t.Fatal(err)
	}
	judged, passed := 0, 0
	for _, q := range queries {
		want, ok := q.expected()
		if !ok {
			continue
		}
		judged++
		if got := answer(q.Selector, q.Document); !sameAnswer(got, want, q.Ordered) {
			t.Errorf("%s: %s on %s\n got %s\nwant %s", q.ID, q.Selector, q.Document, got, want)
			continue
		}
		passed++
	}
	t.Logf("%d of %d judged queries pass", passed, judged)
}

// expected is the answer Step Functions gives, as the suite prints
// answers: a JSON value or NOT_FOUND / NOT_SUPPORTED.
func (q *suiteQuery) expected() (string, bool) {
	if _, ok := awsFollowsConsensus[q.ID]; ok {
		return q.Consensus.String(), true
	}
	switch q.Jayway.Status {
	case "fail", "open":
		return q.Jayway.Result.String(), q.Jayway.Result != nil
	case "pass":
		// Jayway gives a definite path's value itself, not in a list, and
		// reports a definite path that names nothing as NOT_FOUND.
		switch {
		case q.ScalarNotFound != nil:
			return q.ScalarNotFound.String(), true
		case q.ScalarConsensus != nil:
			return q.ScalarConsensus.String(), true
		}
		return q.Consensus.String(), q.Consensus != nil
	}
	return "", false
}

func (a *suiteAnswer) String() string {
	if a.Special != "" {
		return a.Special
	}
	return string(a.Value)
}

// answer evaluates selector on document as the suite prints answers.
func answer(selector, document string) string {
	p, err := Parse(selector)
	if err != nil {
		return "NOT_SUPPORTED"
	}
	doc, err := decodeOrdered(document)
	if err != nil {
		return "bad document: " + err.Error()
	}
	v, err := p.Eval(doc)
	switch {
	case errors.Is(err, ErrNotFound):
		return "NOT_FOUND"
	case err != nil:
		return "NOT_SUPPORTED"
	}
	out, err := json.Marshal(plain(v))
	if err != nil {
		return "unprintable: " + err.Error()
	}
	return string(out)
}

// sameAnswer compares two printed answers as JSON; when the order of a
// list does not matter, as multisets.
func sameAnswer(got, want string, ordered bool) bool {
	if got == want {
		return true
	}
	var g, w any
	if json.Unmarshal([]byte(got), &g) != nil || json.Unmarshal([]byte(want), &w) != nil {
		return false
	}
	if !ordered {
		g, w = sortedList(g), sortedList(w)
	}
	return reflect.DeepEqual(g, w)
}

func sortedList(v any) any {
	arr, ok := v.([]any)
	if !ok {
		return v
	}
	keys := make([]string, len(arr))
	for i, item := range arr {
		b, _ := json.Marshal(item)
		keys[i] = string(b)
	}
	slices.Sort(keys)
	return keys
}

// testObject is an ordered object as flowc's runtime has one.
type testObject struct {
	keys   []string
	values map[string]any
}

func (o *testObject) Keys() []string { return o.keys }

func (o *testObject) Get(k string) (any, bool) {
	v, ok := o.values[k]
	return v, ok
}

// decodeOrdered reads JSON into nil, bool, float64, string, []any and
// *testObject.
func decodeOrdered(text string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	return decodeValue(dec)
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok := tok.(type) {
	case json.Delim:
		if tok == '[' {
			out := []any{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				out = append(out, v)
			}
			_, err := dec.Token()
			return out, err
		}
		o := &testObject{values: map[string]any{}}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			if _, dup := o.values[k.(string)]; !dup {
				o.keys = append(o.keys, k.(string))
			}
			o.values[k.(string)] = v
		}
		_, err := dec.Token()
		return o, err
	case json.Number:
		return tok.Float64()
	}
	return tok, nil
}

// plain turns ordered objects into maps for printing.
func plain(v any) any {
	switch v := v.(type) {
	case []any:
		out := make([]any, len(v))
		for i, item := range v {
			out[i] = plain(item)
		}
		return out
	case orderedObject:
		out := map[string]any{}
		for _, k := range v.Keys() {
			m, _ := v.Get(k)
			out[k] = plain(m)
		}
		return out
	case nil, bool, float64, string, map[string]any:
		return v
	}
	return fmt.Sprintf("unexpected %T", v)
}
