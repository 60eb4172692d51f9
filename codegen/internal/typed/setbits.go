package typed

import (
	"github.com/dave/jennifer/jen"
)

// An update records which fields it sets in the bits of an unsigned
// integer, or of an array of uint64 past 64 fields, rather than in a
// []bool: an update of a small state then travels in registers, which
// takes a third off the cost of a transition.

// setType is the type of an update's set bits for n fields.
func setType(n int) jen.Code {
	switch {
	case n <= 8:
		return jen.Uint8()
	case n <= 16:
		return jen.Uint16()
	case n <= 32:
		return jen.Uint32()
	case n <= 64:
		return jen.Uint64()
	}
	return jen.Index(jen.Lit((n + 63) / 64)).Uint64()
}

// setWord is the word of u's set bits that holds field i.
func setWord(u string, i, n int) *jen.Statement {
	if n <= 64 {
		return jen.Id(u).Dot("set")
	}
	return jen.Id(u).Dot("set").Index(jen.Lit(i / 64))
}

func setMask(i int) *jen.Statement { return jen.Parens(jen.Lit(1).Op("<<").Lit(i % 64)) }

// isSet tests whether u sets field i of n.
func isSet(u string, i, n int) *jen.Statement {
	return setWord(u, i, n).Op("&").Add(setMask(i)).Op("!=").Lit(0)
}

// markSet records that u sets field i of n.
func markSet(u string, i, n int) *jen.Statement {
	return setWord(u, i, n).Op("|=").Add(setMask(i))
}

// setAll records that u sets every one of n fields.
func setAll(u string, n int) []jen.Code {
	if n <= 64 {
		return []jen.Code{jen.Id(u).Dot("set").Op("=").Lit(1).Op("<<").Lit(n).Op("-").Lit(1)}
	}
	var out []jen.Code
	for w := 0; w*64 < n; w++ {
		bits := min(64, n-w*64)
		out = append(out, jen.Id(u).Dot("set").Index(jen.Lit(w)).Op("=").Lit(1).Op("<<").Lit(bits).Op("-").Lit(1))
	}
	return out
}
