package impl

import (
	"crypto/sha256"
	"encoding/base64"
	"maps"
	"slices"
)

// spentTokens is how many ended task tokens a session's checkpoint
// remembers: enough for the tokens of every item of a Map that waited at
// once to be told apart from forged ones once answered, without the
// checkpoint growing with the session's age.
const spentTokens = 256

func tokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// heldTokens are the waits a position holds, by token hash; nil for none,
// as almost every checkpoint has, so that saving one allocates nothing.
func heldTokens(pos *Position) map[string]*CallbackWait {
	_, waits := pos.Progress().Tokens("")
	if pos.Callback != nil {
		waits = append(waits, pos.Callback)
	}
	if len(waits) == 0 {
		return nil
	}
	held := make(map[string]*CallbackWait, len(waits))
	for _, w := range waits {
		held[tokenHash(w.Token)] = w
	}
	return held
}

// spend records as spent the tokens that were held before and are held
// no more, keeping the newest spentTokens.
func spend(spent []spentToken, before, still map[string]*CallbackWait) []spentToken {
	if len(before) == 0 {
		return spent
	}
	for _, h := range slices.Sorted(maps.Keys(before)) {
		if still[h] == nil {
			spent = append(spent, spentToken{Hash: h, Answered: before[h].Answer != nil})
		}
	}
	return spent[max(0, len(spent)-spentTokens):]
}

// spentAs is how the token's wait ended, if the session remembers it.
func spentAs(spent []spentToken, token string) (answered, known bool) {
	h := tokenHash(token)
	for _, s := range spent {
		if s.Hash == h {
			return s.Answered, true
		}
	}
	return false, false
}
