package jinja

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// template_security.py, render_secure_template: plain text stays as
// written, JSON inside {{ }} stays text (_detect_template_type,
// _auto_wrap_json_blocks, _is_json_content), and variables with names
// that are not words, or private, are left out (sanitize_template_context).
func TestRenderSecure(t *testing.T) {
	for src, want := range map[string]string{
		"no template {{ here":                             "no template {{ here",
		`answer like {{"status": "ok"}}`:                  `answer like {{"status": "ok"}}`,
		`{{ name }} sends {{ {"k": 1} }} and {{ ['a'] }}`: `Ada sends {{ {"k": 1} }} and {{ ['a'] }}`,
		"{% raw %}{{ name }}{% endraw %} is kept":         "{{ name }} is kept",
		// bad-key is left out, so the block reads bad minus key.
		"[{{ bad-key }}|{{ _hidden }}|{{ ok_1 }}]":   "[0||yes]",
		"{% if name %}{{ name | upper }}{% endif %}": "ADA",
	} {
		got, err := RenderSecure(src, map[string]any{"name": "Ada", "bad-key": "x", "_hidden": "h", "ok_1": "yes", "bad": 0, "key": 0})
		require.NoError(t, err, src)
		assert.Equal(t, want, got, src)
	}
	_, err := RenderSecure("{% for %}", nil)
	assert.Error(t, err)
}
