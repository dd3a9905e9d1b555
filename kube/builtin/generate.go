package builtin

//go:generate go run ./internal/gen
