package impl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// DecodeFields calls fn for each key of a JSON object, in sorted key order so
// that the first error reported does not depend on map iteration.
func DecodeFields(data []byte, fn func(key string, value json.RawMessage) error) error {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return fmt.Errorf("want a JSON object: %w", err)
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := fn(k, obj[k]); err != nil {
			return fmt.Errorf("field %q: %w", k, err)
		}
	}
	return nil
}

// UnknownField is the error for a key that is not a state field.
func UnknownField(known []string) error {
	return fmt.Errorf("not a state field (fields: %s)", strings.Join(known, ", "))
}
