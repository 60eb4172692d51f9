package builtin

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/flowc-dev/flowc/builtin/httpspec"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
)

// Error names of HTTP Tasks, as Step Functions reports them.
const (
	// errHTTPStatusPrefix, followed by the status code, names a response
	// outside 2xx (States.Http.StatusCode.404).
	errHTTPStatusPrefix = "States.Http.StatusCode."
	// ErrHTTPSocket names a request that got no response: it timed out
	// (after HTTPTaskLimit) or could not connect.
	ErrHTTPSocket = "States.Http.Socket"
)

// httpTaskLimit is how long Step Functions lets the request of an HTTP
// Task take, whatever the state's TimeoutSeconds.
const httpTaskLimit = 60 * time.Second

// HTTPInvoke runs an HTTP Task (Resource arn:aws:states:::http:invoke) as
// Step Functions does. in is the state's effective input (Parameters or
// Arguments): ApiEndpoint, Method, Headers, QueryParameters, RequestBody,
// Transform and Authentication. The result is {ResponseBody, Headers,
// StatusCode, StatusText}, ResponseBody parsed when the response is JSON.
// A response outside 2xx fails with States.Http.StatusCode.<code> and its
// status text as the cause (AWS drops the body), a request that times out
// or cannot connect with States.Http.Socket, parameters Step Functions
// would reject with States.Runtime. When ctx ends first, the error wraps
// ctx.Err(), which the run reports as the state's timeout or its
// cancellation. A nil client is http.DefaultClient.
func HTTPInvoke(ctx context.Context, client *http.Client, in any) (any, error) {
	p, err := httpParamsOf(in)
	if err != nil {
		return nil, err
	}
	if client == nil {
		client = http.DefaultClient
	}
	cctx, cancel := context.WithTimeout(ctx, httpTaskLimit)
	defer cancel()
	req, err := p.request(cctx)
	if err != nil {
		return nil, err
	}
	return send(ctx, client, req)
}

// httpParamsOf checks the parameters, whatever Go values carry them.
func httpParamsOf(in any) (*httpParams, error) {
	plain, err := plainJSON(in)
	if err != nil {
		return nil, invalidf("the parameters are not JSON: %v", err)
	}
	p, err := parseHTTPParams(plain)
	if err != nil {
		return nil, err
	}
	if o, ok := in.(*flowcrt.Object); ok { // keep the body's member order
		p.body, _ = o.Get(httpspec.RequestBody)
	}
	return p, nil
}

// send makes the request and reads the response into the result.
func send(ctx context.Context, client *http.Client, req *http.Request) (any, error) {
	resp, err := client.Do(req)
	if err != nil {
		return nil, httpTransportError(ctx, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, httpTransportError(ctx, err)
	}
	out := httpResult(resp, data)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		// Step Functions drops the response: the cause is its status text.
		return nil, &flowcrt.Error{Name: errHTTPStatusPrefix + strconv.Itoa(resp.StatusCode), Cause: out["StatusText"].(string)}
	}
	return out, nil
}

// httpTransportError names a request that got no response: the caller's
// context (a state timeout, a cancelled run) keeps its own meaning.
func httpTransportError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("HTTP Task: %w", ctx.Err())
	}
	return &flowcrt.Error{Name: ErrHTTPSocket, Cause: err.Error()}
}

// httpResult is the result of an HTTP Task: header values are lists, as a
// header may repeat.
func httpResult(resp *http.Response, data []byte) map[string]any {
	headers := make(map[string]any, len(resp.Header))
	for name, values := range resp.Header {
		list := make([]any, len(values))
		for i, v := range values {
			list[i] = v
		}
		headers[name] = list
	}
	return map[string]any{
		"ResponseBody": responseBody(resp.Header.Get("Content-Type"), data),
		"Headers":      headers,
		"StatusCode":   float64(resp.StatusCode),
		"StatusText":   strings.TrimSpace(strings.TrimPrefix(resp.Status, strconv.Itoa(resp.StatusCode))),
	}
}

// responseBody is a JSON response's value, any other response's text.
func responseBody(contentType string, data []byte) any {
	media, _, _ := mime.ParseMediaType(contentType)
	if media == "application/json" || strings.HasSuffix(media, "+json") {
		var v any
		if json.Unmarshal(data, &v) == nil {
			return v
		}
	}
	return string(data)
}

// plainJSON is v in the JSON value form, objects as maps, whatever Go
// values a caller passes.
func plainJSON(v any) (any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	return out, json.Unmarshal(data, &out)
}

// invalidf is the error of parameters Step Functions would reject: like
// other States.Runtime errors, no retrier or catcher matches it.
func invalidf(format string, args ...any) error {
	return &flowcrt.Error{Name: flowcimpl.StatesRuntime, Cause: "HTTP Task: " + fmt.Sprintf(format, args...)}
}
