package graph

import (
	"fmt"
	"html"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/flowc-dev/flowc/ir/plan"
)

// SVG renders the graph of a workflow as a standalone SVG picture.
func SVG(p *plan.Plan) string { return Draw(p.Graph()).SVG }

// Picture is a graph drawn as SVG. Each state is a <g> element with id
// "node-"+name, class "node" and the state's id in data-state; Nodes maps
// each state id to its node's name, so that a page can mark states (the
// path a run took, where it waits) with CSS rules on those element ids,
// which are neutral names and need no escaping.
type Picture struct {
	SVG   string
	Nodes map[string]string
}

// The sizes of the drawing, in SVG user units (pixels).
const (
	nodeH     = 34.0
	nodeMinW  = 96.0
	charW     = 7.0 // an estimate of a 12px sans-serif character's width
	hGap      = 28.0
	vGap      = 52.0 // room for an edge's label between two rows
	groupPad  = 14.0
	titleH    = 22.0
	margin    = 16.0
	endR      = 11.0
	nodeRunes = 32 // longer labels are cut, the whole one kept in a <title>
	edgeRunes = 28
)

// box is a node, a group or the start or end of a run, laid out: x and y
// are relative to its parent's content until place makes them absolute.
type box struct {
	name, label string
	group       bool
	circle      bool // start or end
	lane        *box // for room kept for an edge across rows: the edge's source
	x, y, w, h  float64
	kids        []*box
}

// Draw lays out g in layers from the top: each group is laid out on its
// own, as a block, then placed as one node among its siblings. A node's
// row follows the longest path to it from the sources (edges that close a
// cycle are left out), and in its row it is placed as near as it can be
// under the middle of its predecessors. Everything about it is
// deterministic: the same graph gives the same picture.
func Draw(g plan.Graph) Picture {
	root := &box{group: true}
	root.kids = append(root.kids, &box{name: "start", label: "start", circle: true, w: 2 * endR, h: 2 * endR})
	root.kids = append(root.kids, boxes(g.Nodes)...)
	root.kids = append(root.kids, &box{name: plan.GraphEnd, label: "end", circle: true, w: 2 * endR, h: 2 * endR})
	edges := append([]plan.GraphEdge{{From: "start", To: g.Start}}, g.Edges...)
	lanes := make([]*box, len(edges))
	layout(root, edges, lanes, true)
	place(root, margin, margin)
	leaves := map[string]*box{}
	nodes := map[string]string{}
	collect(root, leaves, nodes)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="flowc-graph" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="12">`+"\n",
		num(root.w+2*margin), num(root.h+2*margin), num(root.w+2*margin), num(root.h+2*margin))
	b.WriteString(`<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="#64748b"/></marker></defs>` + "\n")
	drawBoxes(&b, root.kids)
	for i, e := range edges {
		from, to := leaves[e.From], leaves[e.To]
		if from != nil && to != nil {
			drawEdge(&b, from, to, lanes[i], e.Label)
		}
	}
	b.WriteString("</svg>\n")
	return Picture{SVG: b.String(), Nodes: nodes}
}

// boxes are the nodes of a plan, sized: a state's width follows its label.
func boxes(nodes []plan.GraphNode) []*box {
	out := make([]*box, 0, len(nodes))
	for _, n := range nodes {
		b := &box{name: n.Name, label: n.Label, group: n.Group}
		if n.Group {
			b.kids = boxes(n.Nodes)
		} else {
			b.w, b.h = max(nodeMinW, textWidth(n.Label, nodeRunes)+24), nodeH
		}
		out = append(out, b)
	}
	return out
}

func textWidth(s string, limit int) float64 {
	return float64(min(utf8.RuneCountInString(s), limit+1)) * charW
}

// layout sizes group g by laying out its kids (groups first, each on its
// own); top says g is the whole picture, which has no frame or title. It
// sets lanes[i] for each edge i that crosses rows between g's kids.
func layout(g *box, edges []plan.GraphEdge, lanes []*box, top bool) {
	for _, k := range g.kids {
		if k.group {
			layout(k, edges, lanes, false)
		}
	}
	owner := owners(g)
	succ := kidEdges(len(g.kids), owner, edges)
	rows(g.kids, succ)
	columns(g.kids, succ)
	addLanes(g, owner, edges, lanes)
	var w, h float64
	for _, k := range g.kids {
		w, h = max(w, k.x+k.w), max(h, k.y+k.h)
	}
	if top {
		g.w, g.h = w, h
		return
	}
	for _, k := range g.kids {
		k.x += groupPad
		k.y += groupPad // the title goes at the bottom, out of the way of edges coming in
	}
	g.w = max(w+2*groupPad, textWidth(g.label, nodeRunes)+2*groupPad, nodeMinW)
	g.h = titleH + h + 2*groupPad
	if len(g.kids) == 0 {
		g.h = titleH + groupPad
	}
}

// owners maps the name of each node in g to the index of g's kid it is
// in; a lane stands for the edge it carries.
func owners(g *box) map[string]int {
	owner := map[string]int{}
	for i, k := range g.kids {
		walk(k, func(b *box) { owner[b.name] = i })
	}
	return owner
}

// addLanes adds to g's kids a lane, a thin box that keeps the other kids
// out of its way, for each edge between kids that crosses a row: the
// edge is drawn down it. Lanes go in after the kids, as near as they can
// be under their edge's source.
func addLanes(g *box, owner map[string]int, edges []plan.GraphEdge, lanes []*box) {
	shared := map[[2]int]*box{}
	placed := slices.Clone(g.kids)
	for i, e := range edges {
		a, ok1 := owner[e.From]
		b, ok2 := owner[e.To]
		if !ok1 || !ok2 || a == b {
			continue
		}
		from, to := g.kids[a], g.kids[b]
		top, bottom := from.y+from.h+vGap/3, to.y-vGap/3
		if bottom-top < nodeH {
			continue // the next row, or an edge up
		}
		l := shared[[2]int{a, b}]
		if l == nil {
			l = &box{lane: from, y: top, w: 12, h: bottom - top}
			l.x = freeX(placed, l, from.x+from.w/2-l.w/2)
			shared[[2]int{a, b}] = l
			placed = append(placed, l)
		}
		lanes[i] = l
	}
	g.kids = placed
}

// kidEdges are the edges between n kids, each node of an edge stood for
// by the kid it is in (owner), by index: succ[i] lists the kids kid i
// leads to. An edge down a lane leads from its source to the lane and on
// to its target.
func kidEdges(n int, owner map[string]int, edges []plan.GraphEdge) [][]int {
	succ := make([][]int, n)
	seen := map[[2]int]bool{}
	for _, e := range edges {
		i, ok1 := owner[e.From]
		j, ok2 := owner[e.To]
		if ok1 && ok2 && i != j && !seen[[2]int{i, j}] {
			seen[[2]int{i, j}] = true
			succ[i] = append(succ[i], j)
		}
	}
	return succ
}

func walk(b *box, f func(*box)) {
	f(b)
	for _, k := range b.kids {
		walk(k, f)
	}
}

// rows sets each kid's y: below every predecessor, on the longest path
// from the sources, leaving out the edges that close a cycle.
func rows(kids []*box, succ [][]int) {
	order, back := topoOrder(len(kids), succ)
	for _, i := range order {
		for _, j := range succ[i] {
			if !back[[2]int{i, j}] {
				kids[j].y = max(kids[j].y, kids[i].y+kids[i].h+vGap)
			}
		}
	}
}

// topoOrder is an order of the n nodes in which every edge but those that
// close a cycle (back, found by a depth-first search from the nodes in
// their order) goes forward.
func topoOrder(n int, succ [][]int) ([]int, map[[2]int]bool) {
	const (
		unseen = iota
		open
		closed
	)
	mark := make([]int, n)
	back := map[[2]int]bool{}
	var post []int
	var visit func(int)
	visit = func(i int) {
		mark[i] = open
		for _, j := range succ[i] {
			switch mark[j] {
			case unseen:
				visit(j)
			case open:
				back[[2]int{i, j}] = true
			}
		}
		mark[i] = closed
		post = append(post, i)
	}
	for i := range n {
		if mark[i] == unseen {
			visit(i)
		}
	}
	order := make([]int, n)
	for k, i := range post {
		order[n-1-k] = i
	}
	return order, back
}

// columns sets each kid's x, row by row from the top: as near as it can
// be under the middle of its predecessors, and clear of every kid placed
// before it that shares rows with it.
func columns(kids []*box, succ [][]int) {
	preds := make([][]int, len(kids))
	for i, js := range succ {
		for _, j := range js {
			preds[j] = append(preds[j], i)
		}
	}
	order := make([]int, len(kids))
	for i := range order {
		order[i] = i
	}
	// A stable sort by row keeps the drawing order within a row.
	stableSort(order, func(a, b int) bool { return kids[a].y < kids[b].y })
	var placed []*box
	for _, i := range order {
		k := kids[i]
		want, n := 0.0, 0
		for _, p := range preds[i] {
			if kids[p].y < k.y { // placed already
				want += kids[p].x + kids[p].w/2
				n++
			}
		}
		if n > 0 {
			want = max(0, want/float64(n)-k.w/2)
		}
		k.x = freeX(placed, k, want)
		placed = append(placed, k)
	}
}

func stableSort(s []int, less func(a, b int) bool) {
	for i := 1; i < len(s); i++ { // insertion sort: stable, and rows come nearly sorted
		for j := i; j > 0 && less(s[j], s[j-1]); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// freeX is the least x at or right of want where k overlaps no box of
// placed that shares rows with it.
func freeX(placed []*box, k *box, want float64) float64 {
	x := want
	for moved := true; moved; {
		moved = false
		for _, p := range placed {
			rowsMeet := p.y < k.y+k.h+vGap/2 && k.y < p.y+p.h+vGap/2
			if rowsMeet && p.x < x+k.w+hGap && x < p.x+p.w+hGap {
				x, moved = p.x+p.w+hGap, true
			}
		}
	}
	return x
}

// place makes the positions of b's kids absolute, b being at x, y.
func place(b *box, x, y float64) {
	b.x, b.y = x, y
	for _, k := range b.kids {
		place(k, x+k.x, y+k.y)
	}
}

// collect indexes the leaves by name and the states' node names by id.
func collect(b *box, leaves map[string]*box, nodes map[string]string) {
	for _, k := range b.kids {
		switch {
		case k.group:
			collect(k, leaves, nodes)
			continue
		case k.lane != nil:
			continue
		}
		leaves[k.name] = k
		if !k.circle {
			nodes[k.label] = k.name
		}
	}
}

func drawBoxes(b *strings.Builder, kids []*box) {
	for _, k := range kids {
		switch {
		case k.group:
			fmt.Fprintf(b, `<g class="group" id="group-%s"><title>%s</title><rect x="%s" y="%s" width="%s" height="%s" rx="8" fill="#f8fafc" stroke="#cbd5e1" stroke-dasharray="4 3"/>`+
				`<text x="%s" y="%s" fill="#475569" font-size="11">%s</text></g>`+"\n",
				k.name, text(k.label, 0), num(k.x), num(k.y), num(k.w), num(k.h), num(k.x+groupPad), num(k.y+k.h-8), text(k.label, nodeRunes))
			drawBoxes(b, k.kids)
		case k.lane != nil:
		case k.circle:
			drawEnd(b, k)
		default:
			fmt.Fprintf(b, `<g class="node" id="node-%s" data-state="%s"><title>%s</title><rect x="%s" y="%s" width="%s" height="%s" rx="6" fill="#ffffff" stroke="#64748b" stroke-width="1.5"/>`+
				`<text x="%s" y="%s" text-anchor="middle" fill="#0f172a">%s</text></g>`+"\n",
				k.name, text(k.label, 0), text(k.label, 0), num(k.x), num(k.y), num(k.w), num(k.h), num(k.x+k.w/2), num(k.y+nodeH/2+4), text(k.label, nodeRunes))
		}
	}
}

func drawEnd(b *strings.Builder, k *box) {
	cx, cy := num(k.x+endR), num(k.y+endR)
	fmt.Fprintf(b, `<g class="end" id="node-%s"><title>%s</title><circle cx="%s" cy="%s" r="%s" fill="#ffffff" stroke="#334155" stroke-width="1.5"/>`, k.name, k.label, cx, cy, num(endR))
	if k.name == plan.GraphEnd {
		fmt.Fprintf(b, `<circle cx="%s" cy="%s" r="%s" fill="#334155"/>`, cx, cy, num(endR-4))
	}
	b.WriteString("</g>\n")
}

// drawEdge draws an edge as a curve from the bottom of from to the top of
// to, or, for one that goes up or along a row (a loop), around their right
// sides; its label sits at the curve's middle.
func drawEdge(b *strings.Builder, from, to, lane *box, label string) {
	if lane != nil {
		drawLaneEdge(b, from, to, lane, label)
		return
	}
	x1, y1, x2, y2 := from.x+from.w/2, from.y+from.h, to.x+to.w/2, to.y
	c1x, c1y, c2x, c2y := x1, y1+vGap/2, x2, y2-vGap/2
	if y2 <= y1 {
		x1, y1, x2, y2 = from.x+from.w, from.y+from.h/2, to.x+to.w, to.y+to.h/2
		bulge := max(x1, x2) + 40
		c1x, c1y, c2x, c2y = bulge, y1, bulge, y2
	}
	fmt.Fprintf(b, `<g class="edge"><path d="M%s,%s C%s,%s %s,%s %s,%s" fill="none" stroke="#64748b" stroke-width="1.2" marker-end="url(#arrow)"/>`,
		num(x1), num(y1), num(c1x), num(c1y), num(c2x), num(c2y), num(x2), num(y2))
	// the cubic curve at t=0.7, nearer the target, where the labels of
	// edges that leave one node are apart
	const t, u = 0.7, 0.3
	edgeLabel(b, label, u*u*u*x1+3*u*u*t*c1x+3*u*t*t*c2x+t*t*t*x2, u*u*u*y1+3*u*u*t*c1y+3*u*t*t*c2y+t*t*t*y2)
	b.WriteString("</g>\n")
}

// drawLaneEdge draws an edge that crosses rows down its lane: a curve to
// the lane's top, a line down it, and a curve into the target. Its label
// sits at the lane's top.
func drawLaneEdge(b *strings.Builder, from, to, lane *box, label string) {
	x1, y1, x2, y2 := from.x+from.w/2, from.y+from.h, to.x+to.w/2, to.y
	lx, top, bottom := lane.x+lane.w/2, lane.y, lane.y+lane.h
	fmt.Fprintf(b, `<g class="edge"><path d="M%s,%s C%s,%s %s,%s %s,%s L%s,%s C%s,%s %s,%s %s,%s" fill="none" stroke="#64748b" stroke-width="1.2" marker-end="url(#arrow)"/>`,
		num(x1), num(y1), num(x1), num(top), num(lx), num(y1), num(lx), num(top), num(lx), num(bottom),
		num(lx), num(y2), num(x2), num(bottom), num(x2), num(y2))
	edgeLabel(b, label, lx, top+12)
	b.WriteString("</g>\n")
}

// edgeLabel writes an edge's label centred at x, y on a light background.
func edgeLabel(b *strings.Builder, label string, x, y float64) {
	if label == "" {
		return
	}
	w := textWidth(label, edgeRunes)*0.9 + 8
	fmt.Fprintf(b, `<title>%s</title><rect x="%s" y="%s" width="%s" height="16" rx="3" fill="#ffffff" fill-opacity="0.9"/><text x="%s" y="%s" text-anchor="middle" fill="#475569" font-size="11">%s</text>`,
		text(label, 0), num(x-w/2), num(y-8), num(w), num(x), num(y+4), text(label, edgeRunes))
}

// text is s escaped for XML text and attributes, on one line, without the
// control characters XML forbids, and cut to limit runes (0: whole).
func text(s string, limit int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t' || r == '\r':
			return ' '
		case r < 0x20 || r == 0xFFFE || r == 0xFFFF:
			return -1
		}
		return r
	}, s)
	if limit > 0 && utf8.RuneCountInString(s) > limit {
		s = string([]rune(s)[:limit-1]) + "…"
	}
	return html.EscapeString(s)
}

// num prints a coordinate with at most one decimal, the same on every
// machine.
func num(f float64) string {
	f = math.Round(f*10) / 10
	if f == math.Trunc(f) {
		return fmt.Sprintf("%d", int64(f))
	}
	return fmt.Sprintf("%.1f", f)
}
