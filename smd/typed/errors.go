package typed

import (
	"errors"
	"fmt"
	"strings"

	coretyped "github.com/structmerge/structmerge/typed"
)

// ValidationError is one problem found in a value: where (a path such as
// .spec.replicas) and what.
type ValidationError struct {
	Path         string
	ErrorMessage string
}

// Error returns "PATH: MESSAGE", or only the message when there is no path.
func (ve ValidationError) Error() string {
	if ve.Path == "" {
		return ve.ErrorMessage
	}
	return fmt.Sprintf("%s: %v", ve.Path, ve.ErrorMessage)
}

// ValidationErrors is every problem found by one operation.
type ValidationErrors []ValidationError

// Error returns one error as itself and several as a list headed "errors:",
// one per line, indented.
func (errs ValidationErrors) Error() string {
	if len(errs) == 1 {
		return errs[0].Error()
	}
	var b strings.Builder
	b.WriteString("errors:")
	for _, e := range errs {
		b.WriteString("\n  ")
		b.WriteString(e.Error())
	}
	return b.String()
}

// WithPath sets the path of every error to p, in place, and returns errs.
func (errs ValidationErrors) WithPath(p string) ValidationErrors {
	for i := range errs {
		errs[i].Path = p
	}
	return errs
}

// WithPrefix prepends prefix to the path of every error, in place, and
// returns errs.
func (errs ValidationErrors) WithPrefix(prefix string) ValidationErrors {
	for i := range errs {
		errs[i].Path = prefix + errs[i].Path
	}
	return errs
}

// WithLazyPrefix is WithPrefix with the prefix computed by fn, only when
// there are errors.
func (errs ValidationErrors) WithLazyPrefix(fn func() string) ValidationErrors {
	if len(errs) == 0 || fn == nil {
		return errs
	}
	return errs.WithPrefix(fn())
}

func errorf(format string, args ...interface{}) ValidationErrors {
	return ValidationErrors{{ErrorMessage: fmt.Sprintf(format, args...)}}
}

// validationErrors converts an error of structmerge's typed package into
// ValidationErrors; any other error becomes one ValidationError with its
// text.
func validationErrors(err error) error {
	if err == nil {
		return nil
	}
	var errs coretyped.Errors
	if errors.As(err, &errs) {
		out := make(ValidationErrors, len(errs))
		for i, e := range errs {
			out[i] = ValidationError{Path: e.Path.String(), ErrorMessage: e.Message}
		}
		return out
	}
	var e *coretyped.Error
	if errors.As(err, &e) {
		return ValidationErrors{{Path: e.Path.String(), ErrorMessage: e.Message}}
	}
	return ValidationErrors{{ErrorMessage: err.Error()}}
}
