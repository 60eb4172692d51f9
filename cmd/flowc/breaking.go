package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/flowc-dev/flowc/compiler"
	"github.com/flowc-dev/flowc/compiler/shape"
	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
)

// cmdBreaking compares a definition with an earlier version of it, as
// `buf breaking` does for protobuf, and names every change that would
// strand a session in flight: its checkpoint names the workflow, the state
// to go on at, and holds the state's JSON (see docs/sessions.md,
// "Checkpoints across changes").
func cmdBreaking(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("breaking", stderr)
	against := fs.String("against", "", "the earlier definition `file`")
	rev := fs.String("against-rev", "", "the git `revision` whose version of the definition (and of its package's Go files) is the earlier one; the default is HEAD")
	paths, err := parseInterleaved(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(paths) != 1 || (*against != "" && *rev != "") {
		fmt.Fprintln(stderr, "usage: flowc breaking NEW [--against OLD_FILE | --against-rev GITREV]")
		return exitUsage
	}
	if *against == "" && *rev == "" {
		*rev = "HEAD"
	}
	now, err := loadVersion(paths[0], diskSource{})
	if err == nil {
		var was *version
		if *against != "" {
			was, err = loadVersion(*against, diskSource{})
		} else {
			was, err = loadVersion(paths[0], gitSource{rev: *rev})
		}
		if err == nil {
			return reportBreaking(stdout, breakingChanges(was, now))
		}
	}
	fmt.Fprintf(stderr, "flowc breaking: %v\n", err)
	return exitUsage
}

// change is one line of the report.
type change struct {
	pos      ir.Pos
	message  string
	breaking bool
}

func reportBreaking(stdout io.Writer, changes []change) int {
	code := exitOK
	for _, c := range changes {
		fmt.Fprintf(stdout, "%s: %s\n", c.pos, c.message)
		if c.breaking {
			code = exitFailed
		}
	}
	return code
}

// version is one version of a definition: its workflow, lowered but not
// checked (an old version's Go package is not on disk to check against),
// and the shape of its saved state.
type version struct {
	w     *ir.Workflow
	shape *shape.Package // typed workflows only
}

// diskSource reads the files of a version as they are on disk.
type diskSource struct{}

func (diskSource) Read(path string) ([]byte, error) { return os.ReadFile(path) }
func (diskSource) Display(path string) string       { return path }

func (diskSource) GoFiles(dir string) ([]string, error) {
	return filepath.Glob(filepath.Join(dir, "*.go"))
}

// gitSource reads path as it was at revision rev (`git show REV:./path`,
// run in the file's directory).
type gitSource struct{ rev string }

func (g gitSource) Read(path string) ([]byte, error) {
	return g.git(filepath.Dir(path), "show", g.rev+":./"+filepath.Base(path))
}

func (g gitSource) Display(path string) string { return g.rev + ":" + filepath.ToSlash(path) }

func (g gitSource) GoFiles(dir string) ([]string, error) {
	out, err := g.git(dir, "ls-tree", "-z", "--name-only", g.rev)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, name := range strings.Split(string(out), "\x00") {
		if strings.HasSuffix(name, ".go") {
			files = append(files, filepath.Join(dir, name))
		}
	}
	return files, nil
}

func (g gitSource) git(dir string, args ...string) ([]byte, error) {
	var stderr bytes.Buffer
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// loadVersion lowers the definition at path as src has it and, for a
// typed workflow, reads the named types of its package.
func loadVersion(path string, src shape.Files) (*version, error) {
	data, err := src.Read(path)
	if err != nil {
		return nil, err
	}
	w, err := lowerOnly(path, data)
	if err != nil {
		return nil, err
	}
	relabel(w, path, src.Display(path))
	v := &version{w: w}
	if w.Mode == ir.ModeTyped {
		if v.shape, err = shape.Load(filepath.Dir(path), src); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// lowerOnly turns a definition into a workflow as the compiler does, but
// without the checker, which would load the Go package as it is now.
func lowerOnly(path string, data []byte) (*ir.Workflow, error) {
	w, ds := compiler.Lower(path, data, compiler.Options{})
	if w != nil && !ds.HasErrors() {
		return w, nil
	}
	ds.Sort()
	msgs := make([]string, len(ds))
	for i, d := range ds {
		msgs[i] = d.String()
	}
	return nil, errors.New(strings.Join(msgs, "\n"))
}

// relabel makes the positions of w name its file as display.
func relabel(w *ir.Workflow, path, display string) {
	fix := func(p *ir.Pos) {
		if p.File == path {
			p.File = display
		}
	}
	fix(&w.Pos)
	for _, f := range w.Fields {
		fix(&f.Pos)
	}
	for _, s := range w.States {
		fix(&s.Pos)
	}
}

// breakingChanges lists what changed from was to now that a checkpoint
// notices: the workflow id, the states a checkpoint may name, the shape of
// the saved state.
func breakingChanges(was, now *version) []change {
	var out []change
	if was.w.ID != now.w.ID {
		out = append(out, change{pos: now.w.Pos, breaking: true,
			message: fmt.Sprintf("workflow id %q was %q: checkpoints name the workflow, and sessions in flight are refused", now.w.ID, was.w.ID)})
	}
	out = append(out, stateChanges(was.w, now.w)...)
	switch {
	case was.w.Mode == ir.ModeTyped && now.w.Mode == ir.ModeTyped:
		out = append(out, shapeChanges(was, now)...)
	case was.w.Mode != now.w.Mode:
		out = append(out, change{pos: now.w.Pos, breaking: true,
			message: fmt.Sprintf("the state was %s, now %s: a checkpoint's state no longer reads", modeName(was.w.Mode), modeName(now.w.Mode))})
	}
	return out
}

func modeName(m ir.Mode) string {
	if m == ir.ModeTyped {
		return "typed"
	}
	return "JSON"
}

// stateChanges names the states a checkpoint may name (the top-level ones,
// outside fan-outs) that are gone. One state removed while one was added
// is likely a rename: the message says so.
func stateChanges(was, now *ir.Workflow) []change {
	old, cur := resumable(was), resumable(now)
	var added []string
	for _, s := range now.States {
		if cur[s.ID] && !old[s.ID] {
			added = append(added, s.ID)
		}
	}
	var removed []*ir.State
	for _, s := range was.States {
		if old[s.ID] && !cur[s.ID] {
			removed = append(removed, s)
		}
	}
	var out []change
	for _, s := range removed {
		msg := fmt.Sprintf("state %q removed", s.ID)
		if len(removed) == 1 && len(added) == 1 {
			msg += fmt.Sprintf(", or renamed to %q", added[0])
		}
		out = append(out, change{pos: s.Pos, breaking: true, message: msg + ": a checkpoint that names it cannot go on"})
	}
	return out
}

// resumable returns the ids of the states a checkpoint of w may name, as
// the generator counts them.
func resumable(w *ir.Workflow) map[string]bool {
	ids := map[string]bool{}
	for _, s := range plan.Resumable(w) {
		ids[s.ID] = true
	}
	return ids
}

// shapeChanges compares the saved states of two typed versions, as a
// resumed session does (flowcimpl.DiffShapes), and points at the field
// each change is in: the old one for a removal, the new one otherwise.
func shapeChanges(was, now *version) []change {
	old, cur := was.shape.Of(was.w), now.shape.Of(now.w)
	var out []change
	for _, c := range flowcimpl.DiffShapes(old, cur) {
		pos := now.shape.FieldPos(now.w, c.In.New, c.In.Key)
		if strings.HasPrefix(c.Message, "removed") {
			pos = was.shape.FieldPos(was.w, c.In.Old, c.In.Key)
		}
		msg := c.String()
		if !c.Breaking {
			msg += " (not breaking)"
		}
		out = append(out, change{pos: pos, message: msg, breaking: c.Breaking})
	}
	return out
}
