package jsonata

import (
	"encoding/base64"
	"errors"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/flowc-dev/flowc/runtime/jsonata/internal/picture"
)

// pictureErr carries a picture package failure as a JSONata error.
func pictureErr(err error) error {
	var pe *picture.Error
	if errors.As(err, &pe) {
		return &Error{Code: pe.Code, Position: -1, message: pe.Message}
	}
	return err
}

func fnFormatBase(e *evaluator, a []any, _ any) (any, error) {
	x, ok := num(a, 0)
	if !ok {
		return undefined, nil
	}
	x = roundHalfEven(x, 0)
	radix := 10.0
	if r, ok := num(a, 1); ok {
		radix = r
	}
	if radix < 2 || radix > 36 {
		return nil, valueError("D3100", -1, radix)
	}
	return strconv.FormatInt(int64(x), int(radix)), nil
}

var decimalFormatKeys = map[string]func(*picture.DecimalFormat) *string{
	"decimal-separator":  func(f *picture.DecimalFormat) *string { return &f.DecimalSeparator },
	"grouping-separator": func(f *picture.DecimalFormat) *string { return &f.GroupingSeparator },
	"exponent-separator": func(f *picture.DecimalFormat) *string { return &f.ExponentSeparator },
	"minus-sign":         func(f *picture.DecimalFormat) *string { return &f.MinusSign },
	"infinity":           func(f *picture.DecimalFormat) *string { return &f.Infinity },
	"NaN":                func(f *picture.DecimalFormat) *string { return &f.NaN },
	"percent":            func(f *picture.DecimalFormat) *string { return &f.Percent },
	"per-mille":          func(f *picture.DecimalFormat) *string { return &f.PerMille },
	"zero-digit":         func(f *picture.DecimalFormat) *string { return &f.ZeroDigit },
	"digit":              func(f *picture.DecimalFormat) *string { return &f.Digit },
	"pattern-separator":  func(f *picture.DecimalFormat) *string { return &f.PatternSeparator },
}

func fnFormatNumber(e *evaluator, a []any, _ any) (any, error) {
	x, ok := num(a, 0)
	if !ok {
		return undefined, nil
	}
	pic, _ := str(a, 1)
	df := picture.DefaultDecimalFormat()
	if opts := arg(a, 2); isObject(opts) {
		for _, k := range objectKeys(opts) {
			if field, ok := decimalFormatKeys[k]; ok {
				v, _ := objectGet(opts, k)
				if s, ok := v.(string); ok {
					*field(&df) = s
				}
			}
		}
	}
	r, err := picture.FormatNumber(x, pic, df)
	if err != nil {
		return nil, pictureErr(err)
	}
	return r, nil
}

func fnFormatInteger(e *evaluator, a []any, _ any) (any, error) {
	x, ok := num(a, 0)
	if !ok {
		return undefined, nil
	}
	pic, _ := str(a, 1)
	r, err := picture.FormatInteger(x, pic)
	if err != nil {
		return nil, pictureErr(err)
	}
	return r, nil
}

func fnParseInteger(e *evaluator, a []any, _ any) (any, error) {
	s, ok := str(a, 0)
	if !ok {
		return undefined, nil
	}
	pic, _ := str(a, 1)
	r, err := picture.ParseInteger(s, pic)
	if err != nil {
		return nil, pictureErr(err)
	}
	return r, nil
}

func formatDateTime(ms int64, pic, tz string) (any, error) {
	if pic == "" && tz == "" {
		return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z"), nil
	}
	r, err := picture.FormatDateTime(ms, pic, tz)
	if err != nil {
		return nil, pictureErr(err)
	}
	return r, nil
}

func fnToMillis(e *evaluator, a []any, _ any) (any, error) {
	s, ok := str(a, 0)
	if !ok {
		return undefined, nil
	}
	pic, _ := str(a, 1)
	ms, ok, err := picture.ParseDateTime(s, pic)
	if err != nil {
		return nil, pictureErr(err)
	}
	if !ok {
		return undefined, nil
	}
	return float64(ms), nil
}

var jsNumberRE = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?([Ee][-+]?[0-9]+)?$`)

// parseJSNumber is $number's string conversion: JSON number syntax, or a
// 0x / 0o / 0b integer.
func parseJSNumber(s string) (float64, bool) {
	if jsNumberRE.MatchString(s) {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsInf(f, 0) {
			return 0, false
		}
		return f, true
	}
	if len(s) > 2 && s[0] == '0' {
		base := map[byte]int{'x': 16, 'X': 16, 'o': 8, 'O': 8, 'b': 2, 'B': 2}[s[1]]
		if base != 0 {
			if v, err := strconv.ParseUint(s[2:], base, 64); err == nil {
				return float64(v), true
			}
		}
	}
	return 0, false
}

func base64Encode(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func base64Decode(s string) string {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		b, _ = base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
	}
	return string(b)
}

const uriUnreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()"
const uriReserved = ";,/?:@&=+$#"

func uriEncode(s, keep string) (string, bool) {
	if !utf8.ValidString(s) {
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x80 && strings.IndexByte(keep, c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte("0123456789ABCDEF"[c>>4])
		b.WriteByte("0123456789ABCDEF"[c&15])
	}
	return b.String(), true
}

func encodeURIComponent(s string) (string, bool) { return uriEncode(s, uriUnreserved) }
func encodeURI(s string) (string, bool)          { return uriEncode(s, uriUnreserved+uriReserved) }

// uriDecode is JavaScript's decodeURI(Component): escapes of characters in
// keep stay as they are; a malformed escape or invalid UTF-8 fails.
func uriDecode(s, keep string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		var raw []byte
		start := i
		for i < len(s) && s[i] == '%' {
			if i+2 >= len(s) {
				return "", false
			}
			v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
			if err != nil {
				return "", false
			}
			raw = append(raw, byte(v))
			i += 3
			if utf8.FullRune(raw) {
				break
			}
		}
		i--
		if !utf8.Valid(raw) {
			return "", false
		}
		if len(raw) == 1 && strings.IndexByte(keep, raw[0]) >= 0 {
			b.WriteString(s[start : start+3])
			continue
		}
		b.Write(raw)
	}
	return b.String(), true
}

func decodeURIComponent(s string) (string, bool) { return uriDecode(s, "") }
func decodeURI(s string) (string, bool)          { return uriDecode(s, uriReserved) }

// transform runs a |pattern|update,delete| expression on a copy of obj.
func (e *evaluator) transform(t *transformer, args []any) (any, error) {
	obj := arg(args, 0)
	if isUndef(obj) {
		return undefined, nil
	}
	if s := typeSymbol(obj); s != 'o' && s != 'a' {
		return nil, &Error{Code: "T0410", Position: t.node.pos, index: 1, Token: "transform"}
	}
	cloneFn, _ := t.frame.lookup("clone")
	if _, ok := cloneFn.(callable); !ok {
		return nil, newError("T2013", t.node.pos, "")
	}
	res, err := e.apply(cloneFn, []any{obj}, undefined, nil)
	if err != nil {
		return nil, err
	}
	m, err := e.eval(t.node.pattern, res, t.frame)
	if err != nil {
		return nil, err
	}
	for _, match := range items(m) {
		target, isObj := match.(*Object)
		upd, err := e.eval(t.node.update, match, t.frame)
		if err != nil {
			return nil, err
		}
		if !isUndef(upd) {
			if !isObject(upd) {
				return nil, valueError("T2011", t.node.update.pos, upd)
			}
			if isObj {
				for _, k := range objectKeys(upd) {
					// a copy, so that an update holding the match itself cannot make a cycle
					v, _ := objectGet(upd, k)
					target.set(k, deepClone(v))
				}
			}
		}
		if t.node.remove == nil {
			continue
		}
		del, err := e.eval(t.node.remove, match, t.frame)
		if err != nil {
			return nil, err
		}
		if isUndef(del) {
			continue
		}
		names := items(del)
		for _, n := range names {
			if !isString(n) {
				return nil, valueError("T2012", t.node.remove.pos, del)
			}
		}
		if isObj {
			for _, n := range names {
				target.del(n.(string))
			}
		}
	}
	return res, nil
}
