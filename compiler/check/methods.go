package check

import "slices"

// VetMethods are the method names go vet's stdmethods check expects with
// the signature of a standard interface (json.Unmarshaler, io.ReaderFrom,
// fmt.Formatter...). A handler of such a name would become a method of the
// generated handlers interface and mock with a handler's signature, and
// the package would fail go vet. The States Language front-end, which
// picks handler names itself, numbers them instead (UnmarshalJSON2).
var VetMethods = []string{
	"As", "Format", "GobDecode", "GobEncode", "Is", "MarshalJSON", "MarshalXML",
	"ReadByte", "ReadFrom", "ReadRune", "Scan", "Seek", "UnmarshalJSON",
	"UnmarshalXML", "UnreadByte", "UnreadRune", "Unwrap", "WriteByte", "WriteTo",
}

// checkMethodNames rejects handlers named like a standard method, once per
// name, at the first state that uses it.
func (c *checker) checkMethodNames() {
	seen := map[string]bool{}
	for _, s := range c.w.States {
		h := s.Handler
		if h == nil || seen[h.Name] || !slices.Contains(VetMethods, h.Name) {
			continue
		}
		seen[h.Name] = true
		c.diags.Errorf(h.Pos, "handler %s would be a method that go vet expects with another signature; choose another handler name", h.Name)
	}
}
