package builtin

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/flowc-dev/flowc/builtin/httpspec"
	flowcasl "github.com/flowc-dev/flowc/runtime/impl/asl"
)

// httpParams are the checked parameters of one HTTP Task call.
type httpParams struct {
	endpoint   *url.URL
	method     string
	headers    http.Header
	query      url.Values
	body       any
	hasBody    bool
	form       bool   // Transform.RequestBodyEncoding is URL_ENCODED
	arrays     string // Transform.RequestEncodingOptions.ArrayFormat
	connection string // Authentication.ConnectionArn, "" without one
}

func parseHTTPParams(in any) (*httpParams, error) {
	m, ok := in.(map[string]any)
	if !ok {
		return nil, invalidf("the parameters must be an object with %s and %s, got %s", httpspec.APIEndpoint, httpspec.Method, jsonKind(in))
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !slices.Contains(httpspec.Fields, k) {
			return nil, invalidf("unknown parameter %q", k)
		}
	}
	p := &httpParams{headers: http.Header{}, query: url.Values{}}
	steps := []func(map[string]any) error{p.target, p.header, p.queryParams, p.transform, p.auth}
	for _, step := range steps {
		if err := step(m); err != nil {
			return nil, err
		}
	}
	p.body, p.hasBody = m[httpspec.RequestBody]
	return p, nil
}

// target reads ApiEndpoint and Method, which Step Functions requires.
func (p *httpParams) target(m map[string]any) error {
	for _, k := range httpspec.Required {
		if _, ok := m[k].(string); !ok {
			if _, present := m[k]; !present {
				return invalidf("missing parameter %s", k)
			}
			return invalidf("%s must be a string, got %s", k, jsonKind(m[k]))
		}
	}
	u, err := httpspec.CheckEndpoint(m[httpspec.APIEndpoint].(string))
	if err != nil {
		return invalidf("%v", err)
	}
	p.endpoint, p.method = u, m[httpspec.Method].(string)
	if err := httpspec.CheckMethod(p.method); err != nil {
		return invalidf("%v", err)
	}
	return nil
}

// header reads Headers: an object of names and scalar values (a list
// repeats the header).
func (p *httpParams) header(m map[string]any) error {
	h, err := object(m, httpspec.Headers)
	if err != nil || h == nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(h)) {
		if err := httpspec.CheckHeader(name); err != nil {
			return invalidf("%v", err)
		}
		values, err := scalars(httpspec.Headers+"."+name, h[name])
		if err != nil {
			return err
		}
		for _, v := range values {
			p.headers.Add(name, v)
		}
	}
	return nil
}

// queryParams reads QueryParameters: an object of names and scalar values
// (a list repeats the parameter), added to the query of ApiEndpoint.
func (p *httpParams) queryParams(m map[string]any) error {
	q, err := object(m, httpspec.QueryParameters)
	if err != nil || q == nil {
		return err
	}
	for name, v := range q {
		values, err := scalars(httpspec.QueryParameters+"."+name, v)
		if err != nil {
			return err
		}
		p.query[name] = values
	}
	return nil
}

// transform reads Transform: the body's encoding and how a URL-encoded
// body spells lists.
func (p *httpParams) transform(m map[string]any) error {
	t, err := object(m, httpspec.Transform)
	if err != nil || t == nil {
		p.arrays = httpspec.ArrayIndices
		return err
	}
	enc, err := choice(t, httpspec.RequestBodyEncoding, httpspec.Encodings, httpspec.EncodingNone)
	if err != nil {
		return err
	}
	p.form = enc == httpspec.EncodingURL
	opts, err := object(t, httpspec.RequestEncodingOptions)
	if err != nil {
		return err
	}
	p.arrays, err = choice(opts, httpspec.ArrayFormat, httpspec.ArrayFormats, httpspec.ArrayIndices)
	return err
}

// auth reads the ConnectionArn of Authentication (or of InvocationConfig,
// for private APIs).
func (p *httpParams) auth(m map[string]any) error {
	for _, field := range []string{httpspec.Authentication, httpspec.InvocationConfig} {
		a, err := object(m, field)
		if err != nil {
			return err
		}
		if a == nil {
			continue
		}
		for _, k := range slices.Sorted(maps.Keys(a)) {
			if k != httpspec.ConnectionArn {
				return invalidf("unknown parameter %s.%s", field, k)
			}
		}
		arn, ok := a[httpspec.ConnectionArn].(string)
		if !ok {
			return invalidf("%s.%s must be a string", field, httpspec.ConnectionArn)
		}
		p.connection = arn
	}
	return nil
}

// request builds the HTTP request, with the connection's credentials.
func (p *httpParams) request(ctx context.Context) (*http.Request, error) {
	u := *p.endpoint
	q := u.Query()
	maps.Copy(q, p.query)
	u.RawQuery = q.Encode()
	body, contentType, err := p.encodeBody()
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, p.method, u.String(), body)
	if err != nil {
		return nil, invalidf("%v", err)
	}
	req.Header = p.headers.Clone()
	if body != nil && req.Header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", contentType)
	}
	return req, authenticate(req, p.connection)
}

// encodeBody is RequestBody as the request sends it: a string as it is,
// another value as JSON, or an object URL-encoded under Transform.
func (p *httpParams) encodeBody() (io.Reader, string, error) {
	switch {
	case !p.hasBody:
		return nil, "", nil
	case p.form:
		obj, ok := flowcasl.Plain(p.body).(map[string]any)
		if !ok {
			return nil, "", invalidf("a URL_ENCODED RequestBody must be an object, got %s", jsonKind(p.body))
		}
		return bytes.NewBufferString(formEncode(obj, p.arrays)), "application/x-www-form-urlencoded", nil
	}
	if s, ok := p.body.(string); ok {
		return bytes.NewBufferString(s), "application/json; charset=UTF-8", nil
	}
	data, err := json.Marshal(p.body)
	if err != nil {
		return nil, "", invalidf("RequestBody: %v", err)
	}
	return bytes.NewReader(data), "application/json; charset=UTF-8", nil
}

// object is the object field of m, nil when absent.
func object(m map[string]any, field string) (map[string]any, error) {
	v, ok := m[field]
	if !ok || v == nil {
		return nil, nil
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, invalidf("%s must be an object, got %s", field, jsonKind(v))
	}
	return obj, nil
}

// choice is the string field of m, one of allowed, def when absent.
func choice(m map[string]any, field string, allowed []string, def string) (string, error) {
	v, ok := m[field]
	if !ok {
		return def, nil
	}
	s, ok := v.(string)
	if !ok {
		s = jsonText(v)
	}
	if !ok || !slices.Contains(allowed, s) {
		return "", invalidf("%v", httpspec.Unknown(field, s, allowed))
	}
	return s, nil
}

// scalars is a header or query value as text: a scalar, or a list of them.
func scalars(field string, v any) ([]string, error) {
	list, ok := v.([]any)
	if !ok {
		list = []any{v}
	}
	out := make([]string, len(list))
	for i, item := range list {
		s, ok := scalarText(item)
		if !ok {
			return nil, invalidf("%s must be a string, number or boolean (or a list of them), got %s", field, jsonKind(item))
		}
		out[i] = s
	}
	return out, nil
}

// scalarText is a string, number, boolean or null as a URL or header
// carries it.
func scalarText(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64), true
	case bool:
		return strconv.FormatBool(v), true
	case nil:
		return "", true
	}
	return "", false
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	}
	return "a number"
}

func jsonText(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}
