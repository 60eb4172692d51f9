package asl

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/ir"
)

// StrictJSON reports whether src, a .asl.json file, is valid JSON. yaml.v3
// reads JSON as the YAML it also is and so accepts what JSON does not,
// such as trailing commas, which AWS would reject; the error is placed at
// the offending character.
func StrictJSON(r *yamlx.Reader, src []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(src))
	var v any
	err := dec.Decode(&v)
	if err == nil {
		return true
	}
	offset := dec.InputOffset()
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		offset = syn.Offset
	}
	r.Diags.Errorf(offsetPos(r.File, src, offset), "invalid JSON: %v", err)
	return false
}

// offsetPos turns a byte offset into a line and column; encoding/json
// points just past the offending character.
func offsetPos(file string, src []byte, offset int64) ir.Pos {
	offset = max(min(offset, int64(len(src))), 1)
	before := src[:offset-1]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return ir.Pos{File: file, Line: line, Col: col}
}
