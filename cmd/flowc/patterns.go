package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/flowc-dev/flowc/compiler"
)

// definitions expands the paths of gen and check into definition files,
// sorted: a file is itself; a directory is every definition in it and
// below it; a path with "..." is a pattern, read as the go command reads
// package patterns ("./..." is this directory and every one below it,
// "x/..." is x and below, "..." elsewhere matches any string). Directories
// are walked as the go command walks them: testdata, vendor, names that
// start with . or _, and other modules (a go.mod of their own) are left
// out. A pattern that matches no definition is a warning, as it is for go.
func definitions(paths []string, stderr io.Writer) ([]string, error) {
	var out []string
	for _, p := range paths {
		var defs []string
		var err error
		switch info, statErr := os.Stat(p); {
		case strings.Contains(p, "..."):
			if defs, err = expandPattern(p); err == nil && len(defs) == 0 {
				fmt.Fprintf(stderr, "flowc: warning: %q matched no definitions\n", p)
			}
		case statErr != nil:
			err = statErr
		case info.IsDir():
			defs, err = walkDefinitions(p, func(string) bool { return true })
		default:
			defs = []string{p}
		}
		if err != nil {
			return nil, err
		}
		out = append(out, defs...)
	}
	sort.Strings(out)
	return out, nil
}

// expandPattern walks from the pattern's directory part before its first
// "..." and keeps the definitions of the directories it matches.
func expandPattern(pattern string) ([]string, error) {
	clean := path.Clean(filepath.ToSlash(pattern))
	root := "."
	if i := strings.LastIndex(clean[:strings.Index(clean, "...")], "/"); i >= 0 {
		root = clean[:i+1]
	}
	match := patternMatcher(clean)
	defs, err := walkDefinitions(filepath.FromSlash(root), func(dir string) bool {
		return match(path.Clean(filepath.ToSlash(dir)))
	})
	if os.IsNotExist(err) {
		return nil, nil // go: a pattern whose directory is missing matches nothing
	}
	return defs, err
}

// patternMatcher reports whether a slash-separated, cleaned directory
// matches pattern: "..." matches any string, and "x/..." matches x too.
func patternMatcher(pattern string) func(string) bool {
	re := strings.ReplaceAll(regexp.QuoteMeta(pattern), `\.\.\.`, `.*`)
	if strings.HasSuffix(re, `/.*`) {
		re = strings.TrimSuffix(re, `/.*`) + `(/.*)?`
	}
	return regexp.MustCompile(`^` + re + `$`).MatchString
}

// walkDefinitions lists the definitions directly in root and the
// directories below it that the go command would walk, keeping those of
// the directories include accepts.
func walkDefinitions(root string, include func(dir string) bool) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && skipDir(p, d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if compiler.IsDefinition(d.Name()) && include(filepath.Dir(p)) {
			out = append(out, p)
		}
		return nil
	})
	return out, err
}

// skipDir: the directories the go command leaves out of "./...".
func skipDir(dir, name string) bool {
	if name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
		return true
	}
	_, err := os.Stat(filepath.Join(dir, "go.mod"))
	return err == nil
}

// oneDefinition reports whether the paths of a command that takes one
// definition (run, build, graph) are one file, and says what is wrong
// when they are not.
func oneDefinition(cmd string, paths []string, stderr io.Writer) bool {
	switch {
	case len(paths) == 1 && strings.Contains(paths[0], "..."):
		fmt.Fprintf(stderr, "flowc %s: %s is a pattern; give one definition file (patterns are for gen and check)\n", cmd, paths[0])
	case len(paths) != 1:
		fmt.Fprintf(stderr, "flowc %s: give exactly one definition file\n", cmd)
	default:
		return true
	}
	return false
}
