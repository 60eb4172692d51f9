package jsonata

import (
	"fmt"
	"strings"
)

// Error is a JSONata error: a compile-time syntax error or a run-time failure.
// Code is JSONata's own error code (S0201, T2001, D3030...), Position a byte
// offset into the expression (-1 when unknown), Token the operator, name or
// function involved.
type Error struct {
	Code     string
	Position int
	Token    string
	value    any
	value2   any
	index    int
	message  string
}

// Error renders JSONata's message for the code with its inserts.
func (e *Error) Error() string {
	msg := e.message
	if msg == "" {
		msg = messages[e.Code]
		if msg == "" {
			msg = "JSONata error"
		}
		msg = strings.ReplaceAll(msg, "{{token}}", e.Token)
		msg = strings.ReplaceAll(msg, "{{value}}", describe(e.value))
		msg = strings.ReplaceAll(msg, "{{value2}}", describe(e.value2))
		msg = strings.ReplaceAll(msg, "{{index}}", fmt.Sprint(e.index))
	}
	if e.Position >= 0 {
		return fmt.Sprintf("%s at position %d: %s", e.Code, e.Position, msg)
	}
	return e.Code + ": " + msg
}

func describe(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("%q", v)
	}
	s, err := stringify(v, false)
	if err != nil {
		return fmt.Sprint(v)
	}
	return s
}

func newError(code string, pos int, token string) *Error {
	return &Error{Code: code, Position: pos, Token: token}
}

func valueError(code string, pos int, v any) *Error {
	return &Error{Code: code, Position: pos, value: v}
}

// messages are JSONata's error texts by code (jsonata-js errorCodes, facts only).
var messages = map[string]string{
	"S0101": "String literal must be terminated by a matching quote",
	"S0102": "Number out of range: {{token}}",
	"S0103": "Unsupported escape sequence: \\{{token}}",
	"S0104": "The escape sequence \\u must be followed by 4 hex digits",
	"S0105": "Quoted property name must be terminated with a backquote (`)",
	"S0106": "Comment has no closing tag",
	"S0201": "Syntax error: {{token}}",
	"S0202": "Expected {{value}}, got {{token}}",
	"S0203": "Expected {{value}} before end of expression",
	"S0204": "Unknown operator: {{token}}",
	"S0205": "Unexpected token: {{token}}",
	"S0207": "Unexpected end of expression",
	"S0208": "Parameter {{value}} of function definition must be a variable name (start with $)",
	"S0209": "A predicate cannot follow a grouping expression in a step",
	"S0210": "Each step can only have one grouping expression",
	"S0211": "The symbol {{token}} cannot be used as a unary operator",
	"S0212": "The left side of := must be a variable name (start with $)",
	"S0213": "The literal value {{value}} cannot be used as a step within a path expression",
	"S0214": "The right side of {{token}} must be a variable name (start with $)",
	"S0215": "A context variable binding must precede any predicates on a step",
	"S0216": "A context variable binding must precede the 'order-by' clause on a step",
	"S0217": "The object representing the 'parent' cannot be derived from this expression",
	"S0301": "Empty regular expressions are not allowed",
	"S0303": "Invalid regular expression: {{token}}",
	"S0302": "No terminating / in regular expression",
	"S0402": "Choice groups containing parameterized types are not supported",
	"S0401": "Type parameters can only be applied to functions and arrays",
	"S0500": "Attempted to evaluate an expression containing syntax error(s)",
	"T0410": "Argument {{index}} of function {{token}} does not match function signature",
	"T0411": "Context value is not a compatible type with argument {{index}} of function {{token}}",
	"T0412": "Argument {{index}} of function {{token}} must be an array of {{value2}}",
	"D1001": "Number out of range: {{value}}",
	"D1002": "Cannot negate a non-numeric value: {{value}}",
	"T1003": "Key in object structure must evaluate to a string; got: {{value}}",
	"D1004": "Regular expression matches zero length string",
	"T1005": "Attempted to invoke a non-function. Did you mean ${{token}}?",
	"T1006": "Attempted to invoke a non-function",
	"T1007": "Attempted to partially apply a non-function. Did you mean ${{token}}?",
	"T1008": "Attempted to partially apply a non-function",
	"D1009": "Multiple key definitions evaluate to same key: {{value}}",
	"T1010": "The matcher function argument passed to function {{token}} does not return the correct object structure",
	"T2001": "The left side of the {{token}} operator must evaluate to a number",
	"T2002": "The right side of the {{token}} operator must evaluate to a number",
	"T2003": "The left side of the range operator (..) must evaluate to an integer",
	"T2004": "The right side of the range operator (..) must evaluate to an integer",
	"D2005": "The left side of := must be a variable name (start with $)",
	"T2006": "The right side of the function application operator ~> must be a function",
	"T2007": "Type mismatch when comparing values {{value}} and {{value2}} in order-by clause",
	"T2008": "The expressions within an order-by clause must evaluate to numeric or string values",
	"T2009": "The values {{value}} and {{value2}} either side of operator {{token}} must be of the same data type",
	"T2010": "The expressions either side of operator {{token}} must evaluate to numeric or string values",
	"T2011": "The insert/update clause of the transform expression must evaluate to an object: {{value}}",
	"T2012": "The delete clause of the transform expression must evaluate to a string or array of strings: {{value}}",
	"T2013": "The transform expression clones the input object using the $clone() function.  This has been overridden in the current scope by a non-function.",
	"D2014": "The size of the sequence allocated by the range operator (..) must not exceed 1e7.  Attempted to allocate {{value}}.",
	"D3001": "Attempting to invoke string function on Infinity or NaN",
	"D3010": "Second argument of replace function cannot be an empty string",
	"D3011": "Fourth argument of replace function must evaluate to a positive number",
	"D3012": "Attempted to replace a matched string with a non-string value",
	"D3020": "Third argument of split function must evaluate to a positive number",
	"D3030": "Unable to cast value to a number: {{value}}",
	"D3040": "Third argument of match function must evaluate to a positive number",
	"D3050": "The second argument of reduce function must be a function with at least two arguments",
	"D3060": "The sqrt function cannot be applied to a negative number: {{value}}",
	"D3061": "The power function has resulted in a value that cannot be represented as a JSON number: base={{value}}, exponent={{value2}}",
	"D3070": "The single argument form of the sort function can only be applied to an array of strings or an array of numbers.  Use the second argument to specify a comparison function",
	"D3100": "The radix of the formatBase function must be between 2 and 36.  It was given {{value}}",
	"D3110": "The argument of the toMillis function must be an ISO 8601 formatted timestamp. Given {{value}}",
	"D3120": "Syntax error in expression passed to function eval: {{value}}",
	"D3121": "Dynamic error evaluating the expression passed to function eval: {{value}}",
	"D3137": "{{value}}",
	"D3138": "The $single() function expected exactly 1 matching result.  Instead it matched more.",
	"D3139": "The $single() function expected exactly 1 matching result.  Instead it matched 0.",
	"D3140": "Malformed URL passed to ${{token}}(): {{value}}",
	"D3141": "{{value}}",
	"U1001": "Stack overflow error: Check for non-terminating recursive function.  Consider rewriting as tail-recursive.",
	"U1002": "Expression evaluation timeout: Check for infinite loop",
	"D3150": "The algorithm of the hash function must be one of MD5, SHA-1, SHA-256, SHA-384, SHA-512. It was given {{value}}",
	"D3151": "The size argument of the partition function must be a positive integer. It was given {{value}}",
	"D3152": "The step argument of the range function must not be zero",
	"D3153": "The argument of the parse function is not valid JSON: {{value}}",
	"D3154": "The range function would build more than 1000 items: {{value}}",
}
