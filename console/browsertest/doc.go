// Package browsertest drives the console in headless Chromium, as a
// person uses it. It is a module of its own, so that the browser driver
// stays out of flowc's go.mod; its tests need a chromium on PATH (Debian's
// chromium package), and are skipped without one outside CI.
package browsertest
