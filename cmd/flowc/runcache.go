package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// The program cache of `flowc run` (docs/cli.md#the-program-cache): each
// entry is a directory named by the key of a module's build, holding the
// program and its checksum. An entry is built in a temporary directory
// beside the others and renamed into place, which fails when the name is
// taken: two flowc processes building the same key never write the same
// file, and a reader sees a whole entry or none.
const (
	cacheEnv        = "FLOWCCACHE"
	cacheMaxEntries = 20
	cacheMaxAge     = 5 * 24 * time.Hour // unused this long, an entry goes
	cacheTempAge    = 24 * time.Hour     // an unfinished build this old was abandoned
	cacheTempPrefix = "tmp-"
	entryProgram    = "program"
	entrySum        = "sum"
	// cacheKeyVersion changes when what a key covers does.
	cacheKeyVersion = "flowc program cache 1\n"
)

// goBuildVars are the go command's settings that change what it builds
// from the same source: the toolchain, the target and the C toolchain.
var goBuildVars = []string{
	"GOVERSION", "GOROOT", "GOTOOLCHAIN", "GOOS", "GOARCH", "GOEXPERIMENT", "GOFLAGS",
	"GO386", "GOAMD64", "GOARM", "GOARM64", "GOMIPS", "GOMIPS64", "GOPPC64", "GORISCV64", "GOWASM",
	"CGO_ENABLED", "CC", "CXX", "AR", "PKG_CONFIG",
	"CGO_CFLAGS", "CGO_CPPFLAGS", "CGO_CXXFLAGS", "CGO_FFLAGS", "CGO_LDFLAGS",
}

// goModule is a main package's module in memory: its files by path
// relative to its root, and the settings its build adds to the environment.
type goModule struct {
	files map[string][]byte
	env   []string
}

// builder builds the programs of `flowc run`, through the cache or not.
type builder struct {
	cache string    // the cache's directory; "" builds every program afresh
	trace io.Writer // with -x, where the build commands are printed; nil for none
}

// newBuilder uses the cache unless noCache or FLOWCCACHE=off says not to,
// or there is no place for it.
func newBuilder(noCache, trace bool, stderr io.Writer) builder {
	var b builder
	if trace {
		b.trace = stderr
	}
	if !noCache {
		b.cache = cacheDir()
	}
	return b
}

// cacheDir is FLOWCCACHE, or flowc's directory in the user's cache
// directory, where the go command keeps its own; "" for none.
func cacheDir() string {
	dir := os.Getenv(cacheEnv)
	if dir == "off" {
		return ""
	}
	if dir == "" {
		user, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(user, "flowc")
	}
	abs, err := filepath.Abs(dir)
	if err != nil || os.MkdirAll(abs, 0o755) != nil {
		return ""
	}
	return abs
}

// build returns the path of m's program: the cached one, or one built
// from its source written into src. Without the cache the program is bin.
func (b builder) build(m goModule, src, bin string) (string, error) {
	if b.cache == "" {
		return bin, b.compile(m, src, bin)
	}
	key, err := m.key()
	if err != nil {
		return "", err
	}
	entry := filepath.Join(b.cache, key)
	if prog, ok := openEntry(entry); ok {
		b.tracef("# cached %s\n", prog)
		return prog, nil
	}
	removeEntry(entry) // if there is one, it is damaged: openEntry refused it
	return b.buildEntry(m, src, entry)
}

// buildEntry builds m into a new entry and publishes it as entry; if
// another flowc published one first, that one is used.
func (b builder) buildEntry(m goModule, src, entry string) (string, error) {
	tmp, err := os.MkdirTemp(b.cache, cacheTempPrefix)
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp) // gone already once renamed
	bin := filepath.Join(tmp, entryProgram)
	if err := b.compile(m, src, bin); err != nil {
		return "", err
	}
	if err := writeSum(tmp); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, entry); err != nil {
		if prog, ok := openEntry(entry); ok {
			return prog, nil
		}
		return "", err
	}
	b.trim()
	return filepath.Join(entry, entryProgram), nil
}

// compile writes m's source into src and builds its program as bin.
func (b builder) compile(m goModule, src, bin string) error {
	if err := writeFiles(filesUnder(src, m.files)); err != nil {
		return err
	}
	b.tracef("cd %s\n%s go build -o %s .\n", src, strings.Join(m.env, " "), bin)
	return goBuild(src, bin, m.env...)
}

// filesUnder is files with their relative paths put under dir.
func filesUnder(dir string, files map[string][]byte) map[string][]byte {
	under := make(map[string][]byte, len(files))
	for path, content := range files {
		under[filepath.Join(dir, path)] = content
	}
	return under
}

func (b builder) tracef(format string, args ...any) {
	if b.trace != nil {
		fmt.Fprintf(b.trace, format, args...)
	}
}

// key names m's program: a hash of its source, the environment its build
// adds and the go command's settings that change the program it makes.
// The source is all there is to build (the workflow's generated code, the
// user's Go files, flowc's runtime); the modules it requires are pinned
// by go.sum, which is part of it.
func (m goModule) key() (string, error) {
	h := sha256.New()
	io.WriteString(h, cacheKeyVersion)
	env, err := goEnv(m.env)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(h, "%q\n%s", m.env, env)
	for _, path := range slices.Sorted(maps.Keys(m.files)) {
		fmt.Fprintf(h, "%q %d\n", filepath.ToSlash(path), len(m.files[path]))
		h.Write(m.files[path])
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// goEnv is the go command's goBuildVars as a build with env sees them.
func goEnv(env []string) ([]byte, error) {
	cmd := exec.Command("go", append([]string{"env", "-json"}, goBuildVars...)...)
	cmd.Env = append(os.Environ(), env...)
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go env: %v\n%s", err, errOut.Bytes())
	}
	return out, nil
}

// writeSum records the checksum of the program in entry, which
// openEntry checks before it trusts the program.
func writeSum(entry string) error {
	sum, err := fileSum(filepath.Join(entry, entryProgram))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(entry, entrySum), []byte(sum), 0o644)
}

// fileSum is the file's size and CRC-32C: it catches a program cut short
// or damaged, at the speed of the CPU's CRC instruction (SHA-256 of two
// programs would be most of the time a cached run takes). The key, which
// must tell programs apart, is SHA-256.
func fileSum(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := crc32.New(crc32.MakeTable(crc32.Castagnoli))
	n, err := io.Copy(h, f)
	return fmt.Sprintf("crc32c %08x %d\n", h.Sum32(), n), err
}

// openEntry returns the entry's program when its checksum holds, and
// marks the entry used now, for trim.
func openEntry(entry string) (string, bool) {
	want, err := os.ReadFile(filepath.Join(entry, entrySum))
	if err != nil {
		return "", false
	}
	prog := filepath.Join(entry, entryProgram)
	got, err := fileSum(prog)
	if err != nil || got != string(want) {
		return "", false
	}
	now := time.Now()
	os.Chtimes(entry, now, now) // a failure only makes the entry look older
	return prog, true
}

// removeEntry moves entry out of the way before removing it, so that no
// reader sees it half removed.
func removeEntry(entry string) {
	dead := fmt.Sprintf("%s%s-%d", filepath.Join(filepath.Dir(entry), cacheTempPrefix), filepath.Base(entry), os.Getpid())
	if os.Rename(entry, dead) == nil {
		os.RemoveAll(dead)
	}
}

// trim removes the entries unused for cacheMaxAge, those beyond the
// cacheMaxEntries used last, and abandoned builds. Errors are ignored: a
// program running on some system cannot be removed, and trim tries again
// after the next build.
func (b builder) trim() {
	dirs, err := os.ReadDir(b.cache)
	if err != nil {
		return
	}
	type used struct {
		path string
		at   time.Time
	}
	var entries []used
	for _, d := range dirs {
		info, err := d.Info()
		if err != nil || !d.IsDir() {
			continue
		}
		path, age := filepath.Join(b.cache, d.Name()), time.Since(info.ModTime())
		switch {
		case strings.HasPrefix(d.Name(), cacheTempPrefix):
			if age > cacheTempAge {
				os.RemoveAll(path)
			}
		case !isKey(d.Name()):
		case age > cacheMaxAge:
			removeEntry(path)
		default:
			entries = append(entries, used{path, info.ModTime()})
		}
	}
	slices.SortFunc(entries, func(a, b used) int { return b.at.Compare(a.at) })
	for _, e := range entries[min(len(entries), cacheMaxEntries):] {
		removeEntry(e.path)
	}
}

func isKey(name string) bool {
	_, err := hex.DecodeString(name)
	return err == nil && len(name) == 2*sha256.Size
}
