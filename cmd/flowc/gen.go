package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// cmdGen generates every definition first and writes only when all of them
// compiled, so a failure never leaves a half-updated tree.
func cmdGen(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("gen", stderr)
	outDir := fs.String("o", "", "write generated files to `DIR` instead of beside each definition")
	check := fs.Bool("check", false, "write nothing; exit 1 naming each generated file that is stale or missing")
	target := fs.String("target", targetNative, "`engine` to generate for: native, or temporal (also writes <name>_temporal.go)")
	paths, err := parseInterleaved(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(paths) == 0 {
		fmt.Fprintln(stderr, "flowc gen: no definitions given")
		return exitUsage
	}
	defs, err := definitions(paths, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "flowc gen: %v\n", err)
		return exitUsage
	}
	results, ok := compileAll(defs, *outDir, stderr)
	if ok {
		results, ok = withTarget(*target, results, stderr)
	}
	if !ok {
		return exitFailed
	}
	if *check {
		return checkFresh(results, stdout)
	}
	for _, c := range results {
		for _, o := range c.outputs() {
			if err := writeIfChanged(o.path, o.content); err != nil {
				fmt.Fprintf(stderr, "flowc gen: %v\n", err)
				return exitUsage
			}
		}
	}
	return exitOK
}

func compileAll(defs []string, outDir string, stderr io.Writer) ([]compiled, bool) {
	var results []compiled
	ok := true
	seen := map[string]string{}
	for _, def := range defs {
		c, good := compileFile(def, outDir, stderr)
		if !good {
			ok = false
			continue
		}
		if prev, dup := seen[c.out]; dup {
			fmt.Fprintf(stderr, "flowc gen: %s and %s both generate %s\n", prev, def, c.out)
			ok = false
			continue
		}
		seen[c.out] = def
		results = append(results, c)
	}
	return results, ok
}

// checkFresh reports generated files that differ from what gen would write.
func checkFresh(results []compiled, stdout io.Writer) int {
	code := exitOK
	for _, c := range results {
		for _, o := range c.outputs() {
			old, err := os.ReadFile(o.path)
			switch {
			case err != nil:
				fmt.Fprintf(stdout, "%s: missing (generate it from %s)\n", o.path, c.def)
				code = exitFailed
			case !bytes.Equal(old, o.content):
				fmt.Fprintf(stdout, "%s: stale (%s changed since it was generated)\n", o.path, changed(c))
				code = exitFailed
			}
		}
	}
	return code
}

// changed names the files a stale output depends on: the definition and
// the child flows it runs, whose states are compiled into the same file.
func changed(c compiled) string {
	var children []string
	for _, sf := range c.wf.AllSubflows() {
		children = append(children, sf.Source)
	}
	if len(children) == 0 {
		return c.def
	}
	return c.def + " or its child flows " + strings.Join(children, ", ")
}

// writeIfChanged leaves an up-to-date file alone (its mtime too) and
// replaces a changed one atomically.
func writeIfChanged(path string, content []byte) error {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, content) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".flowc-*.go.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(content); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
