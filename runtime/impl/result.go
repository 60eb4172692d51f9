package impl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// ResultLine returns the line that `flowc run` prints for a finished run,
// without a newline:
//
//	{"status":"SUCCEEDED","output":<output as JSON>}
//	{"status":"FAILED","error":"<ErrorName(err)>","cause":"<cause>"}
//	{"status":"INTERRUPTED","prompt":"<prompt>","options":[<options>]}
//	{"status":"WAITING","state":"<state>","task_token":"<token>"}
//
// INTERRUPTED is for an *Interrupted err: an approval waits for a
// decision; WAITING for a *TaskTokenWait: a Task state waits for a
// success or failure sent for its task token.
// The cause is the Cause of the *Error in err's chain, if there is one, and
// err.Error() otherwise. An output that cannot be encoded fails the run.
func ResultLine(output any, err error) []byte {
	if wait, ok := errors.AsType[*Interrupted](err); ok {
		return interruptedLine(wait)
	}
	if wait, ok := errors.AsType[*TaskTokenWait](err); ok {
		return waitingLine(wait)
	}
	if err != nil {
		return failedLine(err)
	}
	out, err := EncodeJSON(output)
	if err != nil {
		return failedLine(fmt.Errorf("flowc: encoding the output: %w", err))
	}
	line := append([]byte(`{"status":"SUCCEEDED","output":`), out...)
	return append(line, '}')
}

func failedLine(err error) []byte {
	cause := err.Error()
	if e, ok := errors.AsType[*Error](err); ok {
		cause = e.Cause
	}
	// The fields are in the documented order; strings always encode.
	line, _ := EncodeJSON(struct {
		Status string `json:"status"`
		Error  string `json:"error"`
		Cause  string `json:"cause"`
	}{"FAILED", ErrorName(err), cause})
	return line
}

// JSONText is v's JSON as EncodeJSON writes it (as JavaScript's
// JSON.stringify does), or, for a value that has none, fmt.Sprint's text:
// for messages and rules, which read text and must not fail.
func JSONText(v any) string {
	out, err := EncodeJSON(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(out)
}

// EncodeJSON is json.Marshal without HTML escaping, as every dialect
// encodes values: results are read by people and programs, never embedded
// in HTML.
func EncodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
