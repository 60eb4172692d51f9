package jinja

import (
	"regexp"
	"strings"
)

// RenderSecure renders a template as CodeMie's render_secure_template
// (core/template_security.py) does for its custom nodes, output not
// escaped: text with no {% %} block (but {% raw %} tags) and no {{ }}
// block but ones holding JSON is plain text and comes back as written;
// otherwise the {{ }} blocks holding JSON are kept as text
// (_auto_wrap_json_blocks), the variables whose names are not word
// characters, or that start with an underscore, are left out
// (sanitize_template_context), and the template is rendered as render
// does. A template that fails to parse or render is an error.
func RenderSecure(source string, vars map[string]any) (string, error) {
	if plainText(source) {
		return source, nil
	}
	source = variableBlock.ReplaceAllStringFunc(source, func(block string) string {
		if isJSONContent(variableBlock.FindStringSubmatch(block)[1]) {
			return "{% raw %}" + block + "{% endraw %}"
		}
		return block
	})
	safe := make(map[string]any, len(vars))
	for k, v := range vars {
		if safeKey.MatchString(k) && !strings.HasPrefix(k, "_") {
			safe[k] = v
		}
	}
	return render(source, safe)
}

var (
	// safeKey is validate_variable_key's `^\w+$`, \w as Python reads it in
	// a str pattern: letters, digits and the underscore of any script.
	safeKey        = regexp.MustCompile(`^[\p{L}\p{N}_]+$`)
	variableBlock  = regexp.MustCompile(`(?s)\{\{(.+?)}}`)
	statementBlock = regexp.MustCompile(`(?s)\{%(.+?)%}`)
)

// plainText is _detect_template_type's "plain_text": no statement but raw
// tags, and no variable block but ones holding JSON.
func plainText(source string) bool {
	for _, m := range statementBlock.FindAllStringSubmatch(source, -1) {
		switch strings.ToLower(strings.TrimSpace(m[1])) {
		case "raw", "endraw", "- raw", "- endraw":
		default:
			return false
		}
	}
	for _, m := range variableBlock.FindAllStringSubmatch(source, -1) {
		if !isJSONContent(m[1]) {
			return false
		}
	}
	return true
}

var (
	quotedPair = regexp.MustCompile(`^["'][^"']+["']\s*:\s*.+`)
	quotedKey  = regexp.MustCompile(`["'][^"']+["']\s*:`)
)

// isJSONContent is _is_json_content: what a {{ }} block holds looks like
// JSON when it is a quoted key and its value, an object with a quoted
// key, or a list with a quote in it.
func isJSONContent(content string) bool {
	s := strings.TrimSpace(content)
	switch {
	case s == "":
		return false
	case (s[0] == '"' || s[0] == '\'') && quotedPair.MatchString(s):
		return true
	case s[0] == '{':
		return quotedKey.MatchString(s)
	case s[0] == '[':
		return strings.ContainsAny(s, `"'`)
	}
	return false
}
