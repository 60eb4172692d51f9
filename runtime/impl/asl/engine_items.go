package asl

import (
	"encoding/json"
	"fmt"
)

// ItemJSON is item number n of an item reader as JSON, for an engine that
// moves items from the reader's process to the workflow's; an item that
// is not JSON fails as it does in the native Map.
func ItemJSON(n int, item any) ([]byte, error) {
	v, err := normalize(item)
	if err != nil {
		return nil, fmt.Errorf("item %d is not JSON: %w", n, err)
	}
	return json.Marshal(v)
}
