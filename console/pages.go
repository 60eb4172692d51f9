package console

import (
	"embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"log"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

//go:embed templates/*.html console.css
var files embed.FS

var pages = template.Must(template.New("").Funcs(template.FuncMap{
	"sessionURL": sessionURL,
	"listURL":    listURL,
	"when":       func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05Z") },
	"json":       indentJSON,
}).ParseFS(files, "templates/*.html"))

// Statuses are the statuses a session can have, in the order the counts
// show them.
var Statuses = []string{"running", "interrupted", "waiting", "succeeded", "failed", "stopped"}

const (
	listLimit    = 50  // sessions on a page
	historyLimit = 200 // events on a page
	markLimit    = 1 << 20
)

func sessionURL(id string) string { return "/sessions/" + url.PathEscape(id) }

// listURL is the address of the list filtered by status (and workflow),
// from the cursor before.
func listURL(status, workflow, before string) string {
	q := url.Values{}
	for k, v := range map[string]string{"status": status, "workflow": workflow, "before": before} {
		if v != "" {
			q.Set(k, v)
		}
	}
	if len(q) == 0 {
		return "/"
	}
	return "/?" + q.Encode()
}

func indentJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	out, _ := json.MarshalIndent(v, "", "  ")
	return string(out)
}

// count is a status's chip and bar segment on the list.
type count struct {
	Status   string
	N        int
	X, Width float64 // of the bar, in percent
	Selected bool
}

func counts(c map[string]int, selected string) []count {
	total := 0
	for _, s := range Statuses {
		total += c[s]
	}
	var out []count
	x := 0.0
	for _, s := range Statuses {
		w := 0.0
		if total > 0 {
			w = 100 * float64(c[s]) / float64(total)
		}
		out = append(out, count{Status: s, N: c[s], X: x, Width: w, Selected: s == selected})
		x += w
	}
	return out
}

func (c *Console) list(w http.ResponseWriter, r *http.Request) {
	q := Query{Status: r.FormValue("status"), Workflow: r.FormValue("workflow"), Before: r.FormValue("before"), Limit: listLimit}
	page, err := c.read.Sessions(r.Context(), q)
	if err != nil {
		c.fail(w, err)
		return
	}
	total := 0
	for _, n := range page.Counts {
		total += n
	}
	c.render(w, http.StatusOK, "list.html", map[string]any{
		"Title": "Sessions", "Query": q, "Page": page, "Counts": counts(page.Counts, q.Status), "Total": total,
		"Next": listURL(q.Status, q.Workflow, page.Next),
	})
}

// sessionPage is what the session page shows.
type sessionPage struct {
	Title   string
	S       *Session
	Graph   template.HTML
	Legend  bool
	Events  []Event
	Dropped int64
	Next    string
	Total   int
	CSRF    string
	Act     bool
	Flash   string
	Error   string
	CanStop bool
	Redrive bool
	// NoRedrive is why a failed session offers no redrive (RedriveRefuser).
	NoRedrive string
}

func (c *Console) session(w http.ResponseWriter, r *http.Request) {
	c.showSession(w, r, http.StatusOK, readFlash(w, r), "")
}

// showSession renders session r names with a flash (its change went
// through) or an error (it did not), under HTTP status code.
func (c *Console) showSession(w http.ResponseWriter, r *http.Request, code int, flash, problem string) {
	id := r.PathValue("id")
	s, err := c.read.Session(r.Context(), id)
	if err != nil {
		c.fail(w, err)
		return
	}
	events, dropped, err := c.read.History(r.Context(), id, 0, markLimit)
	if err != nil {
		c.fail(w, err)
		return
	}
	after, _ := strconv.ParseInt(r.FormValue("after"), 10, 64)
	shown, next := historyPage(events, after)
	p := sessionPage{
		Title: "Session " + s.ID, S: s, Events: shown, Dropped: dropped, Total: len(events),
		CSRF: c.csrfToken(), Act: c.act != nil, Flash: flash, Error: problem,
		CanStop: s.Status != "succeeded" && s.Status != "failed" && s.Status != "stopped",
		Redrive: s.Status == "failed",
	}
	if r, ok := c.act.(RedriveRefuser); ok && p.Redrive {
		p.Redrive, p.NoRedrive = false, r.RedriveRefusal().Error()
	}
	if next > 0 {
		p.Next = sessionURL(s.ID) + "?after=" + strconv.FormatInt(next, 10) + "#history"
	}
	if g, ok := c.graphs[s.Workflow]; ok {
		p.Graph, p.Legend = template.HTML(markGraph(g, s, events)), true // flowc drew it, every label escaped
	}
	c.render(w, code, "session.html", p)
}

// historyPage is the page of events after seq after, and the seq after
// which the next page starts (0: none).
func historyPage(events []Event, after int64) ([]Event, int64) {
	i := 0
	for i < len(events) && events[i].Seq <= after {
		i++
	}
	end := min(len(events), i+historyLimit)
	if end < len(events) {
		return events[i:end], events[end-1].Seq
	}
	return events[i:end], 0
}

// change answers, stops or redrives the session, then sends the browser
// back to its page with a flash (Post/Redirect/Get); when another answer
// won it says so with 409 Conflict.
func (c *Console) change(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
	if err := c.checkCSRF(r); err != nil {
		http.Error(w, err.Error(), http.StatusForbidden)
		return
	}
	flash, err := c.do(r)
	var bad badInput
	switch {
	case err == nil:
		setFlash(w, flash)
		http.Redirect(w, r, sessionURL(r.PathValue("id")), http.StatusSeeOther)
	case errors.Is(err, ErrConflict):
		c.showSession(w, r, http.StatusConflict, "", err.Error())
	case errors.Is(err, ErrNotFound):
		c.fail(w, err)
	case errors.As(err, &bad):
		c.showSession(w, r, http.StatusBadRequest, "", err.Error())
	default:
		c.showSession(w, r, http.StatusUnprocessableEntity, "", err.Error())
	}
}

// badInput is a form the console cannot send on.
type badInput string

func (b badInput) Error() string { return string(b) }

// do makes the change the form asks for and returns what the page then
// says.
func (c *Console) do(r *http.Request) (string, error) {
	ctx, id, key := r.Context(), r.PathValue("id"), r.PostFormValue("key")
	switch r.PathValue("action") {
	case "decide":
		option := r.PostFormValue("option")
		return fmt.Sprintf("Answered %s with %q; the run goes on.", stopName(key), option), c.act.Decide(ctx, id, key, option)
	case "task-success":
		out := r.PostFormValue("output")
		if out == "" {
			out = "{}"
		}
		if !json.Valid([]byte(out)) {
			return "", badInput("the task's output is not JSON")
		}
		return fmt.Sprintf("Sent a success for %s; the run goes on.", stopName(key)), c.act.TaskSucceed(ctx, id, key, json.RawMessage(out))
	case "task-failure":
		return fmt.Sprintf("Sent a failure for %s; the run goes on.", stopName(key)),
			c.act.TaskFail(ctx, id, key, r.PostFormValue("error"), r.PostFormValue("cause"))
	case "stop":
		return "Stopped the session.", c.act.Stop(ctx, id, r.PostFormValue("error"), r.PostFormValue("cause"))
	case "redrive":
		return "Redrove the session from the state that failed.", c.act.Redrive(ctx, id)
	}
	return "", badInput("no such change")
}

func stopName(key string) string {
	if key == "" {
		return "the stop"
	}
	return key
}

func setFlash(w http.ResponseWriter, msg string) {
	http.SetCookie(w, &http.Cookie{Name: flashCookie, Value: base64.RawURLEncoding.EncodeToString([]byte(msg)),
		Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
}

// readFlash returns the flash a change left and clears it.
func readFlash(w http.ResponseWriter, r *http.Request) string {
	ck, err := r.Cookie(flashCookie)
	if err != nil {
		return ""
	}
	http.SetCookie(w, &http.Cookie{Name: flashCookie, Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteStrictMode})
	msg, err := base64.RawURLEncoding.DecodeString(ck.Value)
	if err != nil {
		return ""
	}
	return string(msg)
}

func (c *Console) fail(w http.ResponseWriter, err error) {
	code := http.StatusInternalServerError
	if errors.Is(err, ErrNotFound) {
		code = http.StatusNotFound
	}
	c.render(w, code, "error.html", map[string]any{"Title": "Error", "Error": err.Error()})
}

func (c *Console) render(w http.ResponseWriter, code int, name string, data any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	if err := pages.ExecuteTemplate(w, name, data); err != nil {
		log.Printf("flowc console: rendering %s: %v", name, err)
	}
}

func serveCSS(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "max-age=3600")
	http.ServeFileFS(w, r, files, "console.css")
}
