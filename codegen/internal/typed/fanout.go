package typed

import (
	"slices"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
)

// Fan-out regions in typed mode. For a region that starts at state "split"
// the generated code has
//
//   - parallelSplit or mapSplit, which the opening state's step returns
//     through: it gives each branch or item its own copy of the state (clone),
//     runs them through flowcrt.FanOut, and when all are done applies what
//     they recorded to the state (join), in branch or item order;
//   - branchSplit or iterateSplit, the loop that runs one branch or item
//     over the region's own states until it reaches the join or the state
//     after the chain, turning a panic into an error naming the state;
//   - for a JSON pointer that can miss at run time, itemsSplit, which finds
//     the items with plain Go selectors and index expressions.
//
// The states inside a region have step methods of their own shape: they run
// on the branch's copy, take the item of an iteration, and append each
// update to the branch's record.

// runner is the loop that runs one branch or item of a fan-out.
func runner(fan *plan.FanOut) *plan.Loop { return fan.Loops[0] }

func (g *typedGen) itemsMethod(r *ir.Region) string { return "items" + g.w.State(r.From).GoName }

// regionParams are what a region's states take beyond ctx and s.
func (g *typedGen) regionParams(r *ir.Region) []jen.Code {
	var out []jen.Code
	if r.Kind == ir.RegionMap {
		out = append(out, jen.Id("item").Add(g.itemType(g.c.Items(r).Item)))
	}
	return append(out, jen.Id("rec").Op("*").Index().Id(g.n.Update))
}

// region emits the functions of one fan-out, after its opening state's step.
func (g *typedGen) region(f *jen.File, fan *plan.FanOut, t emit.Writer) {
	if fan.Items {
		if fallible(g.c.Items(fan.Region).Source) {
			g.itemsFunc(f, fan.Region)
		}
		g.mapFunc(f, fan)
	} else {
		g.parallelFunc(f, fan)
	}
	g.runner(f, fan, t)
}

func (g *typedGen) parallelFunc(f *jen.File, fan *plan.FanOut) {
	var entries []jen.Code
	var ids []string
	longest := 0
	for i, b := range fan.Region.Branches {
		entries = append(entries, jen.Id(g.n.StepConst(fan.Entries[i])))
		ids = append(ids, fan.Entries[i].ID)
		longest = max(longest, len(b))
	}
	n := len(fan.Entries)
	f.Line()
	emit.Doc(f, fan.Method+" runs the branches "+plan.QuoteList(ids)+" at once, each on its own copy of s. "+
		"Once all are done it applies their updates to s, branch by branch in that order, and the run "+
		"goes on at "+emit.ExitWords(fan.Exit)+". The first failure cancels the other branches and fails the run. "+
		"With a session each branch saves a checkpoint when it finishes, and a resumed run does not run it again.")
	f.Func().Params(jen.Id("w").Op("*").Id(g.n.Workflow)).Id(fan.Method).Params(g.regionFuncParams()...).
		Params(jen.Id(g.n.Step), jen.Error()).BlockFunc(func(b *jen.Group) {
		b.Id("entries").Op(":=").Index(jen.Lit(n)).Id(g.n.Step).Values(entries...)
		b.Id("recs").Op(":=").Add(emit.Flowcimpl("NewRecords")).Types(jen.Id(g.n.Update)).Call(jen.Lit(n), jen.Lit(longest))
		g.startFanOut(b, fan)
		prepare := jen.Id("branch").Op(":=").Id("s").Dot("clone").Call()
		var work *jen.Statement
		if fan.Stops {
			work = g.stoppingWork(fan, prepare, "branch", jen.Id("entries").Index(jen.Id("i")), nil)
		} else {
			work = g.work(prepare,
				jen.Id("w").Dot(runner(fan).Method).Call(jen.Id("ctx"), jen.Op("&").Id("branch"), jen.Id("entries").Index(jen.Id("i")), recOf()))
		}
		reportsData(b)
		b.Err().Op("=").Add(emit.Flowcimpl("FanOut")).Call(jen.Id("ctx"), jen.Lit(fan.From.ID), jen.Lit(n), jen.Lit(fan.Limit), work)
		g.joinAndGo(b, fan)
	})
}

func (g *typedGen) regionFuncParams() []jen.Code {
	return []jen.Code{jen.Id("ctx").Qual("context", "Context"), jen.Id("s").Op("*").Id(g.n.State), jen.Id("sess").Op("*").Add(emit.Flowcimpl("Session"))}
}

// reportsData marks the context of the branches or items as reporting
// their states' input and output (ReportInput, ReportOutput), for a
// session's history to record them.
func reportsData(b *jen.Group) {
	b.Id("ctx").Op("=").Add(emit.Flowcimpl("ReportsRunData")).Call(jen.Id("ctx"))
}

// startFanOut saves the fan-out's start with the session, or restores what
// its finished branches recorded when the run resumes inside it.
func (g *typedGen) startFanOut(b *jen.Group, fan *plan.FanOut) {
	start := "StartFanOut"
	if fan.Stops {
		start = "StartFanOutStops"
	}
	b.List(jen.Id("progress"), jen.Err()).Op(":=").Add(emit.Flowcimpl(start)).Call(jen.Id("ctx"), jen.Id("sess"), jen.Lit(fan.From.ID), jen.Id("s"), jen.Id("recs"))
	b.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id(g.n.EndConst()), jen.Err()))
}

// work is the work flowcrt.FanOut runs for branch or item i: prepare,
// then run, then save what it recorded; a branch or item that finished
// before the run was resumed is not run again.
func (g *typedGen) work(prepare jen.Code, run *jen.Statement) *jen.Statement {
	return jen.Func().Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("i").Int()).Error().Block(
		jen.If(jen.Id("progress").Dot("Done").Call(jen.Id("i"))).Block(
			jen.Return(jen.Nil()).Comment("finished before the run was resumed: its updates are in recs"),
		),
		prepare,
		jen.If(jen.Err().Op(":=").Add(run), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Return(jen.Id("progress").Dot("Finish").Call(jen.Id("ctx"), jen.Id("i"), recOf())),
	)
}

// stoppingWork is the work of branch or item i of a region whose states
// can stop for a decision: copy is its copy of the state, made by
// prepare; it starts at entry, or where it stopped when the run resumes
// inside it, and how it ends is settled with the session: a stop is no
// failure of the fan-out. item is the item an iteration takes.
func (g *typedGen) stoppingWork(fan *plan.FanOut, prepare jen.Code, copy string, entry, item jen.Code) *jen.Statement {
	var steps []jen.Code
	for _, s := range runner(fan).States {
		steps = append(steps, jen.Id(g.n.StepConst(s)))
	}
	args := []jen.Code{jen.Id("ctx"), jen.Op("&").Id(copy)}
	if item != nil {
		args = append(args, item)
	}
	args = append(args, jen.Id("step"), recOf(), jen.Id("sess"))
	return jen.Func().Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("i").Int()).Error().Block(
		jen.If(jen.Id("progress").Dot("Done").Call(jen.Id("i"))).Block(
			jen.Return(jen.Nil()).Comment("finished before the run was resumed: its updates are in recs"),
		),
		prepare,
		jen.List(jen.Id("ctx"), jen.Id("step"), jen.Err()).Op(":=").Add(emit.Flowcimpl("BranchAt")).Call(
			jen.Id("ctx"), jen.Id("progress"), jen.Id("i"), recOf(), jen.Id(copy).Dot("apply"),
			jen.Id(g.n.IdsVar()).Index(jen.Empty().Op(":")), jen.Index().Id(g.n.Step).Values(steps...), entry),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Return(jen.Id("progress").Dot("Settle").Call(jen.Id("ctx"), jen.Id("i"), recOf(),
			jen.Id("w").Dot(runner(fan).Method).Call(args...))),
	)
}

// recOf is the record of branch or item i.
func recOf() *jen.Statement { return jen.Id("recs").Dot("Of").Call(jen.Id("i")) }

// joinAndGo ends a region function: fail with the first error, or apply the
// records and go on.
func (g *typedGen) joinAndGo(b *jen.Group, fan *plan.FanOut) {
	if fan.Stops {
		b.If(jen.Err().Op("==").Nil()).Block(
			jen.Err().Op("=").Id("progress").Dot("Stopped").Call().Comment("the branches that wait, if any"),
		)
	}
	b.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id(g.n.EndConst()), jen.Err()))
	b.Id("s").Dot("join").Call(jen.Id("recs"))
	b.Return(g.target(fan.Exit), jen.Nil())
}

// sharesSource: when the items are a list field as a whole, the iterations
// share it instead of each copying it, which would make a fan-out over n
// items cost n² copies.
func sharesSource(it ir.Items) bool {
	return !it.Wrap && len(it.Source) == 1
}

func (g *typedGen) mapFunc(f *jen.File, fan *plan.FanOut) {
	r := fan.Region
	it := g.c.Items(r)
	text := fan.Method + " runs the chain " + plan.QuoteList(ir.RefIDs(r.Body)) + " for each item of iter_key " +
		emit.Quote(r.Items) + plan.ConcurrencyWords(fan.Limit) + ", each on its own copy of s. Once all are done it " +
		"applies their updates to s in item order, and the run goes on at " + emit.ExitWords(fan.Exit) +
		". The first failure cancels the other items and fails the run. With a session each item saves a " +
		"checkpoint when it finishes, and a resumed run does not run it again."
	if sharesSource(it) {
		text += " The items share the list itself, which handlers must not modify: a copy for each item " +
			"would cost n² copies."
	}
	f.Line()
	emit.Doc(f, text)
	f.Func().Params(jen.Id("w").Op("*").Id(g.n.Workflow)).Id(fan.Method).Params(g.regionFuncParams()...).
		Params(jen.Id(g.n.Step), jen.Error()).BlockFunc(func(b *jen.Group) {
		g.items(b, r)
		copied := "s"
		if sharesSource(it) {
			copied = "base"
			b.Id("base").Op(":=").Op("*").Id("s")
			b.Id("base").Dot(it.Source[0].Name).Op("=").Nil()
		}
		b.Id("recs").Op(":=").Add(emit.Flowcimpl("NewRecords")).Types(jen.Id(g.n.Update)).
			Call(jen.Len(jen.Id("items")), jen.Lit(len(r.Body)))
		g.startFanOut(b, fan)
		work := g.iteration(fan, copied)
		if fan.Stops {
			work = g.stoppingWork(fan, g.itemCopy(r, copied), "it", jen.Id(g.n.StepConst(fan.Entries[0])),
				jen.Id("items").Index(jen.Id("i")))
		}
		reportsData(b)
		b.Err().Op("=").Add(emit.Flowcimpl("FanOut")).Call(jen.Id("ctx"), jen.Lit(fan.From.ID), jen.Len(jen.Id("items")),
			jen.Lit(fan.Limit), work)
		g.joinAndGo(b, fan)
	})
}

// iteration is the work of item i: a copy of the state (with the shared
// list put back) run through the chain.
func (g *typedGen) iteration(fan *plan.FanOut, copied string) *jen.Statement {
	return g.work(g.itemCopy(fan.Region, copied), jen.Id("w").Dot(runner(fan).Method).Call(
		jen.Id("ctx"), jen.Op("&").Id("it"), jen.Id("items").Index(jen.Id("i")), recOf()))
}

// itemCopy declares `it`, the copy of the state item i runs on.
func (g *typedGen) itemCopy(r *ir.Region, copied string) *jen.Statement {
	it := g.c.Items(r)
	prepare := jen.Id("it").Op(":=").Id(copied).Dot("clone").Call()
	if sharesSource(it) {
		prepare.Line().Id("it").Dot(it.Source[0].Name).Op("=").Id("items")
	}
	return prepare
}

// items declares `items`, the list a map region runs over.
func (g *typedGen) items(b *jen.Group, r *ir.Region) {
	it := g.c.Items(r)
	switch {
	case r.ItemsPath == nil:
		b.Id("items").Op(":=").Index().Id(g.n.State).Values(jen.Op("*").Id("s"))
	case fallible(it.Source):
		b.List(jen.Id("items"), jen.Err()).Op(":=").Id("s").Dot(g.itemsMethod(r)).Call()
		b.If(jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Id(g.n.EndConst()), jen.Op("&").Add(emit.Flowcrt("StateError")).Custom(emit.Multiline,
				jen.Id("State").Op(":").Lit(r.From),
				jen.Id("Err").Op(":").Err(),
			)),
		)
	case sharesSource(it):
		b.Id("items").Op(":=").Qual("slices", "Clip").Call(jen.Id("s").Dot(it.Source[0].Name))
	case it.Wrap:
		b.Id("items").Op(":=").Index().Add(g.itemType(it.Item)).Values(fieldPath(it.Source))
	default:
		b.Id("items").Op(":=").Add(fieldPath(it.Source))
	}
}

// fallible reports whether a source has a step that can miss at run time.
func fallible(src []ir.Access) bool {
	for _, a := range src {
		if a.Kind != ir.AccessField {
			return true
		}
	}
	return false
}

// fieldPath renders a source of fields only: selectors from s.
func fieldPath(src []ir.Access) *jen.Statement {
	x := jen.Id("s")
	for _, a := range src {
		x = x.Dot(a.Name)
	}
	return x
}

// itemsFunc emits the method that follows a JSON pointer whose steps can
// miss: a list index, a map key or a pointer.
func (g *typedGen) itemsFunc(f *jen.File, r *ir.Region) {
	it := g.c.Items(r)
	list := func() *jen.Statement { return jen.Index().Add(g.itemType(it.Item)) }
	f.Line()
	emit.Doc(f, g.itemsMethod(r)+" returns the items of the fan-out at "+emit.Quote(r.From)+", iter_key "+emit.Quote(r.Items)+
		", or an error if it leads to no value.")
	f.Func().Params(jen.Id("s").Op("*").Id(g.n.State)).Id(g.itemsMethod(r)).Params().
		Params(list(), jen.Error()).BlockFunc(func(b *jen.Group) {
		// x builds the value reached so far afresh each time: jennifer
		// statements are shared, not copied, when reused.
		x := func() *jen.Statement { return jen.Id("s") }
		deref := false // x is a pointer known not to be nil
		vars := 0
		for _, a := range it.Source {
			missing := jen.Return(jen.Nil(), emit.Flowcimpl("ItemsError").Call(jen.Lit(r.Items), jen.Lit(a.Pointer)))
			base := x
			if deref && a.Kind != ir.AccessField { // selectors follow pointers by themselves
				base = func() *jen.Statement { return jen.Parens(jen.Op("*").Add(x())) }
			}
			deref = false
			switch a.Kind {
			case ir.AccessField:
				x = func() *jen.Statement { return base().Dot(a.Name) }
			case ir.AccessDeref:
				b.If(x().Op("==").Nil()).Block(missing)
				deref = true
			case ir.AccessIndex:
				b.If(jen.Len(base()).Op("<=").Lit(a.Index)).Block(missing)
				x = func() *jen.Statement { return base().Index(jen.Lit(a.Index)) }
			case ir.AccessKey:
				vars++
				v := "v" + strconv.Itoa(vars)
				b.List(jen.Id(v), jen.Id("ok")).Op(":=").Add(base()).Index(jen.Lit(a.Key))
				b.If(jen.Op("!").Id("ok")).Block(missing)
				x = func() *jen.Statement { return jen.Id(v) }
			}
		}
		if it.Wrap {
			b.Return(list().Values(x()), jen.Nil())
			return
		}
		b.Return(x(), jen.Nil())
	})
}

// runner emits the loop that runs one branch or item of a fan-out over
// the fan-out's states until it reaches the fan-out's exit.
func (g *typedGen) runner(f *jen.File, fan *plan.FanOut, t emit.Writer) {
	l := &emit.Loop{
		Loop:   runner(fan),
		Params: []jen.Code{jen.Id("s").Op("*").Id(g.n.State)},
		After:  []jen.Code{jen.Id("rec").Op("*").Index().Id(g.n.Update)},
		Ctx:    true,
		// A session's history records each state's input (issue 36).
		Entered: emit.Flowcimpl("ReportInput").Call(jen.Id("sctx"), jen.Id("w").Dot("cfg").Dot("Observer"), jen.Op("*").Id("s")),
	}
	args := []jen.Code{jen.Id("sctx"), jen.Id("s")}
	if fan.Items {
		l.Params = append(l.Params, jen.Id("item").Add(g.itemType(g.c.Items(fan.Region).Item)))
		args = append(args, jen.Id("item"))
	}
	args = append(args, jen.Id("rec"))
	text := l.Method + " runs " + l.What
	if l.FromStep {
		text += ", from step"
	}
	l.Doc = text + ", on its own copy of the state s, until it reaches " + emit.ExitWords(fan.Exit) +
		". rec receives the updates of its states. A panicking handler fails it with an error naming its state."
	if l.Session == plan.StopSession {
		// A resumed branch or item starts where it stopped, and its approval
		// states read their decision through the session.
		l.After = append(l.After, jen.Id("sess").Op("*").Add(emit.Flowcimpl("Session")))
		l.Doc += " An approval state without a decision stops it with an *flowcrt.Interrupted error; a resumed " +
			"run starts it again at the step it stopped at."
	}
	l.Call = func(s *ir.State) *jen.Statement {
		if takesSession(s) {
			return jen.Id("w").Dot(emit.StepMethod(s)).Call(append(slices.Clip(args), jen.Id("sess"))...)
		}
		return jen.Id("w").Dot(emit.StepMethod(s)).Call(args...)
	}
	t.Loop(f, g.n, l)
}

// clone emits the copy each branch or item runs on. Slices and maps, also
// inside unnamed slice and map types, are copied, so that no branch writes
// into another's; values of named types are copied as Go assigns them
// (their own slices, maps and pointers are shared), and so are pointers and
// interfaces.
func (g *typedGen) clone(f *jen.File) {
	f.Line()
	emit.Doc(f, "clone returns the copy of s that a branch or item of a fan-out runs on. Slices and maps are "+
		"copied, also inside unnamed slice and map types; the contents of named types, pointers and "+
		"interfaces are shared, as Go assignment shares them.")
	f.Func().Params(jen.Id("s").Op("*").Id(g.n.State)).Id("clone").Params().Id(g.n.State).BlockFunc(func(b *jen.Group) {
		b.Id("c").Op(":=").Op("*").Id("s")
		for _, fd := range g.w.Fields {
			if x := cloneOf(fd.Type, jen.Id("s").Dot(fd.GoName)); x != nil {
				b.Id("c").Dot(fd.GoName).Op("=").Add(x)
			}
		}
		b.Return(jen.Id("c"))
	})
}

// cloneOf returns the expression that copies x of type t, or nil when
// assignment copies enough.
func cloneOf(t *ir.Type, x jen.Code) jen.Code {
	switch t.Kind {
	case ir.TypeMessages:
		return jen.Qual("slices", "Clone").Call(x)
	case ir.TypeSlice, ir.TypeMap:
		pkg, deep := "slices", "CloneSliceFunc"
		if t.Kind == ir.TypeMap {
			pkg, deep = "maps", "CloneMapFunc"
		}
		inner := cloneOf(t.Elem, jen.Id("v"))
		if inner == nil {
			return jen.Qual(pkg, "Clone").Call(x)
		}
		return emit.Flowcimpl(deep).Call(x, jen.Func().Params(jen.Id("v").Add(emit.GoType(t.Elem))).Add(emit.GoType(t.Elem)).Block(jen.Return(inner)))
	}
	return nil
}

// join emits the fold of a fan-out's records into the state.
func (g *typedGen) join(f *jen.File) {
	owned := map[*ir.Field]int{}
	for _, fd := range g.w.Fields {
		if ownedReducer(fd.Reducer.Kind) {
			owned[fd] = len(owned)
		}
	}
	f.Line()
	emit.Doc(f, "join applies the updates a fan-out recorded to s through the reducers: branch by branch (item by "+
		"item), each one's in the order its states returned them. It gives what applying them one by one "+
		"gives, but an append or merge copies the field's old value once per join, not once per update.")
	f.Func().Params(jen.Id("s").Op("*").Id(g.n.State)).Id("join").
		Params(jen.Id("recs").Op("*").Add(emit.Flowcimpl("Records")).Types(jen.Id(g.n.Update))).BlockFunc(func(b *jen.Group) {
		if len(owned) > 0 {
			b.Var().Id("own").Index(jen.Lit(len(owned))).Bool().Comment("the field holds a copy of join's own")
		}
		b.For(jen.List(jen.Id("_"), jen.Id("list")).Op(":=").Range().Id("recs").Dot("Lists").Call()).Block(
			jen.For(jen.Id("i").Op(":=").Range().Id("list")).BlockFunc(func(lb *jen.Group) {
				lb.Id("u").Op(":=").Op("&").Id("list").Index(jen.Id("i"))
				for i, fd := range g.w.Fields {
					lb.If(isSet("u", i, len(g.w.Fields))).Block(joinReduce(fd, owned))
				}
			}),
		)
	})
}

func ownedReducer(k ir.ReducerKind) bool {
	return k == ir.ReduceAppend || k == ir.ReduceMessages || k == ir.ReduceMerge
}

func joinReduce(fd *ir.Field, owned map[*ir.Field]int) jen.Code {
	i, ok := owned[fd]
	if !ok {
		return reduce(fd)
	}
	fn := "AppendOwned"
	if fd.Reducer.Kind == ir.ReduceMerge {
		fn = "MergeOwned"
	}
	cur := jen.Id("s").Dot(fd.GoName)
	return cur.Clone().Op("=").Add(emit.Flowcimpl(fn)).Call(cur, jen.Id("u").Dot("v").Dot(fd.GoName), jen.Op("&").Id("own").Index(jen.Lit(i)))
}
