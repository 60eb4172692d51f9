package asl

import (
	"encoding/hex"
	"fmt"
	"math"
	mrand "math/rand/v2"
)

// The random intrinsics draw from the run's source (Config.Rand) rather
// than the process's, so that an engine that replays a run (Temporal)
// gets the same values again: it gives the run a source seeded once.

// runIntrinsics are the intrinsics whose value depends on the run, by
// name; Intrinsic.Eval calls them in place of Fn when it has the run.
var runIntrinsics = map[string]func(cx *aslContext, args []any) (any, error){
	"States.UUID": func(cx *aslContext, _ []any) (any, error) { return randomUUID(cx.exec.cfg.Random), nil },
	"States.MathRandom": func(cx *aslContext, args []any) (any, error) {
		return mathRandom(args, cx.exec.cfg.Random)
	},
}

// randomUUID is a version 4 UUID made from r.
func randomUUID(r func() float64) string {
	var b [16]byte
	for i := 0; i < len(b); i += 2 {
		v := uint16(r() * (1 << 16))
		b[i], b[i+1] = byte(v>>8), byte(v)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// mathRandom is States.MathRandom drawing from r, or from its seed when
// it has one.
func mathRandom(args []any, r func() float64) (any, error) {
	lo, err := argInt(args, 0)
	if err != nil {
		return nil, err
	}
	hi, err := argInt(args, 1)
	if err != nil {
		return nil, err
	}
	if hi < lo {
		return nil, fmt.Errorf("the end %d is below the start %d", hi, lo)
	}
	if len(args) > 2 {
		seed, err := argNumber(args, 2)
		if err != nil {
			return nil, err
		}
		r = mrand.New(mrand.NewPCG(math.Float64bits(seed), 0)).Float64
	}
	return float64(lo + int(r()*float64(hi-lo+1))), nil
}
