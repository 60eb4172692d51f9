package impl

// Conditions follow Python's arithmetic, as the definitions they come from
// are written for it: division by zero makes the condition fail (a failing
// condition is false), and % takes the sign of the divisor.

// zeroDivision is the panic Div and Mod raise; Cond turns it into false.
type zeroDivision struct{}

// integer is any integer type a condition may compute with.
type integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// Div is a / b, failing the condition when b is zero.
func Div[T ~float32 | ~float64](a, b T) T {
	if b == 0 {
		panic(zeroDivision{})
	}
	return a / b
}

// Mod is Python's a % b: the result has the sign of b. It fails the
// condition when b is zero.
func Mod[T integer](a, b T) T {
	if b == 0 {
		panic(zeroDivision{})
	}
	m := a % b
	if m != 0 && (m < 0) != (b < 0) {
		m += b
	}
	return m
}

// Cond evaluates a condition that divides: a division by zero makes it
// false. Any other panic is not the condition's to hide.
func Cond(cond func() bool) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, zero := r.(zeroDivision); !zero {
				panic(r)
			}
			ok = false
		}
	}()
	return cond()
}
