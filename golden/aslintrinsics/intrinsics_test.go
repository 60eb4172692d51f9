package aslintrinsics

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// run runs the machine on input, a JSON object, and returns its output.
func run(t *testing.T, input string) map[string]any {
	t.Helper()
	var in map[string]any
	require.NoError(t, json.Unmarshal([]byte(input), &in))
	out, err := NewIntrinsics(struct{}{}).Run(context.Background(), in)
	require.NoError(t, err)
	return out.(map[string]any)
}

// examples is the input of every intrinsic's example: those of the AWS
// intrinsic functions page, and of docs/asl.md for the Agent State
// Language's own.
const examples = `{
	"template": "Hello, my name is {}.", "name": "Arnav",
	"escapedJsonString": "{\"foo\": \"bar\"}",
	"json1": {"a": {"a1": 1, "a2": 2}, "b": 2}, "json2": {"a": {"a3": 1, "a4": 2}, "c": 3},
	"inputArray": [1, 2, 3, 4, 5, 6, 7, 8, 9], "lookingFor": 5,
	"repeated": [1, 2, 3, 3, 3, 3, 3, 3, 4],
	"data": "Data to encode", "base64": "RGF0YSB0byBlbmNvZGU=",
	"hashData": "input data", "algorithm": "SHA-1",
	"a": 3, "b": 2.5,
	"user": {"id": 1, "name": "n", "password": "p"},
	"s": "m", "n": 10, "when": "2016-03-14T01:59:00Z", "v": true
}`

// The outputs the AWS Step Functions developer guide gives for each
// example of its intrinsic functions page (States.Format, StringToJson,
// JsonMerge, ArrayPartition, ArrayContains, ArrayUnique, Base64Encode,
// Base64Decode, Hash).
func TestAWSIntrinsics(t *testing.T) {
	aws := run(t, examples)["aws"].(map[string]any)
	assert.Equal(t, "Hello, my name is Arnav.", aws["format"])
	assert.Equal(t, map[string]any{"foo": "bar"}, aws["stringToJson"])
	assert.Equal(t, map[string]any{"a": map[string]any{"a3": 1.0, "a4": 2.0}, "b": 2.0, "c": 3.0}, aws["jsonMerge"], "a shallow merge: json2's a replaces json1's")
	assert.Equal(t, []any{[]any{1.0, 2.0, 3.0, 4.0}, []any{5.0, 6.0, 7.0, 8.0}, []any{9.0}}, aws["arrayPartition"])
	assert.Equal(t, true, aws["arrayContains"])
	assert.Equal(t, []any{1.0, 2.0, 3.0, 4.0}, aws["arrayUnique"])
	assert.Equal(t, "RGF0YSB0byBlbmNvZGU=", aws["base64Encode"])
	assert.Equal(t, "Data to encode", aws["base64Decode"])
	assert.Equal(t, "aaff4a450a104cd177d28d18d74485e8cae074b7", aws["hash"])
}

// The Agent State Language's intrinsics, as docs/asl.md describes them:
// MathSubtract and MathMultiply of two numbers, a deep Merge, Pick and
// Omit of members, and the estimates of four bytes a token (TokenCount,
// Truncate, which marks its cut with "...") priced at 15 USD a million
// tokens (EstimateCost).
func TestAgentIntrinsics(t *testing.T) {
	agent := run(t, examples)["agent"].(map[string]any)
	assert.Equal(t, 0.5, agent["mathSubtract"])
	assert.Equal(t, 7.5, agent["mathMultiply"])
	assert.Equal(t, map[string]any{"a": map[string]any{"a1": 1.0, "a2": 2.0, "a3": 1.0, "a4": 2.0}, "b": 2.0, "c": 3.0}, agent["merge"], "a deep merge keeps both a's members")
	assert.Equal(t, map[string]any{"id": 1.0, "name": "n"}, agent["pick"])
	assert.Equal(t, map[string]any{"id": 1.0, "name": "n"}, agent["omit"])
	assert.Equal(t, 4.0, agent["tokenCount"], "14 bytes")
	assert.Equal(t, "Data...", agent["truncate"])
	assert.InDelta(t, 4*15.0/1e6, agent["estimateCost"], 1e-12)
}

// The Choice comparisons of the States Language specification (Choice
// Rules): strings compare by their code points, timestamps as instants,
// and the type tests hold for a value of their type only.
func TestComparisons(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  map[string]any
	}{
		{"equal", `{"s": "m", "n": 10, "when": "2016-03-14T01:59:00Z", "v": true}`, map[string]any{
			"StringLessThan": false, "StringLessThanEquals": true, "StringGreaterThan": false, "StringGreaterThanEquals": true,
			"NumericLessThanEquals": true, "TimestampEquals": true, "TimestampLessThan": false, "TimestampLessThanEquals": true,
			"TimestampGreaterThan": false, "TimestampGreaterThanEquals": true,
			"IsNull": false, "IsBoolean": true, "IsString": false, "IsTimestamp": false,
		}},
		{"less", `{"s": "M", "n": 9.5, "when": "2016-03-14T01:58:59Z", "v": null}`, map[string]any{
			"StringLessThan": true, "StringLessThanEquals": true, "StringGreaterThan": false, "StringGreaterThanEquals": false,
			"NumericLessThanEquals": true, "TimestampEquals": false, "TimestampLessThan": true, "TimestampLessThanEquals": true,
			"TimestampGreaterThan": false, "TimestampGreaterThanEquals": false,
			"IsNull": true, "IsBoolean": false, "IsString": false, "IsTimestamp": false,
		}},
		{"greater", `{"s": "n", "n": 11, "when": "2016-03-14T02:00:00Z", "v": "2016-03-14T01:59:00Z"}`, map[string]any{
			"StringLessThan": false, "StringLessThanEquals": false, "StringGreaterThan": true, "StringGreaterThanEquals": true,
			"NumericLessThanEquals": false, "TimestampEquals": false, "TimestampLessThan": false, "TimestampLessThanEquals": false,
			"TimestampGreaterThan": true, "TimestampGreaterThanEquals": true,
			"IsNull": false, "IsBoolean": false, "IsString": true, "IsTimestamp": true,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in map[string]any
			require.NoError(t, json.Unmarshal([]byte(examples), &in))
			require.NoError(t, json.Unmarshal([]byte(tt.input), &in))
			data, err := json.Marshal(in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, run(t, string(data))["cmp"])
		})
	}
}
