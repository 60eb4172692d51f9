// Package httpspec holds what Step Functions accepts in the Parameters of
// an HTTP Task (`arn:aws:states:::http:invoke`), so that the compiler,
// which checks literal parameters, and the built-in handler, which checks
// them at run time, agree.
package httpspec

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// Resource is the Task Resource of an HTTP Task.
const Resource = "arn:aws:states:::http:invoke"

// The parameter names an HTTP Task takes.
const (
	APIEndpoint      = "ApiEndpoint"
	Method           = "Method"
	Authentication   = "Authentication"
	InvocationConfig = "InvocationConfig"
	Headers          = "Headers"
	QueryParameters  = "QueryParameters"
	RequestBody      = "RequestBody"
	Transform        = "Transform"
	ConnectionArn    = "ConnectionArn"
)

// Fields are the parameters an HTTP Task knows; Required those it needs.
var (
	Fields   = []string{APIEndpoint, Method, Authentication, InvocationConfig, Headers, QueryParameters, RequestBody, Transform}
	Required = []string{APIEndpoint, Method}
)

// Methods are the HTTP methods Step Functions calls.
var Methods = []string{"GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"}

// The Transform fields and their values.
const (
	RequestBodyEncoding    = "RequestBodyEncoding"
	RequestEncodingOptions = "RequestEncodingOptions"
	ArrayFormat            = "ArrayFormat"
	EncodingNone           = "NONE"
	EncodingURL            = "URL_ENCODED"
	ArrayIndices           = "INDICES"
	ArrayRepeat            = "REPEAT"
	ArrayCommas            = "COMMAS"
	ArrayBrackets          = "BRACKETS"
)

// Encodings and ArrayFormats are the values RequestBodyEncoding and
// ArrayFormat may take; INDICES is the default array format.
var (
	Encodings    = []string{EncodingNone, EncodingURL}
	ArrayFormats = []string{ArrayIndices, ArrayRepeat, ArrayCommas, ArrayBrackets}
)

// CheckMethod reports a method Step Functions does not call.
func CheckMethod(m string) error {
	if slices.Contains(Methods, m) {
		return nil
	}
	return Unknown("Method", m, Methods)
}

// Unknown is the error of a field whose value is not one of allowed.
func Unknown(field, value string, allowed []string) error {
	return fmt.Errorf("%s %q is not one of %s", field, value, strings.Join(allowed, ", "))
}

// CheckEndpoint parses an ApiEndpoint, which must be an absolute http or
// https URL.
func CheckEndpoint(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("ApiEndpoint %q is not an absolute https:// (or http://) URL", s)
	}
	return u, nil
}

// ConnectionName is the name of the EventBridge connection a
// ConnectionArn names (arn:aws:events:REGION:ACCOUNT:connection/NAME/ID).
func ConnectionName(arn string) (string, error) {
	_, rest, ok := strings.Cut(arn, ":connection/")
	name, _, _ := strings.Cut(rest, "/")
	if !ok || !strings.HasPrefix(arn, "arn:") || name == "" {
		return "", fmt.Errorf("ConnectionArn %q is not an EventBridge connection ARN (arn:aws:events:REGION:ACCOUNT:connection/NAME/ID)", arn)
	}
	return name, nil
}

// CheckHeader reports a request header an HTTP Task may not set: the
// connection supplies Authorization, and Step Functions owns the others.
func CheckHeader(name string) error {
	lower := strings.ToLower(name)
	for _, p := range []string{"x-forwarded-", "x-amz-", "x-amzn-"} {
		if strings.HasPrefix(lower, p) {
			return fmt.Errorf("header %q is reserved: Step Functions lets no definition set %s* headers", name, p)
		}
	}
	if slices.Contains(forbiddenHeaders, lower) {
		return fmt.Errorf("header %q is reserved: Step Functions lets no definition set it", name)
	}
	return nil
}

var forbiddenHeaders = []string{
	"a-im", "accept-charset", "accept-datetime", "accept-encoding", "authorization", "cache-control",
	"connection", "content-encoding", "content-md5", "date", "expect", "forwarded", "from", "host",
	"http2-settings", "if-match", "if-modified-since", "if-none-match", "if-range", "if-unmodified-since",
	"max-forwards", "origin", "pragma", "proxy-authorization", "referer", "server", "te", "trailer",
	"transfer-encoding", "upgrade", "via", "warning",
}
