package asl

import (
	"context"
	mrand "math/rand/v2"
	"regexp"
	"testing"
	"time"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// The run's random source and clock decide the values of States.UUID,
// States.MathRandom and JSONata's $uuid, $random, $now and $millis: two
// runs given the same source and time compute the same values, as a
// replayed run on Temporal must.
func TestRunFunctionsFollowTheRun(t *testing.T) {
	values := func() []any {
		src := mrand.New(mrand.NewPCG(7, 7))
		cfg := impl.NewConfig(impl.WithRand(src.Float64), impl.WithClock(impl.NewFakeClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))))
		x, _, err := NewASLExec(&cfg, "m", nil, Obj())
		if err != nil {
			t.Fatal(err)
		}
		cx := x.Enter(context.Background(), "S")
		var out []any
		for _, c := range []*Intrinsic{
			{Name: "States.UUID", Fn: StatesUUID},
			{Name: "States.MathRandom", Fn: StatesMathRandom, Args: []IntrinsicArg{{Value: 1.0}, {Value: 1e9}}},
		} {
			v, err := c.Eval(Obj(), cx)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, v)
		}
		v, err := (&JSONata{Src: "[$uuid(), $random(), $now(), $millis()]"}).Eval(cx)
		if err != nil {
			t.Fatal(err)
		}
		return append(out, impl.JSONText(v))
	}
	first, again := values(), values()
	if impl.JSONText(first) != impl.JSONText(again) {
		t.Errorf("the same source and clock gave %v, then %v", first, again)
	}
	if uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`); !uuid.MatchString(first[0].(string)) {
		t.Errorf("States.UUID gave %v, not a version 4 UUID", first[0])
	}
	if want := `"2026-01-02T03:04:05.000Z",1767323045000]`; !regexp.MustCompile(regexp.QuoteMeta(want) + `$`).MatchString(first[2].(string)) {
		t.Errorf("JSONata gave %v, want the run's time %s at the end", first[2], want)
	}
}
