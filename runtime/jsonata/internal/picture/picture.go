// Package picture implements the XPath/XQuery F&O 3.1 picture strings that
// JSONata's $formatNumber, $formatInteger, $parseInteger, $fromMillis and
// $toMillis use.
package picture

// Error is a picture-string failure carrying the JSONata error code.
type Error struct{ Code, Message string }

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// DecimalFormat holds the decimal-format properties of F&O 3.1 section 4.7.1.
type DecimalFormat struct {
	DecimalSeparator, GroupingSeparator, ExponentSeparator, MinusSign, Infinity, NaN,
	Percent, PerMille, ZeroDigit, Digit, PatternSeparator string
}

// DefaultDecimalFormat returns the unnamed default decimal format.
func DefaultDecimalFormat() DecimalFormat {
	return DecimalFormat{
		DecimalSeparator: ".", GroupingSeparator: ",", ExponentSeparator: "e",
		MinusSign: "-", Infinity: "Infinity", NaN: "NaN", Percent: "%",
		PerMille: "\u2030", ZeroDigit: "0", Digit: "#", PatternSeparator: ";",
	}
}

var errNotImplemented = &Error{Code: "D3080", Message: "not implemented yet"}

// FormatNumber implements $formatNumber.
func FormatNumber(v float64, pic string, f DecimalFormat) (string, error) {
	return "", errNotImplemented
}

// FormatInteger implements $formatInteger.
func FormatInteger(v float64, pic string) (string, error) { return "", errNotImplemented }

// ParseInteger implements $parseInteger.
func ParseInteger(s, pic string) (float64, error) { return 0, errNotImplemented }

// FormatDateTime implements $fromMillis(ms, pic, tz).
func FormatDateTime(ms int64, pic, tz string) (string, error) { return "", errNotImplemented }

// ParseDateTime implements $toMillis(s, pic); ok=false means undefined.
func ParseDateTime(s, pic string) (ms int64, ok bool, err error) {
	return 0, false, errNotImplemented
}
