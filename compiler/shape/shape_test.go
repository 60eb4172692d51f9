package shape

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/compiler"
	"github.com/flowc-dev/flowc/golden/schemachange"
	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
)

// disk reads the files of the package as they are on disk.
type disk struct{}

func (disk) Read(path string) ([]byte, error) { return os.ReadFile(path) }
func (disk) Display(path string) string       { return path }

func (disk) GoFiles(dir string) ([]string, error) {
	return filepath.Glob(filepath.Join(dir, "*.go"))
}

type schemaChangeHandlers struct{}

func (schemaChangeHandlers) Write(context.Context, schemachange.ReviewState) (schemachange.ReviewUpdate, error) {
	return schemachange.ReviewUpdate{}, nil
}

func (schemaChangeHandlers) Release(context.Context, schemachange.ReviewState) (schemachange.ReviewUpdate, error) {
	return schemachange.ReviewUpdate{}, nil
}

// flowc breaking reads the shape of a state from Go source; a session
// reads it from the compiled types. The two agree, or flowc breaking
// would pass changes that resuming refuses.
func TestShapeMatchesRuntime(t *testing.T) {
	def := filepath.Join("..", "..", "golden", "schemachange", "review.flow.yaml")
	src, err := os.ReadFile(def)
	require.NoError(t, err)
	w, ds := compiler.Lower(def, src, compiler.Options{})
	require.False(t, ds.HasErrors(), "%v", ds)
	pkg, err := Load(filepath.Dir(def), disk{})
	require.NoError(t, err)
	static := pkg.Of(w)

	store := flowcrt.NewMemoryCheckpointer()
	_, err = schemachange.NewReview(schemaChangeHandlers{}, flowcrt.WithCheckpointer(store)).Invoke(context.Background(), "s", nil)
	var wait *flowcrt.Interrupted
	require.ErrorAs(t, err, &wait)
	cp, err := store.Load(context.Background(), "s")
	require.NoError(t, err)
	_, saved, ok := strings.Cut(cp.Schema, " ")
	require.True(t, ok, "a typed checkpoint saves its shape: %s", cp.Schema)
	var compiled flowcimpl.Shape
	require.NoError(t, json.Unmarshal([]byte(saved), &compiled))

	assert.Empty(t, flowcimpl.DiffShapes(static, compiled))
	assert.Empty(t, flowcimpl.DiffShapes(compiled, static))
	assert.Len(t, compiled.Types, len(static.Types), "the same named types: %v and %v", compiled.Types, static.Types)
}
