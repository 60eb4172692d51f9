package main

import (
	"cmp"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/flowc-dev/flowc"
	"github.com/flowc-dev/flowc/codegen/program"
	"github.com/flowc-dev/flowc/ir"
)

// The temporary module `flowc build` builds: the workflow package, the main
// package and flowc's packages copied from flowc itself.
const (
	buildModule   = "flowcbuild"
	buildWfImport = buildModule + "/wf"
)

func cmdBuild(args []string, _ io.Reader, _, stderr io.Writer) int {
	flags := newFlagSet("build", stderr)
	out := flags.String("o", "", "the program `file` to write (default: the definition's name, in the current directory)")
	handlersPkg := flags.String("handlers", "", "the Go `package` (a directory or import path) whose Handlers() implements the handlers no built-in covers")
	target := flags.String("target", targetNative, "the engine the program runs on: `native`, or temporal (a Temporal server; see docs/build.md)")
	paths, err := parseInterleaved(flags, args)
	if err != nil {
		return exitUsage
	}
	if !oneDefinition("build", paths, stderr) {
		return exitUsage
	}
	var support string // the Temporal module's source, for the Temporal target
	if *target != targetNative {
		if support, err = temporalBuildModule(*target); err != nil {
			fmt.Fprintf(stderr, "flowc build: %v\n", err)
			return exitUsage
		}
	}
	def := paths[0]
	if *out == "" {
		*out = programName(def)
	}
	c, ok := compileFile(def, "", stderr)
	if !ok {
		return exitFailed
	}
	var user *userPackage
	if *handlersPkg != "" {
		user, err = loadHandlers(*handlersPkg, def, c.file)
		if err == nil && support != "" {
			err = checkTemporalFile(c, user)
		}
		if err != nil {
			fmt.Fprintf(stderr, "flowc build: --handlers %s: %v\n", *handlersPkg, err)
			return exitFailed
		}
	}
	g := guardSignals() // a terminal's interrupt ends go build, and flowc cleans up
	defer g.stop()
	dir, err := os.MkdirTemp("", "flowc-build-")
	if err != nil {
		fmt.Fprintf(stderr, "flowc build: %v\n", err)
		return exitUsage
	}
	defer os.RemoveAll(dir)
	if code := writeBuildModule(dir, def, c, user, support, stderr); code != exitOK {
		return code
	}
	bin, err := filepath.Abs(*out)
	if err == nil {
		err = goBuild(dir, bin, buildEnv(dir, goWork(user) != "" || support != "")...)
	}
	if err != nil {
		fmt.Fprintf(stderr, "flowc build: building the program failed: %v\n", err)
		return exitUsage
	}
	return exitOK
}

// programName is the definition's file name up to its first dot.
func programName(def string) string {
	name, _, _ := strings.Cut(filepath.Base(def), ".")
	return name
}

// writeBuildModule writes the program's module into dir, or lists the
// handlers that nothing implements and returns exitFailed. With the source
// of the Temporal module (support) the program runs on Temporal.
func writeBuildModule(dir, def string, c compiled, user *userPackage, support string, stderr io.Writer) int {
	var uh *program.UserHandlers
	wfImport := buildWfImport
	if user != nil {
		uh = &user.handlers
		if user.wfImport != "" {
			wfImport = user.wfImport
		}
	}
	mainsOf := program.BuildMain
	if support != "" {
		mainsOf = program.BuildTemporalMain
	}
	mains, missing, err := mainsOf(c.wf, wfImport, uh)
	if err != nil {
		fmt.Fprintf(stderr, "flowc build: %v\n", err)
		return exitUsage
	}
	if len(missing) > 0 {
		reportMissing(stderr, c.wf.Workflow, missing, user != nil)
		return exitFailed
	}
	files, err := buildFiles(dir, def, c, wfImport == buildWfImport)
	if err != nil {
		fmt.Fprintf(stderr, "flowc build: %v\n", err)
		return exitUsage
	}
	flowcDir := "./flowc"
	if user != nil && user.module == flowc.Module {
		flowcDir = user.moduleDir // the handlers live in flowc itself: build against it
	}
	files[filepath.Join(dir, "go.mod")] = []byte(flowc.BuildGoMod(buildModule, flowcDir))
	files[filepath.Join(dir, "go.sum")] = flowc.GoSum()
	files[filepath.Join(dir, "flowc", "go.mod")] = []byte(flowc.GoMod())
	if work := goWork(user); work != "" {
		files[filepath.Join(dir, "go.work")] = []byte(work)
	}
	for _, f := range mains {
		files[filepath.Join(dir, f.Name)] = f.Content
	}
	if support != "" {
		err = addTemporal(files, dir, c, user, support)
	}
	if err == nil {
		err = writeFiles(files)
	}
	if err != nil {
		fmt.Fprintf(stderr, "flowc build: %v\n", err)
		return exitUsage
	}
	return exitOK
}

// buildFiles are the workflow's package, unless the program uses the
// user's own (ownWorkflow false), and flowc's source.
func buildFiles(dir, def string, c compiled, ownWorkflow bool) (map[string][]byte, error) {
	files := map[string][]byte{}
	var err error
	if ownWorkflow {
		files, err = workflowFiles(dir, def, c)
	}
	for _, src := range []fs.FS{flowc.RuntimeSource(), flowc.BuildSource()} {
		if err == nil {
			err = addSource(files, filepath.Join(dir, "flowc"), src)
		}
	}
	return files, err
}

func reportMissing(stderr io.Writer, w *ir.Workflow, missing []program.Missing, haveUser bool) {
	where := "give them in a package with --handlers (see docs/build.md)"
	if haveUser {
		where = "the --handlers package's Handlers() value lacks them"
	}
	fmt.Fprintf(stderr, "flowc build: %s needs handlers that no built-in covers; %s:\n", w.Source, where)
	type line struct {
		need   program.Need
		method string
	}
	var lines []line
	for _, m := range missing {
		for _, n := range m.Needs {
			lines = append(lines, line{n, m.Method})
		}
	}
	slices.SortStableFunc(lines, func(a, b line) int {
		pa, pb := a.need.Pos, b.need.Pos
		return cmp.Or(cmp.Compare(pa.File, pb.File), cmp.Compare(pa.Line, pb.Line), cmp.Compare(pa.Col, pb.Col))
	})
	for _, l := range lines {
		p := l.need.Pos
		fmt.Fprintf(stderr, "%s:%d:%d: %s needs handler method %s, which no built-in runs\n", p.File, p.Line, p.Col, l.need.What, l.method)
	}
}

// goWork puts the module of the user's handlers beside the program's in a
// workspace, so that it builds with its own requirements; "" when there
// is none, or when it is flowc's own module.
func goWork(user *userPackage) string {
	if user == nil || user.module == flowc.Module {
		return ""
	}
	return fmt.Sprintf("go %s\n\nuse .\nuse %q\n\nreplace %s => ./flowc\n", flowc.GoVersion(), filepath.ToSlash(user.moduleDir), flowc.Module)
}

// buildEnv builds a static program with the user's Go settings (GOPROXY
// among them, for modules the module cache lacks), and the program's
// go.work (with workspace) or none; -trimpath keeps the temporary
// directory's name out of the program.
func buildEnv(dir string, workspace bool) []string {
	work := "off"
	if workspace {
		work = filepath.Join(dir, "go.work")
	}
	return []string{"GOWORK=" + work, "GOFLAGS=" + strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=readonly -trimpath"), "CGO_ENABLED=0"}
}

// goBuild builds the main package of dir into bin, with env added to
// flowc's own environment.
func goBuild(dir, bin string, env ...string) error {
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = dir
	build.Env = append(os.Environ(), env...)
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("%v\n%s", err, out)
	}
	return nil
}
