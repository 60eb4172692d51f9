package jsonpath

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// The cases follow Jayway JsonPath's README (operators, functions, filter
// syntax) and the paths of real state machines in
// ../shared/corpora/asl-real; the comparison suite is conformance_test.go.
const store = `{
  "store": {
    "book": [
      {"category": "reference", "author": "Nigel Rees", "title": "Sayings of the Century", "price": 8.95},
      {"category": "fiction", "author": "Evelyn Waugh", "title": "Sword of Honour", "price": 12.99},
      {"category": "fiction", "author": "Herman Melville", "title": "Moby Dick", "isbn": "0-553-21311-3", "price": 8.99},
      {"category": "fiction", "author": "J. R. R. Tolkien", "title": "The Lord of the Rings", "isbn": "0-395-19395-8", "price": 22.99}
    ],
    "bicycle": {"color": "red", "price": 19.95}
  },
  "expensive": 10,
  "TranslatedTexts": [
    {"TargetLanguageCode": "es", "TranslatedText": "hola"},
    {"TargetLanguageCode": "fr", "TranslatedText": "salut"}
  ],
  "tags": ["a", "b"],
  "n": null
}`

func TestEval(t *testing.T) {
	cases := []struct{ path, want string }{
		{`$.store.book[0].author`, `"Nigel Rees"`},
		{`$['store']["bicycle"].color`, `"red"`},
		{`$.store.book[-1].title`, `"The Lord of the Rings"`},
		{`$.n`, `null`},
		{`$.store.book[*].author`, `["Nigel Rees","Evelyn Waugh","Herman Melville","J. R. R. Tolkien"]`},
		{`$..author`, `["Nigel Rees","Evelyn Waugh","Herman Melville","J. R. R. Tolkien"]`},
		{`$.store.*`, `[[{"category":"reference","author":"Nigel Rees","title":"Sayings of the Century","price":8.95},{"category":"fiction","author":"Evelyn Waugh","title":"Sword of Honour","price":12.99},{"category":"fiction","author":"Herman Melville","title":"Moby Dick","isbn":"0-553-21311-3","price":8.99},{"category":"fiction","author":"J. R. R. Tolkien","title":"The Lord of the Rings","isbn":"0-395-19395-8","price":22.99}],{"color":"red","price":19.95}]`},
		{`$.store..price`, `[8.95,12.99,8.99,22.99,19.95]`},
		{`$..book[2].title`, `["Moby Dick"]`},
		{`$..book[-2:].title`, `["Moby Dick","The Lord of the Rings"]`},
		{`$..book[:2].title`, `["Sayings of the Century","Sword of Honour"]`},
		{`$.store.book[0,1].price`, `[8.95,12.99]`},
		{`$.store.book[0]['title','price']`, `{"title":"Sayings of the Century","price":8.95}`},
		{`$..[0].title`, `["Sayings of the Century"]`},
		// After a deep scan, a final list of names picks from the objects
		// that hold all of them (Jayway's PropertyPathTokenPredicate);
		// one of them is enough when the names go on.
		{`$..['color','price']`, `[{"color":"red","price":19.95}]`},
		{`$..['color','price'].x`, `[]`},
		{`$..['bicycle','nothing'].color`, `["red"]`},
		{`$..book[?(@.isbn)].title`, `["Moby Dick","The Lord of the Rings"]`},
		{`$..book[?(!@.isbn)].title`, `["Sayings of the Century","Sword of Honour"]`},
		{`$.store.book[?(@.price<10)].title`, `["Sayings of the Century","Moby Dick"]`},
		{`$.store.book[?(@.price <= $['expensive'])].title`, `["Sayings of the Century","Moby Dick"]`},
		{`$.store.book[?(@.category=='fiction' && @.price>20)].title`, `["The Lord of the Rings"]`},
		{`$.store.book[?(@.price > 20 || (@.category == "reference"))].title`, `["Sayings of the Century","The Lord of the Rings"]`},
		{`$.store.book[?(@.author =~ /.*REES/i)].title`, `["Sayings of the Century"]`},
		{`$.store.book[?(@.category in ['reference', 'poetry'])].title`, `["Sayings of the Century"]`},
		{`$.store.book[?(@.category nin ['fiction'])].title`, `["Sayings of the Century"]`},
		{`$.store.book[?(@.title size 9)].title`, `["Moby Dick"]`},
		{`$.store.book[?(@.isbn empty false)].title`, `["Moby Dick","The Lord of the Rings"]`},
		{`$[?(@.tags subsetof ['a','b','c'])].expensive`, `[10]`},
		{`$[?(@.tags anyof ['b','z'])].expensive`, `[10]`},
		{`$[?(@.tags noneof ['b','z'])].expensive`, `[]`},
		{`$[?(@.tags contains 'a')].expensive`, `[10]`},
		{`$[?(1==1)].expensive`, `[10]`},
		{`$.store.book[?(@.price == '8.95')].title`, `["Sayings of the Century"]`},
		// Bare words are strings, as machines in asl-real write them.
		{`$.TranslatedTexts[?(@.TargetLanguageCode==es)].TranslatedText`, `["hola"]`},
		{`$.TranslatedTexts[?(@.TargetLanguageCode == fr)].TranslatedText`, `["salut"]`},
		{`$.store.book.length()`, `4`},
		{`$.store.bicycle.length()`, `2`},
		{`$.store.bicycle.keys()`, `["color","price"]`},
		{`$.tags.first()`, `"a"`},
		{`$.tags.last()`, `"b"`},
		{`$..price.sum()`, `73.87`},
		{`$..price.min()`, `8.95`},
		{`$..price.max()`, `22.99`},
		{`$.store.book[?(@.price > $..price.avg())].title`, `["The Lord of the Rings"]`},
		{`$[?(@.tags.length() == 2)].expensive`, `[10]`},
		{`$.store.book[0].author.length()`, `null`}, // of arrays and objects only
		{`$.store.book[1:3].price`, `[12.99,8.99]`},
		// Jayway reads each index of -3..1, a negative one from the end.
		{`$.store.book[-3:2].price`, `[12.99,8.99,22.99,8.95,12.99]`},
		{`$.store.book[1:3:-1].price`, `[12.99,8.99]`},
		{`$.missing[?(@.x)]`, `NOT_FOUND`},
		{`$.missing`, `NOT_FOUND`},
		{`$.store.book[9]`, `NOT_FOUND`},
		{`$.store.book[*].missing`, `[]`},
		{`$.tags.length`, `NOT_FOUND`},
	}
	doc := mustDecode(t, store)
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			p, err := Parse(c.path)
			if err != nil {
				t.Fatal(err)
			}
			got := printResult(p.Eval(doc))
			if !sameJSON(got, c.want) {
				t.Errorf("got %s, want %s", got, c.want)
			}
		})
	}
}

func mustDecode(t *testing.T, text string) any {
	t.Helper()
	doc, err := decodeOrdered(text)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func printResult(v any, err error) string {
	switch {
	case errors.Is(err, ErrNotFound):
		return "NOT_FOUND"
	case err != nil:
		return "error: " + err.Error()
	}
	b, _ := json.Marshal(plain(v))
	return string(b)
}

// sameJSON compares printed results; floating sums may differ in the
// last digit.
func sameJSON(got, want string) bool {
	if got == want {
		return true
	}
	var g, w float64
	if json.Unmarshal([]byte(got), &g) == nil && json.Unmarshal([]byte(want), &w) == nil {
		return g-w < 1e-9 && w-g < 1e-9
	}
	return sameAnswer(got, want, true)
}

func TestObjectOrder(t *testing.T) {
	doc := mustDecode(t, `{"z": 1, "a": 2, "m": {"y": 1, "b": 2}}`)
	for path, want := range map[string]string{
		`$.*`:          `[1,2,{"y":1,"b":2}]`,
		`$.m.keys()`:   `["y","b"]`,
		`$['m','z']`:   `{"m":{"y":1,"b":2},"z":1}`,
		`$..*`:         `[1,2,{"y":1,"b":2},1,2]`,
		`$.m['b','y']`: `{"b":2,"y":1}`,
	} {
		p, err := Parse(path)
		if err != nil {
			t.Fatal(err)
		}
		v, err := p.Eval(doc)
		if err != nil {
			t.Fatal(err)
		}
		if got := orderedText(v); got != want {
			t.Errorf("%s: got %s, want %s (in order)", path, got, want)
		}
	}
	// A plain map is read in sorted key order.
	p, _ := Parse(`$.*`)
	v, _ := p.Eval(map[string]any{"b": 2.0, "a": 1.0})
	if got := orderedText(v); got != `[1,2]` {
		t.Errorf("map: got %s", got)
	}
}

// orderedText prints v keeping the order of ordered objects.
func orderedText(v any) string {
	switch v := v.(type) {
	case []any:
		parts := make([]string, len(v))
		for i, item := range v {
			parts[i] = orderedText(item)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case orderedObject:
		var parts []string
		for _, k := range v.Keys() {
			m, _ := v.Get(k)
			key, _ := json.Marshal(k)
			parts = append(parts, string(key)+":"+orderedText(m))
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func TestSyntaxErrors(t *testing.T) {
	cases := []struct {
		path string
		at   int
		msg  string
	}{
		{`$.a[`, 3, "unclosed `[`"},
		{`$.a.`, 3, "must not end"},
		{`$x`, 1, "expected `.` or `[`"},
		{`$.a b`, 3, "bracket notation"},
		{`$.a[?(@.b <)]`, 11, "expected a value"},
		{`$.a[?(@.b == 'x)]`, 13, "unclosed '"},
		{`$.a[?(@.b == $.c[)]`, 16, "unclosed `[` in filter"},
		{`$.a.size()`, 4, "unknown path function"},
		{`$.a.sum(1)`, 8, "take no arguments"},
		{`$[1:2:x]`, 1, "could not read"},
		{`$[:]`, 2, "a slice needs"},
		{`$[99999999999]`, 2, "invalid index"},
		{`$[?(@.a =~ /(/)]`, 11, "invalid regular expression"},
		{`$[?(@.a == true false)]`, 16, "expected `)`"},
		{`$[?(true)]`, 8, "expected a comparison"},
		{`$['a' 'b']`, 6, "separated by `,`"},
		{`$[?(@.a in [1,)]`, 11, "invalid JSON literal"},
		{``, 0, "empty path"},
		{`$..length()`, 1, "`..` needs"},
	}
	for _, c := range cases {
		_, err := Parse(c.path)
		var syntax *SyntaxError
		if !errors.As(err, &syntax) {
			t.Errorf("%q: got %v, want a syntax error", c.path, err)
			continue
		}
		if syntax.Offset != c.at || !strings.Contains(syntax.Msg, c.msg) {
			t.Errorf("%q: got %q at %d, want %q at %d", c.path, syntax.Msg, syntax.Offset, c.msg, c.at)
		}
	}
}

func TestSteps(t *testing.T) {
	p, _ := Parse(`$.a['b'][2][-1]`)
	steps, err := p.Steps()
	if err != nil {
		t.Fatal(err)
	}
	want := []Step{{Name: "a"}, {Name: "b"}, {Index: 2, IsIndex: true}, {Index: -1, IsIndex: true}}
	if len(steps) != len(want) {
		t.Fatalf("got %v", steps)
	}
	for i := range want {
		if steps[i] != want[i] {
			t.Errorf("step %d: got %v, want %v", i, steps[i], want[i])
		}
	}
	p, _ = Parse(`$.a[*].b`)
	var syntax *SyntaxError
	if _, err := p.Steps(); !errors.As(err, &syntax) || syntax.Offset != 3 {
		t.Errorf("$.a[*].b: got %v, want an error at 3", err)
	}
}

func TestRuntimeErrors(t *testing.T) {
	doc := mustDecode(t, `{"a": 1, "e": []}`)
	for path, want := range map[string]string{
		`$.a[?(@.x)]`: "cannot be applied",
		`$.e.sum()`:   "needs an array with numbers",
		`$.e.first()`: "no value",
	} {
		p, err := Parse(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Eval(doc); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", path, err, want)
		}
	}
}

// TestWorkLimit: nested deep scans over a wide document stop with an
// error instead of running for long.
func TestWorkLimit(t *testing.T) {
	items := make([]any, 3000)
	for i := range items {
		items[i] = map[string]any{"a": []any{1.0, 2.0}}
	}
	p, err := Parse(`$..*[?(@..a[?(@..* > $..a.length())])]`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Eval(items); !errors.Is(err, errTooMuchWork) {
		t.Errorf("got %v, want the work limit", err)
	}
}

// FuzzParseEval: no path and no document makes Parse or Eval panic, and a
// path that parses evaluates.
func FuzzParseEval(f *testing.F) {
	for _, seed := range []string{
		`$.a[?(@.b==1 && !(@.c =~ /x/i) || @.d in [1,'2',{"k":[]}])]`,
		`$..[0]`, `$..['a','b']`, `$[-1:2:3]`, `$.a.length()`, `$..x.sum()`,
		`$[?(@.a==$..b.max())]`, `$['\'\\\u0041']`, `$[?(@[*] >= $.y[*])]`,
		`$[?(@.k==VALUE)]`, `.a`, `@.b`, `$[?(@.a.*)]`, `$[?((@.a<1)==false)]`,
	} {
		f.Add(seed, `{"a":[{"b":1,"c":"x","d":"2"}],"y":[1,2],"x":[1,2]}`)
	}
	f.Fuzz(func(t *testing.T, path, document string) {
		p, err := Parse(path)
		if err != nil {
			var syntax *SyntaxError
			if !errors.As(err, &syntax) || syntax.Offset < 0 || syntax.Offset > len(path) {
				t.Fatalf("%q: %v", path, err)
			}
			return
		}
		doc, err := decodeOrdered(document)
		if err != nil {
			return
		}
		_, _ = p.Eval(doc)
	})
}
