package jinja

import (
	"regexp"
	"strings"
)

// RenderSecure renders a template as CodeMie's render_secure_template
// (core/template_security.py) does for its custom nodes, output not
// escaped: text with no {{ }} or {% %} block (but {% raw %} tags) is plain
// text and comes back as written, unrendered; otherwise the variables whose
// names are not word characters, or that start with an underscore, are
// left out (sanitize_template_context) and the template is rendered as
// Render does. A template that fails to parse or render is an error.
func RenderSecure(source string, vars map[string]any) (string, error) {
	if plainText(source) {
		return source, nil
	}
	safe := make(map[string]any, len(vars))
	for k, v := range vars {
		if safeKey.MatchString(k) && !strings.HasPrefix(k, "_") {
			safe[k] = v
		}
	}
	return Render(source, safe)
}

var (
	// safeKey is validate_variable_key's `^\w+$`, \w as Python reads it in
	// a str pattern: letters, digits and the underscore of any script.
	safeKey        = regexp.MustCompile(`^[\p{L}\p{N}_]+$`)
	variableBlock  = regexp.MustCompile(`(?s)\{\{(.+?)}}`)
	statementBlock = regexp.MustCompile(`(?s)\{%(.+?)%}`)
)

// plainText is _detect_template_type's "plain_text": no statement but raw
// tags, and no variable block. The engine also takes a {{ }} block that
// holds JSON for text; flowc renders it, so such a block fails to parse.
func plainText(source string) bool {
	for _, m := range statementBlock.FindAllStringSubmatch(source, -1) {
		switch strings.ToLower(strings.TrimSpace(m[1])) {
		case "raw", "endraw", "- raw", "- endraw":
		default:
			return false
		}
	}
	return !variableBlock.MatchString(source)
}
