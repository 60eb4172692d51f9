package jsonata

import (
	"syscall"
	"sort"
	"context"
	"testing"

	blues "github.com/blues/jsonata-go"
)

// temporary, not committed: throughput against blues/jsonata-go on the suite
func BenchmarkSuite(b *testing.B) {
	t := &testing.T{}
	groups, datasets := loadSuite(t)
	type item struct {
		src   string
		input any
		plain any
	}
	var its []item
	for g, cs := range groups {
		if g == "performance" || g == "range-operator" || g == "flattening" || g == "tail-recursion" {
			continue
		}
		for _, c := range cs {
			if c.Dataset == nil || *c.Dataset == "" || c.Code != "" || c.Error != nil || len(c.Bindings) > 2 {
				continue
			}
			its = append(its, item{src: c.Expr, input: datasets[*c.Dataset], plain: plain(datasets[*c.Dataset])})
		}
	}
	var ours []*Expr
	var theirs []*blues.Expr
	var ok []item
	for _, it := range its {
		x, err := Compile(it.src)
		if err != nil {
			continue
		}
		y, err := blues.Compile(it.src)
		if err != nil {
			continue
		}
		if _, err := y.Eval(it.plain); err != nil && err != blues.ErrUndefined {
			continue
		}
		ours = append(ours, x)
		theirs = append(theirs, y)
		ok = append(ok, it)
	}
	b.Logf("%d expressions", len(ok))
	b.Run("flowc", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for j, x := range ours {
				x.Eval(context.Background(), ok[j].plain, nil)
			}
		}
	})
	b.Run("blues", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for j, y := range theirs {
				y.Eval(ok[j].plain)
			}
		}
	})
}

func TestPerExpr(t *testing.T) {
	groups, datasets := loadSuite(t)
	type res struct {
		src    string
		ns, bl float64
	}
	var rs []res
	for g, cs := range groups {
		if g == "performance" || g == "range-operator" || g == "flattening" || g == "tail-recursion" {
			continue
		}
		for _, c := range cs {
			if c.Dataset == nil || *c.Dataset == "" || c.Code != "" || c.Error != nil || len(c.Bindings) > 2 {
				continue
			}
			x, err := Compile(c.Expr)
			y, err2 := blues.Compile(c.Expr)
			if err != nil || err2 != nil {
				continue
			}
			in := plain(datasets[*c.Dataset])
			if _, err := y.Eval(in); err != nil && err != blues.ErrUndefined {
				continue
			}
			yv, yerr := y.Eval(in)
			xv, xdef, _ := x.Eval(context.Background(), in, nil)
			if yerr != nil || !xdef || !sameJSON(plain(xv), plain(yv), true) {
				continue
			}
			t1 := cpu()
			for i := 0; i < 300; i++ {
				x.Eval(context.Background(), in, nil)
			}
			t2 := cpu()
			for i := 0; i < 300; i++ {
				y.Eval(in)
			}
			t3 := cpu()
			rs = append(rs, res{c.Expr, float64(t2-t1) / 300, float64(t3-t2) / 300})
		}
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].ns > rs[j].ns })
	var tot, totb float64
	for _, r := range rs {
		tot += r.ns
		totb += r.bl
	}
	t.Logf("total ours %.0f blues %.0f ratio %.2f", tot, totb, totb/tot)
	for _, r := range rs[:25] {
		t.Logf("%10.0f %10.0f %5.2f %s", r.ns, r.bl, r.bl/r.ns, r.src)
	}
}

func cpu() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}
