// Package merge applies and updates objects on behalf of named managers, the
// way Kubernetes server-side apply does: it merges a manager's configuration
// into the live object, tracks which manager owns which field (per API
// version), reports conflicts with other managers, and prunes the fields a
// manager stopped applying unless someone else still owns them.
//
// # Concurrency
//
// An Updater is immutable after NewUpdater; safe for concurrent use. Its
// methods never modify their arguments: managers are returned as a new map,
// objects as new values that may share unchanged subtrees with the inputs.
package merge
