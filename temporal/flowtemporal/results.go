package flowtemporal

import (
	"context"
	"encoding/json"
	"time"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcasl "github.com/flowc-dev/flowc/runtime/impl/asl"
)

// ResultsCall is one call of a distributed Map's ResultWriter as it
// crosses to its activity, where the handlers run: Op is "open", "write"
// or "close" (see flowcasl.EngineResults).
type ResultsCall struct {
	Op            string
	Req           flowcrt.ResultWriteRequest
	Index         int
	Input, Output json.RawMessage // JSON keeps an object's member order
	Error, Cause  string
	Start, Stop   time.Time
}

// Results is the workflow side of flowcasl.EngineResults: each call an
// activity.
type Results struct{ Activity string }

func (r Results) OpenResults(ctx context.Context, req flowcrt.ResultWriteRequest) (own bool, err error) {
	err = Execute(ctx, r.Activity, &own, ResultsCall{Op: "open", Req: req})
	return own, err
}

func (r Results) WriteResults(ctx context.Context, req flowcrt.ResultWriteRequest, res flowcrt.ChildResult) error {
	c := ResultsCall{Op: "write", Req: req, Index: res.Index, Error: res.Error, Cause: res.Cause, Start: res.Start, Stop: res.Stop}
	var err error
	if c.Input, err = json.Marshal(res.Input); err != nil {
		return err
	}
	if c.Output, err = json.Marshal(res.Output); err != nil {
		return err
	}
	return Execute(ctx, r.Activity, nil, c)
}

func (r Results) CloseResults(ctx context.Context, req flowcrt.ResultWriteRequest) error {
	return Execute(ctx, r.Activity, nil, ResultsCall{Op: "close", Req: req})
}

// ResultsActivity serves a ResultsCall with h's ResultWriter, or with the
// built-in writer of local files.
func ResultsActivity(ctx context.Context, h any, c ResultsCall) (own bool, err error) {
	ctx = ActivityContext(ctx)
	defer Finish(ctx, &err)
	s := flowcasl.ServeResults{H: h}
	switch c.Op {
	case "open":
		return s.OpenResults(c.Req)
	case "close":
		return false, s.CloseResults(c.Req)
	}
	res := flowcrt.ChildResult{Index: c.Index, Error: c.Error, Cause: c.Cause, Start: c.Start, Stop: c.Stop}
	if res.Input, err = decodeValue(h, c.Input); err != nil {
		return false, err
	}
	if res.Output, err = decodeValue(h, c.Output); err != nil {
		return false, err
	}
	return false, s.WriteResult(ctx, c.Req, res)
}

func decodeValue(h any, raw json.RawMessage) (any, error) {
	v, err := flowcrt.DecodeASLInput(raw)
	return HandlerValue(h, v), err
}
