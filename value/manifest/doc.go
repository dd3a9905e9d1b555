// Package manifest reads manifest files as kubectl reads them, into values
// of package value: Decode takes a JSON stream, or YAML documents split at
// "---" lines and read with YAML 1.1 rules (go.yaml.in/yaml/v2, the parser
// of sigs.k8s.io/yaml: yes, on and y are booleans, 0777 is octal), then
// sent through JSON as kubectl sends them (1.0 becomes 1). Repeated keys
// keep their last value and are listed (Document.Duplicates, DuplicateKey);
// the positions of fields are kept for messages (Document.Position).
//
// value.FromYAML, the scenario format and the schema format stay YAML 1.2:
// they are structmerge's own formats, not what kubectl sends.
//
// Decode takes value's decode options; value.MaxBytes and value.MaxDepth
// bound the input, and errors are *value.SyntaxError values.
//
// # Concurrency
//
// A Document is not modified after Decode returns; safe for concurrent
// reads. Decode keeps no state between calls, and no package-level
// variable is written after program start. The package does not use
// unsafe; the values it builds take their slices without a copy, through
// an internal package that package value fills.
package manifest
