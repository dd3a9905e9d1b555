// Package cli implements the structmerge command: it parses flags and calls
// the library. It holds no logic of its own beyond reading manifests and
// presenting results.
//
// The commands follow kubectl's conventions:
//
//   - apply: server-side apply of manifests (-f FILE|DIR|-, -R) to live
//     objects (--live), matched by apiVersion, kind, namespace and name;
//     prints the results with managedFields, or the API server's conflict
//     message with kubectl's advice and each conflict's owner and values.
//   - diff: a unified diff of live against merged (or --summary, -o json,
//     or $KUBECTL_EXTERNAL_DIFF on LIVE-* and MERGED-* directories).
//   - blame: the object as YAML with each owned line annotated.
//   - owners: the fields of each manager (-o json: a stable shape, documented
//     in its --help).
//   - validate: every schema problem with file, document and field path.
//   - scenario run: scenario files (package internal/scenario).
//
// Manifests (and --live objects) are read with manifest.Decode, the
// values kubectl would send; a repeated key is a warning on standard error
// (a problem for validate).
//
// Exit statuses: 0 success (no change, for diff), 1 conflicts, problems or
// changes, 2 bad input. Errors and validate's problems are one line that
// starts with file:line:column of the field at fault (or of its nearest
// enclosing value written in the file), then the object and the field path. The clock can be fixed with $STRUCTMERGE_NOW
// (RFC 3339) for reproducible output; the command tests do.
//
// # Concurrency
//
// Main keeps no package-level mutable state: each call builds its own
// command tree, schema setup and field manager, so calls may run
// concurrently (TestConcurrentCommands checks it under -race), sharing only
// the immutable built-in schema.
package cli
