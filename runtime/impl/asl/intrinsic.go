package asl

import (
	"crypto/md5"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"hash"
	"math"
	mrand "math/rand/v2"
	"strings"
	"unicode/utf8"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// Intrinsic is a compiled intrinsic function call, such as
// States.Format('{}', $.name): the function and its argument trees.
type Intrinsic struct {
	Name string
	Fn   func(args []any) (any, error)
	Args []IntrinsicArg
	// Run is set, in place of Fn, for the functions that read the run
	// (States.CurrentCost and friends).
	Run func(cx *aslContext, args []any) (any, error)
}

// IntrinsicArg is a literal Value, a Path or a nested Call.
type IntrinsicArg struct {
	Value any
	Path  *JSONPath
	Call  *Intrinsic
}

// Eval evaluates the arguments, then calls the function. Any failure is a
// States.Runtime error naming the function.
func (c *Intrinsic) Eval(in any, cx *aslContext) (any, error) {
	args := make([]any, len(c.Args))
	for i, a := range c.Args {
		var err error
		switch {
		case a.Path != nil && c.Name == "States.Coalesce":
			args[i], _ = a.Path.Lookup(in, cx) // a missing value is null to it
		case a.Path != nil:
			args[i], err = a.Path.Get(in, cx)
		case a.Call != nil:
			args[i], err = a.Call.Eval(in, cx)
		default:
			args[i] = a.Value
		}
		if err != nil {
			return nil, err
		}
	}
	var v any
	var err error
	switch run := runIntrinsics[c.Name]; {
	case c.Run != nil:
		v, err = c.Run(cx, args)
	case run != nil && cx != nil:
		v, err = run(cx, args)
	default:
		v, err = c.Fn(args)
	}
	if err != nil {
		return nil, runtimeErrorf("%s: %v", c.Name, err)
	}
	return v, nil
}

// Argument checks shared by the functions. The compiler has checked the
// count and the literal arguments; these catch values read by paths.

func argString(args []any, i int) (string, error) {
	s, ok := args[i].(string)
	if !ok {
		return "", fmt.Errorf("argument %d must be a string, got %s", i+1, typeName(args[i]))
	}
	return s, nil
}

func argArray(args []any, i int) ([]any, error) {
	a, ok := args[i].([]any)
	if !ok {
		return nil, fmt.Errorf("argument %d must be an array, got %s", i+1, typeName(args[i]))
	}
	return a, nil
}

func argNumber(args []any, i int) (float64, error) {
	n, ok := args[i].(float64)
	if !ok {
		return 0, fmt.Errorf("argument %d must be a number, got %s", i+1, typeName(args[i]))
	}
	return n, nil
}

func argInt(args []any, i int) (int, error) {
	n, err := argNumber(args, i)
	if err == nil && (n != math.Trunc(n) || math.Abs(n) > 1<<53) {
		err = fmt.Errorf("argument %d must be a whole number, got %v", i+1, n)
	}
	return int(n), err
}

func argObject(args []any, i int) (*Object, error) {
	o, ok := args[i].(*Object)
	if !ok {
		return nil, fmt.Errorf("argument %d must be an object, got %s", i+1, typeName(args[i]))
	}
	return o, nil
}

// arity guards the functions against argument counts the compiler did not
// see, when one is called directly.
func arity(args []any, lo, hi int) error {
	if len(args) < lo || (hi >= 0 && len(args) > hi) {
		return fmt.Errorf("wrong number of arguments: %d", len(args))
	}
	return nil
}

// StatesFormat is States.Format with a template read at run time: each {}
// takes the next value.
func StatesFormat(args []any) (any, error) {
	if err := arity(args, 1, -1); err != nil {
		return nil, err
	}
	t, err := argString(args, 0)
	if err != nil {
		return nil, err
	}
	return format(strings.Split(t, "{}"), args[1:])
}

// FormatPieces is States.Format with a literal template, cut by the
// compiler at its placeholders (escapes resolved).
func FormatPieces(pieces ...string) func(args []any) (any, error) {
	return func(args []any) (any, error) {
		if err := arity(args, 1, -1); err != nil {
			return nil, err
		}
		return format(pieces, args[1:])
	}
}

func format(pieces []string, values []any) (any, error) {
	if len(pieces)-1 != len(values) {
		return nil, fmt.Errorf("the template has %d placeholders for %d values", len(pieces)-1, len(values))
	}
	var b strings.Builder
	for i, p := range pieces {
		b.WriteString(p)
		if i < len(values) {
			switch v := values[i].(type) {
			case []any, *Object:
				return nil, fmt.Errorf("argument %d must be a string, number, boolean or null, got %s", i+2, typeName(v))
			}
			b.WriteString(formatValue(values[i]))
		}
	}
	return b.String(), nil
}

// StatesStringToJson is States.StringToJson.
func StatesStringToJson(args []any) (any, error) {
	s, err := argString(args, 0)
	if err != nil {
		return nil, err
	}
	return decodeJSON([]byte(s))
}

// StatesJsonToString is States.JsonToString.
func StatesJsonToString(args []any) (any, error) {
	return impl.JSONText(args[0]), nil
}

// StatesArray is States.Array.
func StatesArray(args []any) (any, error) {
	return append([]any{}, args...), nil
}

// StatesArrayPartition is States.ArrayPartition.
func StatesArrayPartition(args []any) (any, error) {
	a, err := argArray(args, 0)
	if err != nil {
		return nil, err
	}
	size, err := argInt(args, 1)
	if err == nil && size <= 0 {
		err = fmt.Errorf("the chunk size must be positive, got %d", size)
	}
	if err != nil {
		return nil, err
	}
	out := []any{}
	for i := 0; i < len(a); i += size {
		out = append(out, append([]any{}, a[i:min(i+size, len(a))]...))
	}
	return out, nil
}

// StatesArrayContains is States.ArrayContains.
func StatesArrayContains(args []any) (any, error) {
	a, err := argArray(args, 0)
	if err != nil {
		return nil, err
	}
	for _, item := range a {
		if equalJSON(item, args[1]) {
			return true, nil
		}
	}
	return false, nil
}

// maxRange is the longest array States.ArrayRange may build.
const maxRange = 1000

// StatesArrayRange is States.ArrayRange: start to end inclusive by step.
func StatesArrayRange(args []any) (any, error) {
	var n [3]int
	for i := range n {
		v, err := argInt(args, i)
		if err != nil {
			return nil, err
		}
		n[i] = v
	}
	start, end, step := n[0], n[1], n[2]
	if step == 0 {
		return nil, fmt.Errorf("the step cannot be 0")
	}
	slots := (end - start) / step
	if (end-start)*step < 0 {
		return []any{}, nil
	}
	if slots+1 > maxRange {
		return nil, fmt.Errorf("the range would have more than %d items", maxRange)
	}
	out := make([]any, 0, slots+1)
	for i := 0; i <= slots; i++ {
		out = append(out, float64(start+i*step))
	}
	return out, nil
}

// StatesArrayGetItem is States.ArrayGetItem; an index past the end gives
// null.
func StatesArrayGetItem(args []any) (any, error) {
	a, err := argArray(args, 0)
	if err != nil {
		return nil, err
	}
	i, err := argInt(args, 1)
	if err != nil {
		return nil, err
	}
	if i < 0 || i >= len(a) {
		return nil, nil
	}
	return a[i], nil
}

// StatesArrayLength is States.ArrayLength.
func StatesArrayLength(args []any) (any, error) {
	a, err := argArray(args, 0)
	if err != nil {
		return nil, err
	}
	return float64(len(a)), nil
}

// StatesArrayUnique is States.ArrayUnique: first occurrences, in order.
func StatesArrayUnique(args []any) (any, error) {
	a, err := argArray(args, 0)
	if err != nil {
		return nil, err
	}
	out := []any{}
	for _, item := range a {
		dup := false
		for _, seen := range out {
			if equalJSON(item, seen) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, item)
		}
	}
	return out, nil
}

// maxEncoded bounds the strings the Base64 and Hash functions take.
const maxEncoded = 10000

// StatesBase64Encode is States.Base64Encode of the string's UTF-8 bytes.
func StatesBase64Encode(args []any) (any, error) {
	s, err := argString(args, 0)
	if err == nil && utf8.RuneCountInString(s) > maxEncoded {
		err = fmt.Errorf("the string is longer than %d characters", maxEncoded)
	}
	if err != nil {
		return nil, err
	}
	return base64.StdEncoding.EncodeToString([]byte(s)), nil
}

// StatesBase64Decode is States.Base64Decode.
func StatesBase64Decode(args []any) (any, error) {
	s, err := argString(args, 0)
	if err == nil && len(s) > maxEncoded {
		err = fmt.Errorf("the string is longer than %d characters", maxEncoded)
	}
	if err != nil {
		return nil, err
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("invalid Base64: %v", err)
	}
	return string(b), nil
}

var hashes = map[string]func() hash.Hash{
	"MD5": md5.New, "SHA-1": sha1.New, "SHA-256": sha256.New, "SHA-384": sha512.New384, "SHA-512": sha512.New,
}

// StatesHash is States.Hash: the hex digest of the string's UTF-8 bytes.
func StatesHash(args []any) (any, error) {
	s, err := argString(args, 0)
	if err != nil {
		return nil, err
	}
	alg, err := argString(args, 1)
	if err != nil {
		return nil, err
	}
	newHash, ok := hashes[alg]
	if !ok {
		return nil, fmt.Errorf("unknown hash algorithm %q; use MD5, SHA-1, SHA-256, SHA-384 or SHA-512", alg)
	}
	if utf8.RuneCountInString(s) > maxEncoded {
		return nil, fmt.Errorf("the string is longer than %d characters", maxEncoded)
	}
	h := newHash()
	h.Write([]byte(s))
	return hex.EncodeToString(h.Sum(nil)), nil
}

// StatesJsonMerge is States.JsonMerge: the members of the second object
// win; with deep set, objects present in both are merged in turn.
func StatesJsonMerge(args []any) (any, error) {
	a, err := argObject(args, 0)
	if err != nil {
		return nil, err
	}
	b, err := argObject(args, 1)
	if err != nil {
		return nil, err
	}
	deep, ok := args[2].(bool)
	if !ok {
		return nil, fmt.Errorf("argument 3 must be a boolean, got %s", typeName(args[2]))
	}
	return mergeObjects(a, b, deep), nil
}

func mergeObjects(a, b *Object, deep bool) *Object {
	out := newObject(a.Len() + b.Len())
	out.members = append(out.members, a.members...)
	for _, m := range b.members {
		v := m.value
		if old, ok := a.Get(m.key); ok && deep {
			oa, aok := old.(*Object)
			ob, bok := v.(*Object)
			if aok && bok {
				v = mergeObjects(oa, ob, true)
			}
		}
		out.set(m.key, v)
	}
	return out
}

// StatesMathRandom is States.MathRandom: a whole number from start to end,
// both included; with a seed the number is the same on every run.
func StatesMathRandom(args []any) (any, error) { return mathRandom(args, mrand.Float64) }

// StatesMathAdd is States.MathAdd: each argument is rounded to the nearest
// whole number first, as in Step Functions.
func StatesMathAdd(args []any) (any, error) {
	sum := 0.0
	for i := range args { // the Agent State Language adds any number of terms
		n, err := argNumber(args, i)
		if err != nil {
			return nil, err
		}
		sum += math.Floor(n + 0.5)
	}
	return sum, nil
}

// StatesStringSplit is States.StringSplit: the second argument is a set of
// delimiter characters, and empty pieces are dropped.
func StatesStringSplit(args []any) (any, error) {
	s, err := argString(args, 0)
	if err != nil {
		return nil, err
	}
	seps, err := argString(args, 1)
	if err != nil {
		return nil, err
	}
	out := []any{}
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(seps, r) }) {
		out = append(out, f)
	}
	return out, nil
}

// StatesUUID is States.UUID: a random version 4 UUID.
func StatesUUID(args []any) (any, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:], nil
}
