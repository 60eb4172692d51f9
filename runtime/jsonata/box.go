package jsonata

import "math"

// Integers in this range are boxed once, at start-up: ranges, indexes and
// arithmetic produce them all the time, and every other float64 put in an
// interface costs an allocation.
const (
	smallIntLo = -256
	smallIntHi = 1024
)

var smallInts = func() (t [smallIntHi - smallIntLo]any) {
	for i := range t {
		t[i] = float64(i + smallIntLo)
	}
	return t
}()

// box puts f in an interface, without allocating for a small integer.
// Negative zero keeps its own box: 1/-0 is -Infinity.
func box(f float64) any {
	if f >= smallIntLo && f < smallIntHi && f == math.Trunc(f) && (f != 0 || !math.Signbit(f)) {
		return smallInts[int(f)-smallIntLo]
	}
	return f
}
