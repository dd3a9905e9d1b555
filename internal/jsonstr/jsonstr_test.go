package jsonstr

import (
	"encoding/json"
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
