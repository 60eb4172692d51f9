package graph

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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

var update = flag.Bool("update", false, "rewrite the golden SVG files")

// The SVG of drawn() is the golden file: a layout change shows as its
// diff. Labels are escaped as XML text (the "<c>" of s0 never becomes an
// element), and each state's node carries its id for a page to mark it.
func TestSVG(t *testing.T) {
	pic := Draw(drawn())
	golden := filepath.Join("testdata", "drawn.svg")
	if *update {
		require.NoError(t, os.WriteFile(golden, []byte(pic.SVG), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), pic.SVG)
	assert.Equal(t, pic, Draw(drawn()), "the same graph draws the same picture")
	assert.Equal(t, map[string]string{`a "b" | <c>`: "s0", `x\y`: "s1"}, pic.Nodes)
	assert.Contains(t, pic.SVG, `<g class="node" id="node-s0" data-state="a &#34;b&#34; | &lt;c&gt;">`)
	assert.NotContains(t, pic.SVG, "<c>")
}

// A label that tries to end the SVG's text and start a script stays text,
// control characters XML forbids are dropped, and a long label is cut with
// the whole kept in the node's title.
func TestSVGHostileLabels(t *testing.T) {
	long := strings.Repeat("x", 40)
	g := plan.Graph{Start: "s0", Nodes: []plan.GraphNode{
		{Name: "s0", Label: "</text><script>alert(1)</script>\x01"},
		{Name: "s1", Label: long},
	}, Edges: []plan.GraphEdge{{From: "s0", To: "s1", Label: `"><img src=x onerror=alert(1)>`}}}
	svg := Draw(g).SVG
	assert.NotContains(t, svg, "<script")
	assert.NotContains(t, svg, "<img")
	assert.NotContains(t, svg, "\x01")
	assert.Contains(t, svg, "&lt;/text&gt;&lt;script&gt;alert(1)&lt;/script&gt;")
	assert.Contains(t, svg, "<title>"+long+"</title>")
	assert.Contains(t, svg, ">"+strings.Repeat("x", nodeRunes-1)+"…</text>")
}

// Rows follow the longest path from the start, so a node comes below every
// node that leads to it; an edge that closes a loop does not push its
// target down, and an edge across rows keeps a lane clear of other nodes.
func TestSVGRows(t *testing.T) {
	g := plan.Graph{Start: "a", Nodes: []plan.GraphNode{{Name: "a", Label: "A"}, {Name: "b", Label: "B"}, {Name: "c", Label: "C"}},
		Edges: []plan.GraphEdge{{From: "a", To: "b"}, {From: "b", To: "c"}, {From: "c", To: "a", Label: "again"}, {From: "a", To: "c"}}}
	root := &box{group: true, kids: boxes(g.Nodes)}
	lanes := make([]*box, len(g.Edges))
	layout(root, g.Edges, lanes, true)
	a, b, c := root.kids[0], root.kids[1], root.kids[2]
	assert.Zero(t, a.y)
	assert.Equal(t, a.y+nodeH+vGap, b.y)
	assert.Equal(t, b.y+nodeH+vGap, c.y)
	require.NotNil(t, lanes[3], "a to c crosses b's row")
	assert.Nil(t, lanes[0])
	assert.True(t, lanes[3].x >= b.x+b.w || lanes[3].x+lanes[3].w <= b.x, "the lane keeps clear of b")
}
