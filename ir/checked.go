package ir

// Checked is a workflow the checker accepted: the IR as its front-end made
// it, which checking leaves untouched, and the facts checking found that the
// front-end could not know, because they need the Go types of the user's
// package. Code generators read only checked workflows.
type Checked struct {
	*Workflow
	// conds holds typed conditions as checked, lowered trees, by the
	// expression the front-end parsed.
	conds map[*Expr]*Expr
	// items holds what typed map regions iterate over, by region.
	items map[*Region]*Items
	// stateItems holds the type of the item parameter of the handlers of
	// states inside a typed map region, by state id.
	stateItems map[string]*Type
}

// Items is what a typed map region iterates over.
type Items struct {
	Source []Access // the steps from the state to the items, in order
	Item   *Type    // the type of one item: the list's element type, or the source's own type when Wrap
	Wrap   bool     // the source is not a list: it is the only item
}

// NewChecked starts the checked form of w, with no facts yet.
func NewChecked(w *Workflow) *Checked {
	return &Checked{Workflow: w, conds: map[*Expr]*Expr{}, items: map[*Region]*Items{}, stateItems: map[string]*Type{}}
}

// SetCond records the checked tree of a condition.
func (c *Checked) SetCond(parsed, checked *Expr) { c.conds[parsed] = checked }

// Cond is the checked tree of a condition, or e itself when it has none (JSON
// mode's conditions are Python source the runtime evaluates).
func (c *Checked) Cond(e *Expr) *Expr {
	if checked := c.conds[e]; checked != nil {
		return checked
	}
	return e
}

// SetItems records what the map region r iterates over, and gives the
// handlers of its body their item parameter.
func (c *Checked) SetItems(r *Region, it *Items) {
	c.items[r] = it
	for _, ref := range r.Body {
		c.stateItems[ref.ID] = it.Item
	}
}

// Items is what the typed map region r iterates over; the zero Items when
// the checker found nothing (JSON mode and the States Language need none).
func (c *Checked) Items(r *Region) Items {
	if it := c.items[r]; it != nil {
		return *it
	}
	return Items{}
}

// HandlerItem is the type of the item parameter of s's handler when s runs
// inside an iteration, or nil outside one.
func (c *Checked) HandlerItem(s *State) *Type { return c.stateItems[s.ID] }
