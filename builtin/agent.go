package builtin

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
	flowcagent "github.com/flowc-dev/flowc/runtime/impl/asl/agent"
)

// Agent runs an Agent State Language agent task whose Model names a
// model: the model (agent.Model, which the run switches to Model.Fallback
// when FallbackOn says so), Generation's sampling settings, a system prompt
// from the agent's Reasoning and the Guardrails flowc does not apply
// itself, and the effective input in the user's message (JSON; a string as
// it is). The
// reply is the result: a JSON value when it is one (alone or in a ```
// fence), else the text; under a budget, an object reports the reply's
// tokens as `_tokens`. Failures carry the agent language's error names
// (see agentErrorNames).
func (c *LLM) Agent(ctx context.Context, in any, agent flowcrt.Agent) (any, error) {
	r, err := c.exchange(ctx, agentRequest(in, agent))
	if err != nil {
		return nil, agentError(err)
	}
	content := r.Choices[0].Message.Content
	out := agentResult(content)
	if reasoningRequired(agent) && !hasReasoning(out) {
		return nil, flowcrt.NewError(flowcagent.AgentInvalidOutput, "the agent's Reasoning is required, but the reply has no {\"result\", \"reasoning\"} object: "+snippet([]byte(content)))
	}
	return withTokens(out, agent, r.Usage.TotalTokens), nil
}

// withTokens reports the tokens the endpoint counted as the result's
// `_tokens`, which budgets read, when a budget limits the task and the
// result is an object that does not report them itself.
func withTokens(out any, agent flowcrt.Agent, tokens float64) any {
	o, ok := out.(*flowcrt.Object)
	if !ok || tokens == 0 || agent.Limit == nil && agent.RunLimit == nil {
		return out
	}
	if _, own := o.Get("_tokens"); own {
		return out
	}
	return o.With("_tokens", tokens)
}

func agentRequest(in any, agent flowcrt.Agent) chatRequest {
	req := chatRequest{
		Model:    agent.Model,
		Messages: messages(agentSystem(agent), flowcrt.Messages{{Role: "user", Content: text(in)}}),
	}
	if g := agent.Generation; g != nil {
		req.Temperature, req.TopP, req.MaxTokens, req.Stop = g.Temperature, g.TopP, g.MaxTokens, g.StopSequences
	}
	return req
}

// agentSystem is the system prompt of an agent: its role, where its input
// holds what its Memory reads, then what its Reasoning and Guardrails ask
// of the answer.
func agentSystem(agent flowcrt.Agent) string {
	parts := []string{fmt.Sprintf("You are %q, an agent in a workflow. The user's message is your input: JSON, or text when the input is a string. "+
		"Reply with your result only: a JSON value when the result is structured, else plain text.", agent.Name)}
	if m := memoryPrompt(agent.Memory); m != "" {
		parts = append(parts, m)
	}
	if r, ok := agent.Reasoning.(map[string]any); ok {
		parts = append(parts, reasoningPrompt(r))
	}
	parts = append(parts, guardrailPrompts(agent.Guardrails)...)
	return strings.Join(parts, "\n\n")
}

// memoryPrompt says where the run put the keys the task's Memory reads
// (a list of keys, or {Keys, InjectAt}); "" when it reads none.
func memoryPrompt(memory any) string {
	m, _ := memory.(map[string]any)
	read, at := m["Read"], "$._memory"
	if r, ok := read.(map[string]any); ok {
		read = r["Keys"]
		if p, ok := r["InjectAt"].(string); ok {
			at = p
		}
	}
	keys, _ := read.([]any)
	if len(keys) == 0 {
		return ""
	}
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = fmt.Sprint(k)
	}
	return fmt.Sprintf("The input's %s holds what earlier steps remembered under these keys: %s.", at, strings.Join(names, ", "))
}

// reasoningFormats say what each Reasoning Format asks for.
var reasoningFormats = map[string]string{
	"chain_of_thought": "Reason step by step, each step building on the one before",
	"tree_of_thoughts": "Explore several lines of reasoning, weigh them against each other, and follow the best one",
	"reflection":       "Draft an answer, critique it and refine it, each draft and critique a step",
	"free_form":        "Explain your reasoning in whatever steps suit the problem",
}

func reasoningPrompt(r map[string]any) string {
	var b strings.Builder
	how, ok := reasoningFormats[fmt.Sprint(r["Format"])]
	if !ok {
		how = reasoningFormats["chain_of_thought"]
	}
	b.WriteString(how)
	if n, ok := r["MinSteps"].(float64); ok {
		fmt.Fprintf(&b, ", in at least %g steps", n)
	}
	if n, ok := r["MaxSteps"].(float64); ok {
		fmt.Fprintf(&b, ", in at most %g steps", n)
	}
	b.WriteString(`. Reply with one JSON object and nothing else: {"result": <your result>, "reasoning": {"steps": [{"step": 1, "thought": "..."}], "conclusion": "..."}}.`)
	return b.String()
}

// guardrailPrompts ask the model to keep the Output rules that flowc
// cannot check itself (pii, semantic); length, pattern and regex rules the
// run applies to the reply.
func guardrailPrompts(g any) []string {
	gm, _ := g.(map[string]any)
	out, _ := gm["Output"].(map[string]any)
	rules, _ := out["Rules"].([]any)
	var prompts []string
	for _, r := range rules {
		rule, _ := r.(map[string]any)
		switch rule["Type"] {
		case "pii":
			prompts = append(prompts, "Do not include personal information (names, addresses, phone numbers, e-mail addresses, identifiers) in your reply.")
		case "semantic":
			if check, ok := rule["Check"].(string); ok {
				prompts = append(prompts, "Your reply must not contain "+strings.ReplaceAll(check, "_", " ")+".")
			}
		}
	}
	return prompts
}

func reasoningRequired(agent flowcrt.Agent) bool {
	r, _ := agent.Reasoning.(map[string]any)
	return r["Required"] == true
}

func hasReasoning(out any) bool {
	o, ok := out.(*flowcrt.Object)
	if !ok {
		return false
	}
	_, result := o.Get("result")
	_, reasoning := o.Get("reasoning")
	return result && reasoning
}

// fence is a reply wrapped in one Markdown code fence.
var fence = regexp.MustCompile("(?s)^```[a-zA-Z]*\\s*\\n(.*?)\\s*```$")

// agentResult is the reply as a JSON value when it is one, else the text.
func agentResult(reply string) any {
	s := strings.TrimSpace(reply)
	if m := fence.FindStringSubmatch(s); m != nil {
		s = m[1]
	}
	if v, err := flowcrt.DecodeASLInput([]byte(s)); err == nil {
		return v
	}
	return reply
}

// agentErrorNames map the client's error names onto the agent language's:
// a rate limit and a timeout have States names, a request larger than the
// model's context is Agent.ContextOverflow, and every other failure of the
// endpoint Agent.ModelError. The cause keeps the client's name.
var agentErrorNames = map[string]string{
	errRateLimited: flowcagent.StatesRateLimitExceeded,
	errTimeout:     flowcimpl.StatesTimeout,
	errServer:      flowcagent.AgentModelError,
	errRequest:     flowcagent.AgentModelError,
	errUnreachable: flowcagent.AgentModelError,
	errBadReply:    flowcagent.AgentModelError,
	errNoModel:     flowcagent.AgentModelError,
}

// contextOverflow is how OpenAI-compatible endpoints say a request is
// larger than the model's context.
var contextOverflow = regexp.MustCompile(`context_length_exceeded|maximum context length|context window`)

func agentError(err error) error {
	var e *flowcrt.Error
	if !errors.As(err, &e) {
		return err // the run's cancellation or deadline
	}
	name, ok := agentErrorNames[e.Name]
	if !ok {
		return err
	}
	if e.Name == errRequest && contextOverflow.MatchString(e.Cause) {
		name = flowcagent.AgentContextOverflow
	}
	return flowcrt.NewError(name, e.Error())
}
