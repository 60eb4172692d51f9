package jsonata

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"math"
	"math/rand/v2"
	"strings"
)

// The functions AWS Step Functions adds to JSONata (Step Functions developer
// guide, "JSONata functions provided by Step Functions").
func defineAWSFuncs() {
	def("partition", "<an:a>", 2, func(e *evaluator, a []any, _ any) (any, error) {
		vs := items(arg(a, 0))
		size, _ := num(a, 1)
		if size < 1 || !isInteger(size) {
			return nil, valueError("D3151", -1, size)
		}
		n := int(size)
		out := make([]any, 0, (len(vs)+n-1)/n)
		for i := 0; i < len(vs); i += n {
			out = append(out, append([]any(nil), vs[i:min(i+n, len(vs))]...))
		}
		return out, nil
	})
	def("range", "<nnn?:a>", 3, func(e *evaluator, a []any, _ any) (any, error) {
		start, _ := num(a, 0)
		end, _ := num(a, 1)
		step := 1.0
		if s, ok := num(a, 2); ok {
			step = s
		}
		if step == 0 {
			return nil, newError("D3152", -1, "range")
		}
		if n := math.Floor((end-start)/step) + 1; n > maxRangeItems {
			return nil, valueError("D3154", -1, n)
		}
		out := []any{}
		for x := start; (step > 0 && x <= end) || (step < 0 && x >= end); x += step {
			out = append(out, x)
		}
		return out, nil
	})
	def("hash", "<s-s:s>", 2, func(e *evaluator, a []any, _ any) (any, error) {
		s, ok := str(a, 0)
		if !ok {
			return undefined, nil
		}
		alg, _ := str(a, 1)
		var h hash.Hash
		switch alg {
		case "MD5":
			h = md5.New()
		case "SHA-1":
			h = sha1.New()
		case "SHA-256":
			h = sha256.New()
		case "SHA-384":
			h = sha512.New384()
		case "SHA-512":
			h = sha512.New()
		default:
			return nil, valueError("D3150", -1, alg)
		}
		h.Write([]byte(s))
		return hex.EncodeToString(h.Sum(nil)), nil
	})
	def("uuid", "<:s>", 0, func(e *evaluator, a []any, _ any) (any, error) {
		var b [16]byte
		for i := range b {
			b[i] = byte(e.rand() * 256)
		}
		b[6] = b[6]&0x0f | 0x40
		b[8] = b[8]&0x3f | 0x80
		return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:]), nil
	})
	def("parse", "<s-:j>", 1, func(e *evaluator, a []any, _ any) (any, error) {
		s, ok := str(a, 0)
		if !ok {
			return undefined, nil
		}
		v, err := parseJSON(s)
		if err != nil {
			return nil, valueError("D3153", -1, s)
		}
		return v, nil
	})
}

// maxRangeItems is the longest array $range builds, the limit Step Functions
// sets for States.ArrayRange, which $range replaces.
const maxRangeItems = 1000

// seededRandom is $random(seed): the same seed always gives the same number.
func seededRandom(seed float64) float64 {
	r := rand.New(rand.NewPCG(math.Float64bits(seed), 0x9e3779b97f4a7c15))
	return r.Float64()
}

// parseJSON decodes JSON text keeping the order of object keys.
func parseJSON(s string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, fmt.Errorf("trailing data")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch x := t.(type) {
	case json.Delim:
		switch x {
		case '{':
			o := newObject(4)
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				o.set(k.(string), v)
			}
			_, err := dec.Token()
			return o, err
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			_, err := dec.Token()
			return arr, err
		}
	case json.Number:
		return normalize(x), nil
	}
	return t, nil
}
