package impl

import (
	"context"
	"sync"
)

// MemoryStore keeps what the Memory blocks of agent tasks and Pass states
// write, for the reads of later states and, when the store outlives a run
// (WithMemory), of later runs.
type MemoryStore interface {
	Recall(ctx context.Context, key string) (value any, found bool, err error)
	Remember(ctx context.Context, key string, value any) error
}

// WithMemory makes the workflow keep its memory in s; without it each run
// has a memory of its own.
func WithMemory(s MemoryStore) Option { return func(c *Config) { c.Memory = s } }

// NewMemory returns an in-process MemoryStore, safe for concurrent use.
func NewMemory() MemoryStore { return &mapMemory{values: map[string]any{}} }

type mapMemory struct {
	mu     sync.Mutex
	values map[string]any
}

func (m *mapMemory) Recall(_ context.Context, key string) (any, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.values[key]
	return v, ok, nil
}

func (m *mapMemory) Remember(_ context.Context, key string, value any) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.values[key] = value
	return nil
}
