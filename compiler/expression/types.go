package expression

import (
	"go/constant"
	"go/token"
	"go/types"
	"math"
)

// class groups the types an operator may mix once converted.
type class int

const (
	classOther class = iota
	classBool
	classString
	classNumber
)

func basic(t types.Type) *types.Basic {
	b, _ := t.Underlying().(*types.Basic)
	return b
}

func hasInfo(t types.Type, info types.BasicInfo) bool {
	b := basic(t)
	return b != nil && b.Info()&info != 0
}

func isBool(t types.Type) bool    { return hasInfo(t, types.IsBoolean) }
func isString(t types.Type) bool  { return hasInfo(t, types.IsString) }
func isInteger(t types.Type) bool { return hasInfo(t, types.IsInteger) }
func isFloat(t types.Type) bool   { return hasInfo(t, types.IsFloat) }
func isUntyped(t types.Type) bool { return hasInfo(t, types.IsUntyped) }
func isNil(t types.Type) bool     { return types.Identical(t, types.Typ[types.UntypedNil]) }

// classOf leaves complex numbers out: Python code would not expect them and
// Go cannot order them.
func classOf(t types.Type) class {
	switch {
	case isBool(t):
		return classBool
	case isString(t):
		return classString
	case isInteger(t) || isFloat(t):
		return classNumber
	}
	return classOther
}

// nilable types are the ones `None` can stand for.
func nilable(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Slice, *types.Map, *types.Pointer, *types.Interface, *types.Chan, *types.Signature:
		return true
	}
	return false
}

// sized types are the ones len() measures and `in` searches.
func sized(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Slice, *types.Map:
		return true
	}
	return isString(t)
}

// target is the basic type two typed operands of one class meet in: their
// common underlying type, else float64 for numbers.
func target(a, b types.Type) types.BasicKind {
	ka, kb := basic(a).Kind(), basic(b).Kind()
	if ka == kb {
		return ka
	}
	return types.Float64
}

// representable reports whether the untyped constant v fits the basic
// type b without loss, as Go requires of a constant operand.
func representable(v constant.Value, b *types.Basic) bool {
	switch {
	case b.Info()&types.IsInteger != 0:
		v = constant.ToInt(v)
		lo, hi := intRange(b)
		return v.Kind() == constant.Int && constant.Compare(v, token.GEQ, lo) && constant.Compare(v, token.LEQ, hi)
	case b.Kind() == types.Float32:
		f, _ := constant.Float32Val(constant.ToFloat(v))
		return !math.IsInf(float64(f), 0)
	case b.Info()&types.IsFloat != 0:
		f, _ := constant.Float64Val(constant.ToFloat(v))
		return !math.IsInf(f, 0)
	}
	return true
}

// intRange is the range of an integer type, with int and uint of 64 bits:
// a 32-bit build may still reject a constant beyond 32 bits.
func intRange(b *types.Basic) (lo, hi constant.Value) {
	bits := uint(64)
	switch b.Kind() {
	case types.Int8, types.Uint8:
		bits = 8
	case types.Int16, types.Uint16:
		bits = 16
	case types.Int32, types.Uint32:
		bits = 32
	}
	one := constant.MakeInt64(1)
	if b.Info()&types.IsUnsigned != 0 {
		return constant.MakeInt64(0), constant.BinaryOp(constant.Shift(one, token.SHL, bits), token.SUB, one)
	}
	lo = constant.UnaryOp(token.SUB, constant.Shift(one, token.SHL, bits-1), 0)
	return lo, constant.BinaryOp(constant.Shift(one, token.SHL, bits-1), token.SUB, one)
}

// typeName renders a type as a user of the package sees it; untyped
// constants by their default type, as Python would name them.
func typeName(t types.Type) string {
	if isNil(t) {
		return "None"
	}
	return types.TypeString(types.Default(t), func(*types.Package) string { return "" })
}
