package naming

// VetMethods are the method names go vet's stdmethods check expects with
// the signature of a standard interface (json.Unmarshaler, io.ReaderFrom,
// fmt.Formatter...). A handler of such a name would become a method of the
// generated handlers interface and mock with a handler's signature, and
// the package would fail go vet: the checker rejects one a definition
// names, and the States Language front-end, which picks handler names
// itself, numbers them instead (UnmarshalJSON2).
var VetMethods = []string{
	"As", "Format", "GobDecode", "GobEncode", "Is", "MarshalJSON", "MarshalXML",
	"ReadByte", "ReadFrom", "ReadRune", "Scan", "Seek", "UnmarshalJSON",
	"UnmarshalXML", "UnreadByte", "UnreadRune", "Unwrap", "WriteByte", "WriteTo",
}
