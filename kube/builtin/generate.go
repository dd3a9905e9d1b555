package builtin

//go:generate go run ./internal/gen
//go:generate go run ./internal/registrygen
