// Package builtin holds the handlers a program built by `flowc build` runs
// for steps it can carry out itself: LLM steps call an OpenAI-compatible
// /chat/completions endpoint, and Step Functions HTTP tasks make their request.
package builtin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// The names of the errors an LLM step fails with; retry and catch rules
// match them like any other error name.
const (
	errRateLimited = "LLM.RateLimited"     // HTTP 429
	errServer      = "LLM.ServerError"     // HTTP 5xx
	errRequest     = "LLM.RequestRejected" // any other HTTP status but 2xx: bad key, unknown model, bad request
	errTimeout     = "LLM.Timeout"         // no reply within the client's timeout
	errUnreachable = "LLM.Unreachable"     // the endpoint cannot be reached
	errBadReply    = "LLM.BadReply"        // the reply is not a chat completion, or not the answer the step needs
	errNoModel     = "LLM.NoModel"         // neither the definition nor OPENAI_MODEL names a model
)

// defaultBaseURL is the endpoint without OPENAI_BASE_URL.
const defaultBaseURL = "https://api.openai.com/v1"

// defaultTimeout bounds one request without OPENAI_TIMEOUT.
const defaultTimeout = 2 * time.Minute

// LLM is a client of an OpenAI-compatible chat completions endpoint.
type LLM struct {
	BaseURL string // up to and without /chat/completions
	Key     string // sent as a Bearer token; "" sends none
	Model   string // the model of steps whose definition names none
	Client  *http.Client
}

// FromEnv returns the client that OPENAI_BASE_URL, OPENAI_API_KEY,
// OPENAI_MODEL and OPENAI_TIMEOUT (a Go duration) describe.
func FromEnv() (*LLM, error) {
	c := &LLM{BaseURL: defaultBaseURL, Key: os.Getenv("OPENAI_API_KEY"), Model: os.Getenv("OPENAI_MODEL")}
	if u := os.Getenv("OPENAI_BASE_URL"); u != "" {
		c.BaseURL = u
	}
	timeout := defaultTimeout
	if t := os.Getenv("OPENAI_TIMEOUT"); t != "" {
		d, err := time.ParseDuration(t)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("OPENAI_TIMEOUT=%q is not a positive duration such as 30s", t)
		}
		timeout = d
	}
	c.Client = &http.Client{Timeout: timeout}
	return c, nil
}

// chatRequest is one chat completion request.
type chatRequest struct {
	Model       string    `json:"model"`
	Messages    []message `json:"messages"`
	Temperature *float64  `json:"temperature,omitempty"`
	TopP        *float64  `json:"top_p,omitempty"`
	MaxTokens   int       `json:"max_tokens,omitempty"`
	Stop        []string  `json:"stop,omitempty"`
	Tools       []tool    `json:"tools,omitempty"`
}

// message is a chat message as the endpoint reads and writes it.
type message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	ToolCalls  []toolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

// tool is a function the model may call. The definitions name tools but do
// not describe their arguments, so the parameters are any object.
type tool struct {
	Type     string       `json:"type"`
	Function toolFunction `json:"function"`
}

// toolFunction names a tool.
type toolFunction struct {
	Name       string         `json:"name"`
	Parameters map[string]any `json:"parameters"`
}

// toolCall is a call of a tool the model asks for.
type toolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// tools declares the named tools, in order.
func tools(names []string) []tool {
	var out []tool
	for _, n := range names {
		out = append(out, tool{Type: "function", Function: toolFunction{Name: n, Parameters: map[string]any{"type": "object"}}})
	}
	return out
}

// messages turns a flowc chat history into request messages.
func messages(system string, history flowcrt.Messages) []message {
	var out []message
	if system != "" {
		out = append(out, message{Role: "system", Content: system})
	}
	for _, m := range history {
		out = append(out, message{Role: m.Role, Content: m.Content})
	}
	return out
}

type reply struct {
	Choices []struct {
		Message message `json:"message"`
	} `json:"choices"`
	Usage struct {
		TotalTokens float64 `json:"total_tokens"`
	} `json:"usage"`
}

// chat sends req and returns the model's message. Its errors are
// *flowcrt.Error values named by the constants above, except the
// cancellation of ctx, which is returned as it is so that the step's own
// timeout and the run's cancellation keep their meaning.
func (c *LLM) chat(ctx context.Context, req chatRequest) (message, error) {
	r, err := c.exchange(ctx, req)
	if err != nil {
		return message{}, err
	}
	return r.Choices[0].Message, nil
}

// exchange sends req and returns the whole reply, which has a choice.
func (c *LLM) exchange(ctx context.Context, req chatRequest) (*reply, error) {
	if req.Model == "" {
		req.Model = c.Model
	}
	if req.Model == "" {
		return nil, flowcrt.NewError(errNoModel, "the step names no model; set one in the definition or OPENAI_MODEL")
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(c.BaseURL, "/")+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return nil, flowcrt.NewError(errUnreachable, err.Error())
	}
	hreq.Header.Set("Content-Type", "application/json")
	if c.Key != "" {
		hreq.Header.Set("Authorization", "Bearer "+c.Key)
	}
	resp, err := c.Client.Do(hreq)
	if err != nil {
		return nil, llmTransportError(ctx, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, llmTransportError(ctx, err)
	}
	if resp.StatusCode/100 != 2 {
		return nil, statusError(resp.StatusCode, data)
	}
	var r reply
	if err := json.Unmarshal(data, &r); err != nil || len(r.Choices) == 0 {
		return nil, flowcrt.NewError(errBadReply, "the endpoint's reply is not a chat completion: "+snippet(data))
	}
	return &r, nil
}

// llmTransportError names a request that got no reply; the run's own
// cancellation or deadline stays a context error.
func llmTransportError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var nerr net.Error
	if errors.As(err, &nerr) && nerr.Timeout() {
		return flowcrt.NewError(errTimeout, err.Error())
	}
	return flowcrt.NewError(errUnreachable, err.Error())
}

func statusError(code int, body []byte) error {
	name := errRequest
	switch {
	case code == http.StatusTooManyRequests:
		name = errRateLimited
	case code >= 500:
		name = errServer
	}
	return flowcrt.NewError(name, fmt.Sprintf("HTTP %d: %s", code, snippet(body)))
}

// snippet is the start of a reply body, for error causes.
func snippet(b []byte) string {
	const max = 200
	s := strings.TrimSpace(string(b))
	if len(s) > max {
		s = s[:max] + "..."
	}
	return s
}
