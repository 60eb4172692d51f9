package builtin

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/builtin/httpspec"
	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
	flowcasl "github.com/flowc-dev/flowc/runtime/impl/asl"
)

// seen is what the loopback server received.
type seen struct {
	method, path, query, body string
	header                    http.Header
}

// server answers every request with status, contentType and reply, and
// sends what it received on the returned channel.
func server(t *testing.T, status int, contentType, reply string) (*httptest.Server, <-chan seen) {
	t.Helper()
	got := make(chan seen, 10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got <- seen{r.Method, r.URL.Path, r.URL.RawQuery, string(body), r.Header.Clone()}
		if contentType != "" {
			w.Header().Set("Content-Type", contentType)
		}
		w.Header().Add("X-Trace", "a")
		w.Header().Add("X-Trace", "b")
		w.WriteHeader(status)
		io.WriteString(w, reply)
	}))
	t.Cleanup(srv.Close)
	return srv, got
}

func TestHTTPInvokeJSONResponse(t *testing.T) {
	srv, got := server(t, http.StatusOK, "application/json; charset=utf-8", `{"id": 7, "tags": ["x"]}`)
	out, err := HTTPInvoke(t.Context(), srv.Client(), map[string]any{
		"ApiEndpoint":     srv.URL + "/v1/items?fixed=1",
		"Method":          "GET",
		"Headers":         map[string]any{"X-Api-Version": 2, "Accept": "application/json"},
		"QueryParameters": map[string]any{"q": "a b&c", "page": 3, "tag": []any{"x", "y"}},
	})
	require.NoError(t, err)
	r := <-got
	assert.Equal(t, "GET", r.method)
	assert.Equal(t, "/v1/items", r.path)
	assert.Equal(t, "fixed=1&page=3&q=a+b%26c&tag=x&tag=y", r.query)
	assert.Equal(t, "2", r.header.Get("X-Api-Version"))
	assert.Equal(t, "application/json", r.header.Get("Accept"))
	assert.Empty(t, r.body)
	res := out.(map[string]any)
	assert.Equal(t, map[string]any{"id": 7.0, "tags": []any{"x"}}, res["ResponseBody"])
	assert.Equal(t, 200.0, res["StatusCode"])
	assert.Equal(t, "OK", res["StatusText"])
	assert.Equal(t, []any{"a", "b"}, res["Headers"].(map[string]any)["X-Trace"])
	assert.ElementsMatch(t, []string{"ResponseBody", "Headers", "StatusCode", "StatusText"}, keys(res))
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestHTTPInvokeTextResponse(t *testing.T) {
	srv, _ := server(t, http.StatusCreated, "text/plain", `{"not": "parsed"}`)
	out, err := HTTPInvoke(t.Context(), nil, map[string]any{"ApiEndpoint": srv.URL, "Method": "POST"})
	require.NoError(t, err)
	res := out.(map[string]any)
	assert.Equal(t, `{"not": "parsed"}`, res["ResponseBody"], "a text response stays text")
	assert.Equal(t, 201.0, res["StatusCode"])
	assert.Equal(t, "Created", res["StatusText"])
}

func TestHTTPInvokeOrderedInput(t *testing.T) {
	srv, got := server(t, http.StatusOK, "", "")
	in := flowcasl.Obj("ApiEndpoint", srv.URL, "Method", "PUT", "RequestBody", flowcasl.Obj("z", 1.0, "a", 2.0))
	_, err := HTTPInvoke(t.Context(), srv.Client(), in)
	require.NoError(t, err, "the input of an ordered handler is an Object")
	r := <-got
	assert.Equal(t, "PUT", r.method)
	assert.Equal(t, `{"z":1,"a":2}`, r.body, "members keep their order")
}

func TestHTTPInvokeMethods(t *testing.T) {
	srv, got := server(t, http.StatusNoContent, "", "")
	for _, m := range httpspec.Methods {
		_, err := HTTPInvoke(t.Context(), srv.Client(), map[string]any{"ApiEndpoint": srv.URL + "/m", "Method": m})
		require.NoError(t, err, m)
		assert.Equal(t, m, (<-got).method)
	}
}

func TestHTTPInvokeBodies(t *testing.T) {
	srv, got := server(t, http.StatusOK, "", "")
	call := func(params map[string]any) seen {
		t.Helper()
		params["ApiEndpoint"], params["Method"] = srv.URL, "POST"
		_, err := HTTPInvoke(t.Context(), srv.Client(), params)
		require.NoError(t, err)
		return <-got
	}
	r := call(map[string]any{"RequestBody": map[string]any{"b": 1, "a": []any{true, nil}}})
	assert.JSONEq(t, `{"a": [true, null], "b": 1}`, r.body)
	assert.Equal(t, "application/json; charset=UTF-8", r.header.Get("Content-Type"))

	r = call(map[string]any{"RequestBody": "raw text", "Headers": map[string]any{"Content-Type": "text/plain"}})
	assert.Equal(t, "raw text", r.body, "a string body goes as it is")
	assert.Equal(t, "text/plain", r.header.Get("Content-Type"), "the definition's Content-Type wins")

	body := map[string]any{"name": "Ann Lee", "tags": []any{"a", "b"}, "addr": map[string]any{"city": "Oslo"}}
	for format, want := range map[string]string{
		"":                     "addr%5Bcity%5D=Oslo&name=Ann%20Lee&tags%5B0%5D=a&tags%5B1%5D=b",
		httpspec.ArrayIndices:  "addr%5Bcity%5D=Oslo&name=Ann%20Lee&tags%5B0%5D=a&tags%5B1%5D=b",
		httpspec.ArrayRepeat:   "addr%5Bcity%5D=Oslo&name=Ann%20Lee&tags=a&tags=b",
		httpspec.ArrayCommas:   "addr%5Bcity%5D=Oslo&name=Ann%20Lee&tags=a%2Cb",
		httpspec.ArrayBrackets: "addr%5Bcity%5D=Oslo&name=Ann%20Lee&tags%5B%5D=a&tags%5B%5D=b",
	} {
		transform := map[string]any{"RequestBodyEncoding": "URL_ENCODED"}
		if format != "" {
			transform["RequestEncodingOptions"] = map[string]any{"ArrayFormat": format}
		}
		r := call(map[string]any{"RequestBody": body, "Transform": transform})
		assert.Equal(t, want, r.body, format)
		assert.Equal(t, "application/x-www-form-urlencoded", r.header.Get("Content-Type"))
	}
}

func TestHTTPInvokeStatusErrors(t *testing.T) {
	for _, status := range []int{http.StatusNotFound, http.StatusTooManyRequests, http.StatusServiceUnavailable} {
		srv, _ := server(t, status, "application/json", `{"message": "no"}`)
		_, err := HTTPInvoke(t.Context(), srv.Client(), map[string]any{"ApiEndpoint": srv.URL, "Method": "GET"})
		var named *flowcrt.Error
		require.ErrorAs(t, err, &named)
		assert.Equal(t, "States.Http.StatusCode."+strconv.Itoa(status), named.Name)
		assert.Equal(t, http.StatusText(status), named.Cause, "the cause is the status text; the body is dropped")
	}
}

// blocking is a server that answers only once the request is abandoned.
func blocking(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestHTTPInvokeContextDeadline(t *testing.T) {
	srv := blocking(t)
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	_, err := HTTPInvoke(ctx, srv.Client(), map[string]any{"ApiEndpoint": srv.URL, "Method": "GET"})
	require.ErrorIs(t, err, context.DeadlineExceeded, "the caller's deadline is the state's timeout, not a socket error")
	assert.False(t, errors.As(err, new(*flowcrt.Error)))
}

func TestHTTPInvokeSocketErrors(t *testing.T) {
	srv := blocking(t)
	client := &http.Client{Timeout: 50 * time.Millisecond}
	_, err := HTTPInvoke(t.Context(), client, map[string]any{"ApiEndpoint": srv.URL, "Method": "GET"})
	assert.Equal(t, ErrHTTPSocket, flowcrt.ErrorName(err), "a request that times out: %v", err)

	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	_, err = HTTPInvoke(t.Context(), nil, map[string]any{"ApiEndpoint": "http://" + addr + "/x", "Method": "GET"})
	assert.Equal(t, ErrHTTPSocket, flowcrt.ErrorName(err), "connection refused: %v", err)
	assert.Contains(t, err.Error(), "refused")
}

func TestHTTPInvokeInvalidParameters(t *testing.T) {
	ok := map[string]any{"ApiEndpoint": "http://127.0.0.1:1/", "Method": "GET"}
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for key, val := range ok {
			m[key] = val
		}
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
		return m
	}
	for _, c := range []struct {
		in   any
		want string
	}{
		{"GET", "the parameters must be an object"},
		{with("ApiEndpoint", nil), "missing parameter ApiEndpoint"},
		{with("Method", nil), "missing parameter Method"},
		{with("Method", "FETCH"), `Method "FETCH" is not one of GET, POST`},
		{with("Method", 3), "Method must be a string, got a number"},
		{with("ApiEndpoint", "ftp://host/x"), `ApiEndpoint "ftp://host/x" is not an absolute https://`},
		{with("ApiEndpoint", "/relative"), "is not an absolute"},
		{with("Headers", map[string]any{"Host": "x"}), `header "Host" is reserved`},
		{with("Headers", map[string]any{"X-Amz-Date": "x"}), `header "X-Amz-Date" is reserved`},
		{with("Headers", []any{"x"}), "Headers must be an object, got a list"},
		{with("QueryParameters", map[string]any{"a": map[string]any{}}), "QueryParameters.a must be a string, number or boolean"},
		{with("Transform", map[string]any{"RequestBodyEncoding": "GZIP"}), `RequestBodyEncoding "GZIP" is not one of NONE, URL_ENCODED`},
		{with("Transform", map[string]any{"RequestEncodingOptions": map[string]any{"ArrayFormat": "DOTS"}}), `ArrayFormat "DOTS" is not one of INDICES, REPEAT`},
		{with("Headres", map[string]any{}), `unknown parameter "Headres"`},
		{with("Authentication", map[string]any{"ConnectionArn": "stripe"}), "is not an EventBridge connection ARN"},
		{with("Authentication", map[string]any{"ConnectionArn": "arn:aws:events:r:1:connection/a/b", "Region": "x"}), "unknown parameter Authentication.Region"},
		{with("InvocationConfig", map[string]any{}), "InvocationConfig.ConnectionArn must be a string"},
	} {
		_, err := HTTPInvoke(t.Context(), nil, c.in)
		var named *flowcrt.Error
		require.ErrorAs(t, err, &named, c.want)
		assert.Equal(t, flowcimpl.StatesRuntime, named.Name, c.want)
		assert.Contains(t, named.Cause, c.want)
	}
}

func TestHTTPInvokeURLEncodedNeedsObject(t *testing.T) {
	_, err := HTTPInvoke(t.Context(), nil, map[string]any{"ApiEndpoint": "http://127.0.0.1:1/", "Method": "POST",
		"RequestBody": "a=b", "Transform": map[string]any{"RequestBodyEncoding": "URL_ENCODED"}})
	assert.Equal(t, flowcimpl.StatesRuntime, flowcrt.ErrorName(err))
	assert.ErrorContains(t, err, "a URL_ENCODED RequestBody must be an object, got a string")
}

func TestHTTPInvokeConnectionCredentials(t *testing.T) {
	srv, got := server(t, http.StatusOK, "", "")
	const arn = "arn:aws:events:us-east-1:123456789012:connection/my-api.v2/0d1f"
	call := func() (seen, error) {
		_, err := HTTPInvoke(t.Context(), srv.Client(), map[string]any{"ApiEndpoint": srv.URL, "Method": "GET",
			"Authentication": map[string]any{"ConnectionArn": arn}})
		if err != nil {
			return seen{}, err
		}
		return <-got, nil
	}
	r, err := call()
	require.NoError(t, err, "without credentials the request still goes out")
	assert.Empty(t, r.header.Get("Authorization"))

	t.Setenv("FLOWC_CONNECTION_MY_API_V2_TOKEN", "tok")
	r, err = call()
	require.NoError(t, err)
	assert.Equal(t, "Bearer tok", r.header.Get("Authorization"))

	t.Setenv("FLOWC_CONNECTION_MY_API_V2_TOKEN", "")
	t.Setenv("FLOWC_CONNECTION_MY_API_V2_USERNAME", "ann")
	t.Setenv("FLOWC_CONNECTION_MY_API_V2_PASSWORD", "pw")
	r, err = call()
	require.NoError(t, err)
	user, pass, ok := (&http.Request{Header: r.header}).BasicAuth()
	assert.True(t, ok)
	assert.Equal(t, []string{"ann", "pw"}, []string{user, pass})

	t.Setenv("FLOWC_CONNECTION_MY_API_V2_API_KEY_NAME", "X-Api-Key")
	t.Setenv("FLOWC_CONNECTION_MY_API_V2_API_KEY_VALUE", "k1")
	_, err = call()
	assert.Equal(t, errConnection, flowcrt.ErrorName(err), "two schemes at once are ambiguous")

	t.Setenv("FLOWC_CONNECTION_MY_API_V2_USERNAME", "")
	r, err = call()
	require.NoError(t, err)
	assert.Equal(t, "k1", r.header.Get("X-Api-Key"))
}
