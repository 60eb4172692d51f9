// Package picture implements the XPath/XQuery F&O 3.1 picture strings that
// JSONata's $formatNumber, $formatInteger, $parseInteger, $fromMillis and
// $toMillis use.
package picture

import "fmt"

// Error is a picture-string failure carrying the JSONata error code
// (D3080..D3093 for number pictures, D3130.. for integer and date pictures).
type Error struct{ Code, Message string }

func (e *Error) Error() string { return e.Code + ": " + e.Message }

func errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}
