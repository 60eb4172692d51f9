package graph

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flowc-dev/flowc/ir/plan"
)

// drawn is a graph that holds every shape the renderers lay out:
// a node, a group nested in a group, an empty group, and labels with the
// characters each format must escape (Mermaid's entity codes "#quot;"
// etc., dot's backslash escapes in a quoted ID).
func drawn() plan.Graph {
	return plan.Graph{
		Start: "s0",
		Nodes: []plan.GraphNode{
			{Name: "s0", Label: `a "b" | <c>`},
			{Name: "s0_g", Label: "outer", Group: true, Nodes: []plan.GraphNode{
				{Name: "s0_1", Label: "inner", Group: true, Nodes: []plan.GraphNode{{Name: "s1", Label: `x\y`}}},
			}},
			{Name: "s2_g", Label: "empty", Group: true},
		},
		Edges: []plan.GraphEdge{{From: "s0", To: "s1", Label: "line\nbreak"}, {From: "s1", To: plan.GraphEnd, Label: "end"}},
	}
}

func TestMermaid(t *testing.T) {
	assert.Equal(t, `flowchart TD
  start((start))
  s0["a #quot;b#quot; #124; #lt;c#gt;"]
  subgraph s0_g["outer"]
    subgraph s0_1["inner"]
      s1["x\y"]
    end
  end
  subgraph s2_g["empty"]
  end
  finish((end))
  start --> s0
  s0 -->|"line break"| s1
  s1 -->|"end"| finish
`, mermaid(drawn()))
}

func TestDot(t *testing.T) {
	assert.Equal(t, `digraph "say \"hi\"" {
  node [shape=box];
  start [shape=circle];
  finish [label="end", shape=doublecircle];
  s0 [label="a \"b\" | <c>"];
  subgraph cluster_s0_g {
    label="outer";
    subgraph cluster_s0_1 {
      label="inner";
      s1 [label="x\\y"];
    }
  }
  subgraph cluster_s2_g {
    label="empty";
  }
  start -> s0;
  s0 -> s1 [label="line\nbreak"];
  s1 -> finish [label="end"];
}
`, dot(`say "hi"`, drawn()))
}
