package picture

var errNotImplemented = &Error{Code: "D3080", Message: "not implemented yet"}

// FormatDateTime implements $fromMillis(ms, pic, tz).
func FormatDateTime(ms int64, pic, tz string) (string, error) { return "", errNotImplemented }

// ParseDateTime implements $toMillis(s, pic); ok=false means undefined.
func ParseDateTime(s, pic string) (ms int64, ok bool, err error) {
	return 0, false, errNotImplemented
}
