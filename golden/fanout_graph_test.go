package golden

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/codegen/graph"
	"github.com/flowc-dev/flowc/compiler"
)

const fanOutDef = `workflow: Fan
state:
  items: "[]string"
  log: {type: "[]string", reducer: append}
states:
  - id: split
    next: {state_ids: [a, b]}
  - id: a
    next: {state_id: join}
  - id: b
    next: {state_id: b2}
  - id: b2
    next: {state_id: join}
  - id: join
    next: {state_id: each, iter_key: items, max_concurrency: 2}
  - id: each
    next: {state_id: done}
  - id: done
`

func TestGraphRegions(t *testing.T) {
	w, ds := compiler.Compile("fan.flow.yaml", []byte(fanOutDef), compiler.Options{})
	require.NotNil(t, w, ds.Lines())

	assert.Equal(t, `flowchart TD
  start((start))
  s0["split"]
  subgraph s0_parallel["split: parallel"]
    subgraph s0_1["branch a"]
      s1["a"]
    end
    subgraph s0_2["branch b"]
      s2["b"]
      s3["b2"]
    end
  end
  s4["join"]
  subgraph s4_each["join: each item of items, at most 2 at a time"]
    s5["each"]
  end
  s6["done"]
  finish((end))
  start --> s0
  s0 -->|"parallel"| s1
  s0 -->|"parallel"| s2
  s1 -->|"next"| s4
  s2 -->|"next"| s3
  s3 -->|"next"| s4
  s4 -->|"each item of items, at most 2 at a time"| s5
  s5 -->|"next"| s6
  s6 -->|"end"| finish
`, graph.Mermaid(w))

	dot := graph.Dot(w)
	assert.Contains(t, dot, "  subgraph cluster_s0_parallel {\n    label=\"split: parallel\";\n    subgraph cluster_s0_1 {\n      label=\"branch a\";\n      s1 [label=\"a\"];\n    }\n")
	assert.Contains(t, dot, "  subgraph cluster_s4_each {\n    label=\"join: each item of items, at most 2 at a time\";\n    s5 [label=\"each\"];\n  }\n")
	edge := regexp.MustCompile(`->`)
	for _, line := range strings.Split(dot, "\n") {
		if edge.MatchString(line) && !strings.HasPrefix(line, "  start ->") {
			assert.Contains(t, line, "[label=", "every edge is labelled: %s", line)
		}
	}
	assert.Equal(t, strings.Count(dot, "{"), strings.Count(dot, "}"), "clusters are closed")
}
