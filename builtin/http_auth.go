package builtin

import (
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"sync"

	"github.com/flowc-dev/flowc/builtin/httpspec"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// A ConnectionArn names an EventBridge connection, which holds the
// credentials of an API in AWS. Locally the credentials come from
// environment variables named after the connection: for
// arn:aws:events:us-east-1:123456789012:connection/Stripe/0d1f...,
// FLOWC_CONNECTION_STRIPE_ followed by
//
//	API_KEY_NAME, API_KEY_VALUE   a header (API_KEY authorization)
//	USERNAME, PASSWORD            Basic authorization
//	TOKEN                         Authorization: Bearer TOKEN (the token OAuth would fetch)
//
// Exactly one scheme may be set. With none set, the request goes out
// without credentials and a warning names the variables, once per
// connection.

// errConnection names a connection whose credentials cannot be used, as
// Step Functions names a connection that is not authorized.
const errConnection = "Events.ConnectionResource.InvalidConnectionState"

var warned sync.Map // connection ARNs already warned about

// authenticate adds the credentials of the connection arn to req.
func authenticate(req *http.Request, arn string) error {
	if arn == "" {
		return nil
	}
	prefix, err := connectionEnv(arn)
	if err != nil {
		return err
	}
	get := func(name string) string { return os.Getenv(prefix + name) }
	key, user, token := get("API_KEY_NAME"), get("USERNAME"), get("TOKEN")
	switch set := countSet(key, user, token); {
	case set > 1:
		return connectionErrorf("set one of %sAPI_KEY_NAME, %sUSERNAME and %sTOKEN, not %d", prefix, prefix, prefix, set)
	case key != "":
		req.Header.Set(key, get("API_KEY_VALUE"))
	case user != "":
		req.SetBasicAuth(user, get("PASSWORD"))
	case token != "":
		req.Header.Set("Authorization", "Bearer "+token)
	default:
		if _, done := warned.LoadOrStore(arn, true); !done {
			slog.Warn("HTTP Task: no credentials for the connection; calling without them",
				"connection", arn, "set", prefix+"API_KEY_NAME/_VALUE, "+prefix+"USERNAME/PASSWORD or "+prefix+"TOKEN")
		}
	}
	return nil
}

// connectionEnv is the prefix of the variables of a connection ARN.
func connectionEnv(arn string) (string, error) {
	name, err := httpspec.ConnectionName(arn)
	if err != nil {
		return "", invalidf("%v", err)
	}
	env := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return r - 'a' + 'A'
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			return r
		}
		return '_'
	}, name)
	return "FLOWC_CONNECTION_" + env + "_", nil
}

func countSet(values ...string) int {
	n := 0
	for _, v := range values {
		if v != "" {
			n++
		}
	}
	return n
}

func connectionErrorf(format string, args ...any) error {
	return flowcrt.NewError(errConnection, "HTTP Task: "+fmt.Sprintf(format, args...))
}
