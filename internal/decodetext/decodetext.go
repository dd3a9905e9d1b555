// Package decodetext holds the helpers on text that package value's
// decoders and package value/manifest share: positions in the input, the
// errors of the YAML parsers, YAML tags and float syntax, and literals
// abbreviated for messages.
//
// Concurrency: the functions are pure; safe for concurrent use.
package decodetext

import (
	"bytes"
	"strconv"
	"strings"
)

// LineColumn returns the line and column (1-based) of the byte at offset
// in data.
func LineColumn(data []byte, offset int) (line, col int) {
	offset = min(max(offset, 0), len(data))
	line = 1 + bytes.Count(data[:offset], []byte{'\n'})
	return line, offset - bytes.LastIndexByte(data[:offset], '\n')
}

// YAMLParseError reads an error of the YAML parsers ("yaml: line 3:
// msg"): the line, 0 when it names none, and the message after it.
func YAMLParseError(err error) (line int, msg string) {
	msg = strings.TrimPrefix(err.Error(), "yaml: ")
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if num, tail, ok := strings.Cut(rest, ": "); ok {
			if n, err := strconv.Atoi(num); err == nil {
				return n, tail
			}
		}
	}
	return 0, msg
}

// ShortYAMLTag writes a tag of the YAML core schema in its short form
// (tag:yaml.org,2002:str as !!str).
func ShortYAMLTag(tag string) string {
	if rest, ok := strings.CutPrefix(tag, "tag:yaml.org,2002:"); ok {
		return "!!" + rest
	}
	return tag
}

// YAMLFloatSyntax accepts [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
// and the integer forms with base prefixes that an explicit !!float may tag.
func YAMLFloatSyntax(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	if strings.HasPrefix(s[i:], "0x") || strings.HasPrefix(s[i:], "0o") || strings.HasPrefix(s[i:], "0b") {
		_, err := strconv.ParseInt(s, 0, 64)
		return err == nil
	}
	digits := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		frac := 0
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
			frac++
		}
		if digits == 0 && frac == 0 {
			return false
		}
	} else if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		exp := 0
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
			exp++
		}
		if exp == 0 {
			return false
		}
	}
	return i == len(s)
}

// ShortLiteral abbreviates a long literal for an error message, keeping its
// start and end and saying how long it was.
func ShortLiteral(lit string) string {
	const keep = 20
	if len(lit) <= 2*keep+10 {
		return lit
	}
	return lit[:keep] + "..." + lit[len(lit)-keep:] + " (" + strconv.Itoa(len(lit)) + " characters)"
}
