package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The package's tests share one program cache of their own, so that they
// neither fill nor read the user's; a test about the cache takes a fresh one.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "flowc-cache-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv(cacheEnv, dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// What `flowc run -x` says it did (docs/cli.md#the-program-cache): how
// many programs it built with the go tool and how many it took from the cache.
func traced(stderr string) (built, cached int) {
	return strings.Count(stderr, " go build -o "), strings.Count(stderr, "# cached ")
}

func runTraced(t *testing.T, args ...string) (stdout string, built, cached int) {
	t.Helper()
	code, stdout, stderr := cli(t, "", append([]string{"run", "-x"}, args...)...)
	require.Equal(t, exitOK, code, "stderr:\n%s", stderr)
	built, cached = traced(stderr)
	return stdout, built, cached
}

func cacheEntries(t *testing.T, cache string) []string {
	t.Helper()
	entries, err := filepath.Glob(filepath.Join(cache, strings.Repeat("[0-9a-f]", 64)))
	require.NoError(t, err)
	return entries
}

// Answering a stop runs the programs the session's first run built (the
// store's and the workflow's); the answer, the session and the mocks are
// the programs' flags, not part of what they are built from. --no-cache
// and FLOWCCACHE=off build again and leave the cache as it was.
func TestRunCachesPrograms(t *testing.T) {
	if testing.Short() {
		t.Skip("flowc run builds with the go tool")
	}
	cache := t.TempDir()
	t.Setenv(cacheEnv, cache)
	dir := t.TempDir()
	def := writeFile(t, dir, "publish.flow.yaml", publishDef)
	mocks := writeFile(t, dir, "mocks.json", publishMocks)
	session := []string{def, "--mock-config", mocks, "--test-case", "t", "--checkpoint-db", filepath.Join(dir, "s.db"), "--session", "doc"}

	out, built, cached := runTraced(t, session...)
	assert.Contains(t, out, `"status":"INTERRUPTED"`)
	assert.Equal(t, [2]int{2, 0}, [2]int{built, cached}, "the first run builds the store and the workflow")
	require.Len(t, cacheEntries(t, cache), 2)

	out, built, cached = runTraced(t, append(session, "--decision", "approve")...)
	assert.Equal(t, `{"status":"SUCCEEDED","output":{"draft":"v1","log":["published"]}}`+"\n", out)
	assert.Equal(t, [2]int{0, 2}, [2]int{built, cached}, "the answer builds nothing")

	out, built, cached = runTraced(t, def, "--mock-config", mocks, "--test-case", "t", "--no-cache")
	assert.Contains(t, out, `"status":"INTERRUPTED"`)
	assert.Equal(t, [2]int{1, 0}, [2]int{built, cached}, "--no-cache builds the workflow")
	assert.Len(t, cacheEntries(t, cache), 2, "--no-cache leaves the cache alone")

	t.Setenv(cacheEnv, "off")
	_, built, cached = runTraced(t, def, "--mock-config", mocks, "--test-case", "t")
	assert.Equal(t, [2]int{1, 0}, [2]int{built, cached}, "FLOWCCACHE=off builds the workflow")
	assert.Len(t, cacheEntries(t, cache), 2)
}

// An edited definition is a new program: the run builds it and behaves
// as the new definition says, not as the cached program would.
func TestRunRebuildsEditedDefinition(t *testing.T) {
	if testing.Short() {
		t.Skip("flowc run builds with the go tool")
	}
	t.Setenv(cacheEnv, t.TempDir())
	dir := t.TempDir()
	def := writeFile(t, dir, "publish.flow.yaml", publishDef)
	mocks := writeFile(t, dir, "mocks.json", publishMocks)
	args := []string{def, "--mock-config", mocks, "--test-case", "t"}

	out, built, _ := runTraced(t, args...)
	assert.Contains(t, out, `"prompt":"Publish the draft?"`)
	assert.Equal(t, 1, built)
	writeFile(t, dir, "publish.flow.yaml", strings.Replace(publishDef, "Publish the draft?", "Ship the draft?", 1))
	out, built, cached := runTraced(t, args...)
	assert.Contains(t, out, `"prompt":"Ship the draft?"`)
	assert.Equal(t, [2]int{1, 0}, [2]int{built, cached})
}

// tallyDef folds each update into its state with a Go function of the
// definition's package (language.md, reducers), which `flowc run` builds in.
const tallyDef = `workflow: Tally
state:
  score: {type: int, reducer: combine}
states:
  - id: score
    end: true
`

const tallyMocks = `{
  "StateMachines": {"Tally": {"TestCases": {"t": {"score": "Score"}}}},
  "MockedResponses": {"Score": {"0": {"Return": {"score": 5}}}}
}`

// A handler file edited in place, even to the same size, is a new program.
func TestRunRebuildsEditedPackageFile(t *testing.T) {
	if testing.Short() {
		t.Skip("flowc run builds with the go tool")
	}
	t.Setenv(cacheEnv, t.TempDir())
	dir := t.TempDir()
	writeFile(t, dir, "go.mod", "module tally\n\ngo 1.26\n")
	def := writeFile(t, dir, "tally.flow.yaml", tallyDef)
	mocks := writeFile(t, dir, "mocks.json", tallyMocks)
	input := writeFile(t, dir, "in.json", `{"score": 2}`)
	args := []string{def, "--mock-config", mocks, "--test-case", "t", "--input", input}

	writeFile(t, dir, "combine.go", "package tally\n\nfunc combine(old, new int) int { return old + new }\n")
	out, built, _ := runTraced(t, args...)
	assert.Equal(t, `{"status":"SUCCEEDED","output":{"score":7}}`+"\n", out)
	assert.Equal(t, 1, built)
	writeFile(t, dir, "combine.go", "package tally\n\nfunc combine(old, new int) int { return old * new }\n")
	out, built, cached := runTraced(t, args...)
	assert.Equal(t, `{"status":"SUCCEEDED","output":{"score":10}}`+"\n", out)
	assert.Equal(t, [2]int{1, 0}, [2]int{built, cached})
}

// Two runs of the same program at once, on an empty cache, both succeed
// and leave one entry: each builds into a directory of its own, and the
// one that publishes second runs the first one's program.
func TestRunConcurrentSameProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("flowc run builds with the go tool")
	}
	cache := t.TempDir()
	t.Setenv(cacheEnv, cache)
	dir := t.TempDir()
	def := writeFile(t, dir, "publish.flow.yaml", publishDef)
	mocks := writeFile(t, dir, "mocks.json", publishMocks)
	var wg sync.WaitGroup
	results := make([]string, 2)
	for i := range results {
		wg.Go(func() {
			code, stdout, stderr := cli(t, "", "run", def, "--mock-config", mocks, "--test-case", "t")
			results[i] = fmt.Sprintf("%d %s%s", code, stdout, stderr)
		})
	}
	wg.Wait()
	for _, r := range results {
		assert.True(t, strings.HasPrefix(r, `0 {"status":"INTERRUPTED"`), r)
	}
	assert.Len(t, cacheEntries(t, cache), 1)
	assert.Empty(t, tempEntries(t, cache), "no build is left half done")
}

func tempEntries(t *testing.T, cache string) []string {
	t.Helper()
	temps, err := filepath.Glob(filepath.Join(cache, cacheTempPrefix+"*"))
	require.NoError(t, err)
	return temps
}

// A cached program that no longer matches its checksum (a full disk cut
// it short, something overwrote it) is built again, never run: here it is
// replaced by a script of the same size that would print its own result.
func TestRunRebuildsCorruptEntry(t *testing.T) {
	if testing.Short() {
		t.Skip("flowc run builds with the go tool")
	}
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in program is a shell script")
	}
	cache := t.TempDir()
	t.Setenv(cacheEnv, cache)
	dir := t.TempDir()
	def := writeFile(t, dir, "publish.flow.yaml", publishDef)
	mocks := writeFile(t, dir, "mocks.json", publishMocks)
	args := []string{def, "--mock-config", mocks, "--test-case", "t"}
	want, _, _ := runTraced(t, args...)
	entries := cacheEntries(t, cache)
	require.Len(t, entries, 1)
	prog := filepath.Join(entries[0], entryProgram)
	info, err := os.Stat(prog)
	require.NoError(t, err)

	script := "#!/bin/sh\necho '{\"status\":\"CORRUPT\"}'\nexit 0\n"
	require.NoError(t, os.WriteFile(prog, []byte(script+strings.Repeat("\n", int(info.Size())-len(script))), 0o755))
	out, built, cached := runTraced(t, args...)
	assert.Equal(t, want, out)
	assert.Equal(t, [2]int{1, 0}, [2]int{built, cached})

	require.NoError(t, os.Truncate(prog, info.Size()/2))
	out, built, cached = runTraced(t, args...)
	assert.Equal(t, want, out)
	assert.Equal(t, [2]int{1, 0}, [2]int{built, cached})
	assert.Len(t, cacheEntries(t, cache), 1)
}

// The cache keeps the cacheMaxEntries entries used last, none unused for
// cacheMaxAge, and removes builds abandoned for a day but not one under way.
func TestCacheTrim(t *testing.T) {
	cache := t.TempDir()
	now := time.Now()
	entry := func(i int, age time.Duration) string {
		path := filepath.Join(cache, fmt.Sprintf("%064x", i))
		require.NoError(t, os.Mkdir(path, 0o755))
		require.NoError(t, os.Chtimes(path, now.Add(-age), now.Add(-age)))
		return path
	}
	var kept []string
	for i := range cacheMaxEntries {
		kept = append(kept, entry(i, time.Duration(i)*time.Minute))
	}
	old := entry(100, time.Hour)               // the 21st used last
	stale := entry(101, cacheMaxAge+time.Hour) // unused too long
	abandoned := filepath.Join(cache, cacheTempPrefix+"1")
	current := filepath.Join(cache, cacheTempPrefix+"2")
	for _, d := range []string{abandoned, current} {
		require.NoError(t, os.Mkdir(d, 0o755))
	}
	require.NoError(t, os.Chtimes(abandoned, now.Add(-cacheTempAge-time.Hour), now.Add(-cacheTempAge-time.Hour)))

	builder{cache: cache}.trim()
	assert.ElementsMatch(t, kept, cacheEntries(t, cache))
	assert.NoDirExists(t, old)
	assert.NoDirExists(t, stale)
	assert.Equal(t, []string{current}, tempEntries(t, cache))
}

// A flow state's child is compiled into the parent's program
// (language.md, flow states): editing only the child is a new program.
func TestRunRebuildsEditedChild(t *testing.T) {
	if testing.Short() {
		t.Skip("flowc run builds with the go tool")
	}
	t.Setenv(cacheEnv, t.TempDir())
	dir := t.TempDir()
	parent := writeFile(t, dir, "parent.flow.yaml", parentDef)
	writeFile(t, dir, "child.flow.yaml", childDef)
	mocks := writeFile(t, dir, "mocks.json", `{
  "StateMachines": {"Parent": {"TestCases": {"t": {"step": "One", "again": "Ten", "report": "None"}}}},
  "MockedResponses": {"One": {"0": {"Return": {"n": 1}}}, "Ten": {"0": {"Return": {"n": 10}}}, "None": {"0": {"Return": {}}}}
}`)
	args := []string{parent, "--mock-config", mocks, "--test-case", "t"}

	out, built, _ := runTraced(t, args...)
	assert.Equal(t, `{"status":"SUCCEEDED","output":{"n":1}}`+"\n", out)
	assert.Equal(t, 1, built)
	writeFile(t, dir, "child.flow.yaml", childDef+"    next: {state_id: again}\n  - id: again\n")
	out, built, cached := runTraced(t, args...)
	assert.Equal(t, `{"status":"SUCCEEDED","output":{"n":11}}`+"\n", out)
	assert.Equal(t, [2]int{1, 0}, [2]int{built, cached})
}
