package fieldpath

import (
	"strconv"
	"strings"
)

// SyntaxError reports malformed input to ParsePath or ParseFieldsV1.
type SyntaxError struct {
	// Input names what was being parsed: "path" or "FieldsV1".
	Input string
	// Offset is the byte offset in the input where the problem was found.
	Offset int
	// Key is the FieldsV1 object key being parsed ("f:name", `k:{"a":1}`,
	// ...), or "" when the problem is not inside a key or its value.
	Key string
	// Msg describes the problem.
	Msg string
	// Err is the underlying error, if any.
	Err error
}

// Error returns a one-line description naming the input, the byte offset
// and the key.
func (e *SyntaxError) Error() string {
	var b strings.Builder
	b.WriteString("fieldpath: bad ")
	b.WriteString(e.Input)
	b.WriteString(" at byte ")
	b.WriteString(strconv.Itoa(e.Offset))
	if e.Key != "" {
		b.WriteString(", key ")
		k := e.Key
		if len(k) > 80 {
			k = k[:80] + "..."
		}
		b.WriteString(strconv.Quote(k))
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *SyntaxError) Unwrap() error { return e.Err }
