// Package jsregex translates JavaScript regular expressions, which JSONata
// regex literals are, into Go's RE2 syntax.
package jsregex

import (
	"errors"
	"regexp"
)

// Compile translates a JavaScript pattern with flags into a Go regexp.
func Compile(pattern, flags string) (*regexp.Regexp, error) {
	return nil, errors.New("not implemented yet")
}
