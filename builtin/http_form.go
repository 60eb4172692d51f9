package builtin

import (
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/flowc-dev/flowc/builtin/httpspec"
)

// formEncode URL-encodes an object as Step Functions does under
// `RequestBodyEncoding: URL_ENCODED`: members in key order, nested objects
// as a[b]=c, lists as ArrayFormat says (INDICES a[0]=x&a[1]=y, REPEAT
// a=x&a=y, COMMAS a=x,y, BRACKETS a[]=x&a[]=y), brackets and all other
// reserved characters percent-encoded.
func formEncode(obj map[string]any, arrays string) string {
	var pairs []string
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		pairs = formValue(pairs, k, obj[k], arrays)
	}
	return strings.Join(pairs, "&")
}

func formValue(pairs []string, key string, v any, arrays string) []string {
	switch v := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			pairs = formValue(pairs, key+"["+k+"]", v[k], arrays)
		}
		return pairs
	case []any:
		return formList(pairs, key, v, arrays)
	}
	s, _ := scalarText(v)
	return append(pairs, formEscape(key)+"="+formEscape(s))
}

func formList(pairs []string, key string, list []any, arrays string) []string {
	if arrays == httpspec.ArrayCommas {
		if texts, err := scalars(key, list); err == nil {
			return append(pairs, formEscape(key)+"="+formEscape(strings.Join(texts, ",")))
		}
		arrays = httpspec.ArrayIndices // a list of objects or lists has no comma form
	}
	for i, item := range list {
		k := key
		switch arrays {
		case httpspec.ArrayIndices:
			k += "[" + strconv.Itoa(i) + "]"
		case httpspec.ArrayBrackets:
			k += "[]"
		}
		pairs = formValue(pairs, k, item, arrays)
	}
	return pairs
}

// formEscape percent-encodes s, a space as %20.
func formEscape(s string) string {
	return strings.ReplaceAll(url.QueryEscape(s), "+", "%20")
}
