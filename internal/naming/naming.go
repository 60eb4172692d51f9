// Package naming derives Go identifiers from names in definitions,
// predictably: the same name always gives the same identifier.
package naming

import (
	"go/token"
	"strings"
	"unicode"
)

// initialisms are written in capitals, as golint and gopls expect.
var initialisms = map[string]bool{
	"api": true, "ascii": true, "cpu": true, "css": true, "dns": true, "eof": true,
	"html": true, "http": true, "https": true, "id": true, "ip": true, "json": true,
	"llm": true, "sql": true, "tcp": true, "tls": true, "ttl": true, "ui": true,
	"uid": true, "uri": true, "url": true, "utf8": true, "uuid": true, "xml": true,
}

// Exported turns a definition name ("fix-error", "user_id", "classify") into
// an exported Go identifier ("FixError", "UserID", "Classify"). It returns ""
// when no identifier can be made (empty, no letters, or starting with a digit).
// A name that starts with a letter without case ("日本") gets an X in front:
// Go exports only names that start with an upper-case letter.
func Exported(name string) string {
	var b strings.Builder
	for _, word := range words(name) {
		if initialisms[strings.ToLower(word)] {
			b.WriteString(strings.ToUpper(word))
			continue
		}
		r := []rune(word)
		b.WriteString(string(unicode.ToUpper(r[0])) + string(r[1:]))
	}
	id := b.String()
	if id == "" || !token.IsIdentifier(id) || !unicode.IsLetter([]rune(id)[0]) {
		return ""
	}
	if !token.IsExported(id) {
		id = "X" + id
	}
	return id
}

// Unexported is Exported with its first word in lower case ("FixError" →
// "fixError", "ID" → "id"), for unexported generated names.
func Unexported(name string) string {
	id := Exported(name)
	if id == "" {
		return ""
	}
	r := []rune(id)
	i := 0
	for i < len(r) && unicode.IsUpper(r[i]) {
		i++
	}
	switch {
	case i == len(r):
		i = len(r)
	case i > 1:
		i-- // "HTTPServer": keep the S that starts the next word
	}
	for j := 0; j < i; j++ {
		r[j] = unicode.ToLower(r[j])
	}
	out := string(r)
	if token.IsKeyword(out) {
		out += "_"
	}
	return out
}

// words splits on anything that is not a letter or digit.
func words(name string) []string {
	return strings.FieldsFunc(name, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}
