// Package sharedtest reads the developers' guide that lies beside the
// repository (../shared): the conformance suites and corpora that some
// tests compare flowc against. A clone of the repository alone lacks it,
// and those tests are skipped there; CI has it, so under CI (CI=true) a
// missing suite fails the test instead of passing it unseen.
package sharedtest

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// ReadFile returns the file at path (a path into ../shared, relative to
// the test's directory). A missing file skips the test, or fails it under
// CI; any other error fails it.
func ReadFile(tb testing.TB, path string) []byte {
	tb.Helper()
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		absent(tb, path)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// Glob returns the files that match pattern, as filepath.Glob does; none
// at all means the suite is missing.
func Glob(tb testing.TB, pattern string) []string {
	tb.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil {
		tb.Fatal(err)
	}
	if len(files) == 0 {
		absent(tb, pattern)
	}
	return files
}

func absent(tb testing.TB, path string) {
	tb.Helper()
	if ci, _ := strconv.ParseBool(os.Getenv("CI")); ci {
		tb.Fatalf("%s is missing: CI runs this suite, so ../shared must be beside the repository", path)
	}
	tb.Skipf("%s is missing: ../shared is not beside the repository", path)
}
