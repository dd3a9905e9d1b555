package jsonstr

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestAppendMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", "a\"b\\c", "<&>", "\b\f\n\r\t\x00\x1f", "\u2028\u2029", "é日本", "bad\xffutf8", "\xe2\x82"} {
		want, _ := json.Marshal(s)
		if got := string(Append(nil, s, EncodingJSON)); got != string(want) {
			t.Errorf("Append(%q) = %s, want %s", s, got, want)
		}
	}
	if got := string(Append(nil, "\b\f", SMD)); got != `"\u0008\u000c"` {
		t.Errorf("SMD style = %s", got)
	}
}

// unquote reads a JSON string body (no quotes, no control characters) with
// AppendEscape for its escapes, as the decoders do.
func unquote(body string) (string, bool) {
	var out []byte
	for i := 0; i < len(body); {
		if body[i] != '\\' {
			out = append(out, body[i])
			i++
			continue
		}
		next, st := SkipEscape(body, i)
		var got []byte
		var next2 int
		var st2 EscapeStatus
		got, next2, st2 = AppendEscape(out, body, i)
		if st != st2 || (st == EscapeOK && next > next2) {
			// SkipEscape reads the escape alone; AppendEscape may also read
			// the low half of a surrogate pair after it.
			panic("SkipEscape and AppendEscape disagree on " + body)
		}
		if st2 != EscapeOK {
			return "", false
		}
		out, i = got, next2
	}
	return string(out), true
}

func TestAppendEscapeMatchesEncodingJSON(t *testing.T) {
	for _, body := range []string{
		``, `plain`, `\"\\\/\b\f\n\r\t`, `\u00e9\u65e5`, `\u0000`, `\uD83D\uDE00`, `\uD83D`, `\uDE00`,
		`\uD83Dx`, `\uD83D\u0041`, `\uD83D\uD83D\uDE00`, `\uD83D\`, `\uD83D\u12`, `\uD83D\uZZZZ`,
		`\x`, `\`, `\u`, `\u12`, `\u12G4`, `\U0041`, `a\u0041b`, `\uFFFF`,
	} {
		var want string
		werr := json.Unmarshal([]byte(`"`+body+`"`), &want)
		got, ok := unquote(body)
		if ok != (werr == nil) || (ok && got != want) {
			t.Errorf("%s: got %q %v, encoding/json %q %v", body, got, ok, want, werr)
		}
	}
}

func TestEscapeStatus(t *testing.T) {
	for _, tc := range []struct {
		in   string
		at   int
		st   EscapeStatus
		next int
	}{
		{`\n`, 0, EscapeOK, 2},
		{`ab\`, 2, EscapeEOF, 3},
		{`\q`, 0, EscapeBadLetter, 1},
		{`\u12`, 0, EscapeEOF, 4},
		{`\u1x34`, 0, EscapeBadHex, 3},
		{`\u0041`, 0, EscapeOK, 6},
		{`\ud83d\ude00!`, 0, EscapeOK, 12},
	} {
		_, next, st := AppendEscape(nil, []byte(tc.in), tc.at)
		if st != tc.st || next != tc.next {
			t.Errorf("AppendEscape(%q, %d) = %d, %v; want %d, %v", tc.in, tc.at, next, st, tc.next, tc.st)
		}
	}
}

// TestAppendEveryPosition: strings of plain bytes with one byte that needs
// care at every position, against encoding/json (the eight-bytes-at-a-time
// scan must stop at each of them).
func TestAppendEveryPosition(t *testing.T) {
	special := []string{"\"", "\\", "<", ">", "&", "\x00", "\x1f", "\n", "\x7f", "é", "\xff", "\u2028", " ", "!", "#", "=", "?", "[", "]", "{", "}", "~"}
	for n := 0; n <= 20; n++ {
		for at := 0; at <= n; at++ {
			for _, sp := range special {
				s := strings.Repeat("a", at) + sp + strings.Repeat("Z", n-at)
				want, _ := json.Marshal(s)
				if got := string(Append(nil, s, EncodingJSON)); got != string(want) {
					t.Fatalf("Append(%q) = %s, want %s", s, got, want)
				}
			}
		}
	}
}
