package impl

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// The refusals of a task token sent back (SendTaskSuccess, SendTaskFailure,
// SendTaskHeartbeat), as Step Functions names them: InvalidToken,
// TaskDoesNotExist and TaskTimedOut (which AWS also answers for a token
// used already).
var (
	ErrTaskTokenInvalid  = errors.New("task token is not valid")
	ErrTaskTokenUnknown  = errors.New("task token does not exist")
	ErrTaskTokenUsed     = errors.New("task token was used already")
	ErrTaskTokenTimedOut = errors.New("task token timed out")
)

// tokenPrefix starts every task token flowc issues, so that a token of
// another system is told apart from a damaged one.
const tokenPrefix = "flowc1."

// tokenClaims is what a task token says: the session and the state it
// belongs to. The nonce, 128 bits from crypto/rand, is what makes it
// unguessable: the session and state are no secret.
type tokenClaims struct {
	Session string `json:"s,omitempty"` // "": a run without a session
	State   string `json:"t"`
	Nonce   string `json:"n"`
}

// newTaskToken issues a token for state of session (or of a run without
// one).
func newTaskToken(session, state string) string {
	var nonce [16]byte
	rand.Read(nonce[:])                                                                                       // never fails: it crashes the program instead
	data, _ := json.Marshal(tokenClaims{Session: session, State: state, Nonce: hex.EncodeToString(nonce[:])}) // strings always encode
	return tokenPrefix + base64.RawURLEncoding.EncodeToString(data)
}

// parseTaskToken reads the claims of a token; a token flowc did not issue
// is ErrTaskTokenInvalid.
func parseTaskToken(token string) (tokenClaims, error) {
	var c tokenClaims
	body, ok := strings.CutPrefix(token, tokenPrefix)
	if !ok {
		return c, fmt.Errorf("%w: %q is not a flowc task token", ErrTaskTokenInvalid, abbreviate(token))
	}
	data, err := base64.RawURLEncoding.DecodeString(body)
	if err == nil {
		err = json.Unmarshal(data, &c)
	}
	if err == nil && (c.State == "" || len(c.Nonce) != 32) {
		err = errors.New("it names no state, or its nonce is not 128 bits")
	}
	if err != nil {
		return c, fmt.Errorf("%w: %q does not decode: %v", ErrTaskTokenInvalid, abbreviate(token), err)
	}
	return c, nil
}

// sameToken compares tokens in constant time, so that how long a refusal
// takes says nothing about the outstanding token.
func sameToken(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// abbreviate keeps error messages short when a whole document is sent as
// a token.
func abbreviate(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}
