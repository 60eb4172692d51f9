package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/flowc-dev/flowc"
	"github.com/flowc-dev/flowc/codegen"
)

// temporalBuildModule is the source of the Temporal module a program of
// `flowc build --target temporal` links; target names the target.
func temporalBuildModule(target string) (string, error) {
	if target != targetTemporal {
		return "", fmt.Errorf("unknown target %q (want %s or %s)", target, targetNative, targetTemporal)
	}
	dir, err := temporalModule()
	if err != nil {
		return "", fmt.Errorf("--target temporal needs flowc's Temporal module (the temporal directory of its source); set FLOWC_TEMPORAL_DIR to it")
	}
	return dir, nil
}

// checkTemporalFile: when the handlers use the definition's own package,
// the program links it, so it must hold the Temporal file flowc gen
// --target temporal writes now (and the mock file that file names).
func checkTemporalFile(c compiled, user *userPackage) error {
	if user.wfImport == "" {
		return nil
	}
	t, err := temporalFile(c)
	if err != nil {
		return err
	}
	if onDisk, err := os.ReadFile(t.out); err != nil || !bytes.Equal(onDisk, t.file.Content) {
		return fmt.Errorf("the handlers use the workflow's package, and %s is not what flowc gen --target temporal writes for %s now; run it", t.out, c.def)
	}
	return nil
}

// addTemporal adds to the files of a built program what it needs to run
// on Temporal: the workflow's Temporal file beside its native one (unless
// the program links the definition's own package: checkTemporalFile), and
// the Temporal module (source support) in its go.mod, go.sum and go.work.
func addTemporal(files map[string][]byte, dir string, c compiled, user *userPackage, support string) error {
	if user == nil || user.wfImport == "" {
		t, err := temporalFile(c)
		if err != nil {
			return err
		}
		// Its RegisterXMock, for tests, runs over the mock file's handlers.
		for _, f := range []codegen.File{t.file, c.mock} {
			files[filepath.Join(dir, "wf", f.Name)] = renamePackage(f.Content)
		}
	}
	sum, err := os.ReadFile(filepath.Join(support, "go.sum"))
	if err != nil {
		return err
	}
	goMod := filepath.Join(dir, "go.mod")
	files[goMod] = append(files[goMod], temporalRequires(support)...)
	goSum := filepath.Join(dir, "go.sum")
	files[goSum] = append(files[goSum], sum...)
	files[filepath.Join(dir, "go.work")] = []byte(temporalGoWork(user))
	return nil
}

// temporalGoWork is the go.work of a program on Temporal: goWork's, or the
// program's module alone. In a workspace the go command builds with the
// requirements of flowc and of the Temporal module as they are, where a
// module of its own would want its go.mod tidied first.
func temporalGoWork(user *userPackage) string {
	if work := goWork(user); work != "" {
		return work
	}
	return fmt.Sprintf("go %s\n\nuse .\n", flowc.GoVersion())
}
