package picture

var errNotImplemented = &Error{Code: "D3080", Message: "not implemented yet"}

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
