package console

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// TokenEnv is the environment variable that gives the console's token
// when no flag does.
const TokenEnv = "FLOWC_CONSOLE_TOKEN"

// DefaultAddr is where the console listens unless told otherwise: on
// loopback only, where it needs no token.
const DefaultAddr = "127.0.0.1:8080"

const (
	authCookie  = "flowc_console"
	flashCookie = "flowc_flash"
	csrfField   = "csrf"
)

// Listen listens on addr for the console; an address that is not
// loopback needs a token, since anyone who reaches it could answer the
// sessions' stops.
func Listen(addr, token string) (net.Listener, error) {
	if err := CheckAddr(addr, token); err != nil {
		return nil, err
	}
	return net.Listen("tcp", addr)
}

// CheckAddr refuses an address other than loopback without a token.
func CheckAddr(addr, token string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("console address %q: %w", addr, err)
	}
	if token != "" || host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("the console at %q is reachable beyond this machine: give it a token (--console-token or %s)", addr, TokenEnv)
}

// URL is the address a person opens for a console listening at addr.
func URL(addr net.Addr) string { return "http://" + addr.String() + "/" }

func newSecret() []byte {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24)
	return b
}

// secureHeaders let the page load nothing but its own stylesheet: no
// script at all, no frames, no form posted elsewhere.
func secureHeaders(h http.Header) {
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	// "same-origin", not "no-referrer": under no-referrer a browser sends
	// "Origin: null" with the console's own forms, which checkCSRF refuses.
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Cache-Control", "no-store")
}

// authorized checks the request's token when the console has one, in
// constant time, and answers 401 when it is wrong or missing. A visit
// with ?token= sets the cookie and is sent on to the same page without
// the token in its address.
func (c *Console) authorized(w http.ResponseWriter, r *http.Request) bool {
	if c.token == "" {
		return true
	}
	if q := r.URL.Query(); q.Has("token") && r.Method == http.MethodGet {
		if !c.tokenIs(q.Get("token")) {
			http.Error(w, "wrong token", http.StatusUnauthorized)
			return false
		}
		http.SetCookie(w, &http.Cookie{Name: authCookie, Value: c.token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		q.Del("token")
		u := url.URL{Path: r.URL.Path, RawQuery: q.Encode()}
		http.Redirect(w, r, u.String(), http.StatusSeeOther)
		return false
	}
	if bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && c.tokenIs(bearer) {
		return true
	}
	if ck, err := r.Cookie(authCookie); err == nil && c.tokenIs(ck.Value) {
		return true
	}
	w.Header().Set("WWW-Authenticate", `Bearer realm="flowc console"`)
	http.Error(w, "this console needs its token: open it at /?token=TOKEN", http.StatusUnauthorized)
	return false
}

func (c *Console) tokenIs(s string) bool {
	return subtle.ConstantTimeCompare([]byte(s), []byte(c.token)) == 1
}

// csrfToken is what every form of the console posts back: an HMAC of the
// process's secret, so that a page of another site cannot know it.
func (c *Console) csrfToken() string {
	m := hmac.New(sha256.New, c.secret)
	m.Write([]byte("flowc console csrf"))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

var errCSRF = errors.New("the form did not come from this console; reload the page and try again")

// checkCSRF refuses a change that did not come from the console's own
// form: a missing or wrong CSRF token, or a browser that says the
// request is cross-site.
func (c *Console) checkCSRF(r *http.Request) error {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
	default:
		return errCSRF
	}
	if o := r.Header.Get("Origin"); o != "" && o != "null" {
		u, err := url.Parse(o)
		if err != nil || u.Host != r.Host {
			return errCSRF
		}
	} else if o == "null" {
		return errCSRF
	}
	if subtle.ConstantTimeCompare([]byte(r.PostFormValue(csrfField)), []byte(c.csrfToken())) != 1 {
		return errCSRF
	}
	return nil
}
