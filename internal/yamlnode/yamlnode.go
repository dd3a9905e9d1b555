// Package yamlnode is the one reader of structmerge's own YAML formats,
// schema files (package schema) and scenario files (internal/scenario):
// it reads the single document of a file into go.yaml.in/yaml/v3's node
// tree, whose positions those formats' messages name, with the YAML
// library's syntax errors turned into an *Error that carries the line.
// (Objects are read by package value: FromYAML with the same library,
// and FromManifest with kubectl's YAML 1.1 rules.)
//
// Concurrency: its functions keep no state; safe for concurrent use.
package yamlnode

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// Error is input that is not one YAML document.
type Error struct {
	// Line is the line the YAML library names, or 0.
	Line int
	// Msg says what is wrong, without the line ("yaml: did not find
	// expected key").
	Msg string
	// Err is the library's error, when it gave one.
	Err error
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }

// Read returns the root node of the single YAML document in data: its
// content, not the document node (nil when data holds no document, only
// comments or nothing). More than one document is an error, as is any
// syntax error; a panic of the YAML library is an error too, never a crash.
func Read(data []byte) (root *yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			root, err = nil, &Error{Msg: fmt.Sprintf("the YAML decoder failed: %v", r)}
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, libraryError(err)
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case errors.Is(err, io.EOF):
	case err != nil:
		return nil, libraryError(err)
	default:
		return nil, &Error{Line: extra.Line, Msg: "the file holds more than one YAML document"}
	}
	if doc.Kind == yaml.DocumentNode {
		if len(doc.Content) == 0 {
			return nil, nil
		}
		return doc.Content[0], nil
	}
	return &doc, nil
}

// libraryError splits the YAML library's "yaml: line N: what" messages
// into N and "yaml: what".
func libraryError(err error) *Error {
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, "yaml: line "); ok {
		if num, what, ok := strings.Cut(rest, ": "); ok {
			if n, convErr := strconv.Atoi(num); convErr == nil && n > 0 {
				return &Error{Line: n, Msg: "yaml: " + what, Err: err}
			}
		}
	}
	return &Error{Msg: msg, Err: err}
}
