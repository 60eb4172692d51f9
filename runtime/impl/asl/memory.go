package asl

import (
	"context"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// Memory is a state's Memory block.
type Memory struct {
	Reads  []MemoryRead
	Writes []MemoryWrite
}

// MemoryRead injects {"key": value} of its stored keys at InjectAt (nil:
// $._memory) into the state's effective input; when none is stored,
// Default (when set) is injected instead.
type MemoryRead struct {
	Keys     []string
	InjectAt *JSONPath
	Default  *Template
}

// MemoryWrite stores Value, evaluated on the state's output, under Key.
type MemoryWrite struct {
	Key   string
	Value *Template
}

var memoryAt = &JSONPath{Src: "$._memory", Segs: []PathSeg{{Kind: segField, Name: "_memory"}}}

func (x *ASLExec) memory() impl.MemoryStore {
	if x.cfg.Memory != nil {
		return x.cfg.Memory
	}
	return x.spend.Memory()
}

// Recalling wraps a state's body with its memory reads.
func (x *ASLExec) Recalling(m *Memory, body stateBody) stateBody {
	return func(ctx context.Context, cx *aslContext, in any) (any, error) {
		for _, r := range m.Reads {
			var err error
			if in, err = x.recall(ctx, cx, &r, in); err != nil {
				return nil, err
			}
		}
		return body(ctx, cx, in)
	}
}

func (x *ASLExec) recall(ctx context.Context, cx *aslContext, r *MemoryRead, in any) (any, error) {
	got := newObject(len(r.Keys))
	for _, k := range r.Keys {
		v, ok, err := x.memory().Recall(ctx, k)
		if err != nil {
			return nil, &impl.Error{Name: statesTaskFailed, Cause: "memory: " + err.Error()}
		}
		if ok {
			if v, err = normalize(v); err != nil {
				return nil, &impl.Error{Name: statesTaskFailed, Cause: "memory: " + err.Error()}
			}
			got.set(k, v)
		}
	}
	var value any = got
	if got.Len() == 0 && r.Default != nil {
		var err error
		if value, err = r.Default.Eval(in, cx); err != nil {
			return nil, err
		}
	}
	at := r.InjectAt
	if at == nil {
		at = memoryAt
	}
	return setPath(in, at.Segs, value, at.Src)
}

// Remember stores the memory writes of a state that went well, each value
// evaluated on the state's output.
func (x *ASLExec) Remember(ctx context.Context, m *Memory, cx *aslContext, out any) error {
	for _, w := range m.Writes {
		v, err := w.Value.Eval(out, cx)
		if err != nil {
			return err
		}
		if err := x.memory().Remember(ctx, w.Key, Plain(v)); err != nil {
			return &impl.Error{Name: statesTaskFailed, Cause: "memory: " + err.Error()}
		}
	}
	return nil
}
