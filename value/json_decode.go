package value

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/structmerge/structmerge/internal/decodetext"
	"github.com/structmerge/structmerge/internal/jsonstr"
)

// FromJSON decodes one JSON document into a Value.
//
// Integers that fit an int64 become Int; integer literals too large for an
// int64, and numbers with a fraction or an exponent, become Float; a number
// beyond the range of a float64 is an error. Strings are unescaped like
// encoding/json does (invalid UTF-8 and lone surrogates become U+FFFD).
// An object with a repeated key, data after the value, input larger than
// MaxBytes and nesting deeper than MaxDepth are errors. Errors are
// *SyntaxError values carrying the byte offset, line, column and the JSON
// pointer of the enclosing value.
//
// The returned value may share memory with a private copy of data, never with
// data itself: the caller may reuse data afterwards.
func FromJSON(data []byte, opts ...DecodeOption) (Value, error) {
	cfg, err := sizedOptions(len(data), opts, func(off int) (int, int) { return decodetext.LineColumn(data, off) })
	if err != nil {
		return Value{}, err
	}
	return fromJSON(string(data), cfg)
}

// FromJSONString is FromJSON of a string. The returned value's strings may
// share memory with s (a string never changes): a caller that keeps s (to
// compare two inputs, say) keeps no second copy of its text.
func FromJSONString(s string, opts ...DecodeOption) (Value, error) {
	cfg, err := sizedOptions(len(s), opts, func(off int) (int, int) { return lineColumn(s, off) })
	if err != nil {
		return Value{}, err
	}
	return fromJSON(s, cfg)
}

// sizedOptions resolves opts for an input of n bytes, which must not be
// above their limit; at gives the line and column of an offset of the
// input.
func sizedOptions(n int, opts []DecodeOption, at func(int) (int, int)) (decodeConfig, error) {
	cfg, err := resolveOptions(opts)
	if err != nil {
		return cfg, err
	}
	if int64(n) > cfg.MaxBytes {
		line, col := at(int(cfg.MaxBytes))
		return cfg, &SyntaxError{
			Offset: cfg.MaxBytes, Line: line, Column: col, Err: ErrTooLarge,
			Msg: fmt.Sprintf("input of %d bytes exceeds the limit of %d bytes", n, cfg.MaxBytes),
		}
	}
	return cfg, nil
}

func fromJSON(text string, cfg decodeConfig) (Value, error) {
	d := jsonDecoder{maxDepth: cfg.MaxDepth, like: cfg.Like.Value}
	return d.document(text)
}

// document decodes text, one JSON document, with d's arenas and scratch
// stacks (a decoder may decode several documents, each value taking its
// containers from the arenas).
func (d *jsonDecoder) document(text string) (Value, error) {
	d.s, d.pos, d.err, d.segs = text, 0, nil, d.segs[:0]
	d.fields, d.keyOffs, d.items = d.fields[:0], d.keyOffs[:0], d.items[:0]
	if cap(d.fields) == 0 {
		// The scratch stacks start at a size the input suggests rather
		// than growing from nothing in many steps.
		scratch := min(32, len(text)/16+1)
		d.fields, d.keyOffs, d.items = make([]Field, 0, scratch), make([]int, 0, scratch), make([]Value, 0, scratch/2+1)
	}
	v, ok := d.value(0, d.like)
	if ok {
		d.skipWS()
		if d.pos < len(d.s) {
			d.fail(d.pos, nil, "invalid character "+quoteChar(d.s[d.pos])+" after top-level value")
			ok = false
		}
	}
	if !ok {
		e := d.err
		e.Path = pointerFromReversed(d.segs)
		e.Line, e.Column = lineColumn(d.s, int(e.Offset))
		return Value{}, e
	}
	return v, nil
}

// jsonDecoder is the state of one FromJSON call.
type jsonDecoder struct {
	s        string
	pos      int
	maxDepth int
	like     Value // the value whose equal parts the document shares (see Like)

	// Scratch stacks for the fields and items of the maps and lists being
	// decoded; a finished container copies its entries out.
	fields  []Field
	keyOffs []int
	items   []Value
	buf     []byte

	// strArena holds the unescaped strings; bytes written to it are
	// never changed (see keep).
	strArena []byte
	strChunk int

	// Arenas from which finished containers take their slices.
	chunks

	err  *SyntaxError
	segs []pathSeg // path to the error, innermost first
}

func (d *jsonDecoder) fail(off int, sentinel error, msg string) {
	d.err = &SyntaxError{Offset: int64(off), Msg: msg, Err: sentinel}
}

func (d *jsonDecoder) failEOF() (Value, bool) {
	d.fail(len(d.s), nil, "unexpected end of JSON input")
	return Value{}, false
}

func (d *jsonDecoder) skipWS() {
	s, i := d.s, d.pos
	for i < len(s) {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			i++
			continue
		}
		break
	}
	d.pos = i
}

// value decodes the value at d.pos; depth is the nesting depth of the
// enclosing container (0 at the top); like is the part of d.like at the
// same path (null when there is none).
func (d *jsonDecoder) value(depth int, like Value) (Value, bool) {
	d.skipWS()
	if d.pos >= len(d.s) {
		return d.failEOF()
	}
	switch c := d.s[d.pos]; c {
	case '"':
		s, ok := d.str()
		if ok && like.kind == String && s == like.str() {
			return like, true
		}
		return stringValue(s), ok
	case '{':
		return d.object(depth+1, like)
	case '[':
		return d.array(depth+1, like)
	case 't':
		return NewBool(true), d.literal("true")
	case 'f':
		return NewBool(false), d.literal("false")
	case 'n':
		return Value{}, d.literal("null")
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return d.number()
	default:
		d.fail(d.pos, nil, "invalid character "+quoteChar(c)+" looking for beginning of value")
		return Value{}, false
	}
}

func (d *jsonDecoder) literal(lit string) bool {
	if strings.HasPrefix(d.s[d.pos:], lit) {
		d.pos += len(lit)
		return true
	}
	for i := 1; i < len(lit); i++ {
		p := d.pos + i
		if p >= len(d.s) {
			d.failEOF()
			return false
		}
		if d.s[p] != lit[i] {
			d.fail(p, nil, fmt.Sprintf("invalid character %s in literal %s (expecting %s)", quoteChar(d.s[p]), lit, quoteChar(lit[i])))
			return false
		}
	}
	return false // unreachable: the prefix matched
}

func (d *jsonDecoder) tooDeep(off int) (Value, bool) {
	d.fail(off, ErrTooDeep, fmt.Sprintf("nesting exceeds the maximum depth of %d", d.maxDepth))
	return Value{}, false
}

func (d *jsonDecoder) object(depth int, like Value) (Value, bool) {
	start := d.pos
	if depth > d.maxDepth {
		return d.tooDeep(start)
	}
	d.pos++
	d.skipWS()
	if d.pos < len(d.s) && d.s[d.pos] == '}' {
		d.pos++
		return Value{kind: Map}, true
	}
	base := len(d.fields)
	// The object is like itself when each of its fields is a field of
	// like, a different one each time (mask, of at most 64), and all of
	// them are.
	likeFields := like.fields()
	same := like.kind == Map && len(likeFields) <= 64
	var mask uint64
	for {
		if d.pos >= len(d.s) {
			d.fields, d.keyOffs = d.fields[:base], d.keyOffs[:base]
			return d.failEOF()
		}
		if d.s[d.pos] != '"' {
			d.fields, d.keyOffs = d.fields[:base], d.keyOffs[:base]
			d.fail(d.pos, nil, "invalid character "+quoteChar(d.s[d.pos])+" looking for beginning of object key string")
			return Value{}, false
		}
		keyOff := d.pos
		name, ok := d.str()
		if !ok {
			d.fields, d.keyOffs = d.fields[:base], d.keyOffs[:base]
			return Value{}, false
		}
		d.skipWS()
		if d.pos >= len(d.s) {
			d.fields, d.keyOffs = d.fields[:base], d.keyOffs[:base]
			return d.failEOF()
		}
		if d.s[d.pos] != ':' {
			d.fields, d.keyOffs = d.fields[:base], d.keyOffs[:base]
			d.fail(d.pos, nil, "invalid character "+quoteChar(d.s[d.pos])+" after object key")
			return Value{}, false
		}
		d.pos++
		var lv Value
		if likeFields != nil {
			if j, found := like.fieldIndex(name); found {
				lv = likeFields[j].Value
				mask |= 1 << (j & 63)
			} else {
				same = false
			}
		} else {
			same = false
		}
		v, ok := d.value(depth, lv)
		same = same && Same(v, lv)
		if !ok {
			d.fields, d.keyOffs = d.fields[:base], d.keyOffs[:base]
			d.segs = append(d.segs, pathSeg{name: name, index: -1})
			return Value{}, false
		}
		d.fields = appendField(d.fields, name, v)
		d.keyOffs = append(d.keyOffs, keyOff)
		d.skipWS()
		if d.pos >= len(d.s) {
			d.fields, d.keyOffs = d.fields[:base], d.keyOffs[:base]
			return d.failEOF()
		}
		c := d.s[d.pos]
		if c == ',' {
			d.pos++
			d.skipWS()
			continue
		}
		if c == '}' {
			d.pos++
			break
		}
		d.fields, d.keyOffs = d.fields[:base], d.keyOffs[:base]
		d.fail(d.pos, nil, "invalid character "+quoteChar(c)+" after object key:value pair")
		return Value{}, false
	}
	scratch := d.fields[base:]
	if same && len(scratch) == len(likeFields) && bits.OnesCount64(mask) == len(scratch) {
		d.fields, d.keyOffs = d.fields[:base], d.keyOffs[:base]
		return like, true
	}
	out := d.AllocFields(len(scratch))
	sorted := fieldsSorted(scratch) // strictly: no name twice
	switch {
	case sorted:
		copy(out, scratch)
	case len(scratch) <= smallObject:
		// Go structs encode their fields in declaration order: sort the
		// positions of a small object's fields and copy each field once,
		// rather than moving whole fields (pointers, each move a write
		// the garbage collector may have to see) as a sort in place would.
		var order [smallObject]uint8
		for i := range scratch {
			j := i
			for ; j > 0 && scratch[order[j-1]].Name > scratch[i].Name; j-- {
				order[j] = order[j-1]
			}
			order[j] = uint8(i)
		}
		for i := range out {
			putField(&out[i], scratch[order[i]])
		}
	default:
		copy(out, scratch)
		slices.SortFunc(out, func(a, b Field) int { return strings.Compare(a.Name, b.Name) })
	}
	for i := 1; i < len(out) && !sorted; i++ {
		if out[i].Name == out[i-1].Name {
			d.duplicateKey(out[i].Name, scratch, d.keyOffs[base:])
			d.fields, d.keyOffs = d.fields[:base], d.keyOffs[:base]
			return Value{}, false
		}
	}
	d.fields, d.keyOffs = d.fields[:base], d.keyOffs[:base]
	return mapValue(out), true
}

// smallObject is the most fields of an object whose order object sorts
// by position.
const smallObject = 32

// duplicateKey reports the second occurrence of name among the fields of an
// object in input order.
func (d *jsonDecoder) duplicateKey(name string, fields []Field, offs []int) {
	seen := false
	for i := range fields {
		if fields[i].Name != name {
			continue
		}
		if seen {
			d.fail(offs[i], nil, "duplicate key "+strconv.Quote(name))
			d.segs = append(d.segs, pathSeg{name: name, index: -1})
			return
		}
		seen = true
	}
}

func (d *jsonDecoder) array(depth int, like Value) (Value, bool) {
	start := d.pos
	if depth > d.maxDepth {
		return d.tooDeep(start)
	}
	d.pos++
	d.skipWS()
	if d.pos < len(d.s) && d.s[d.pos] == ']' {
		d.pos++
		return Value{kind: List}, true
	}
	base := len(d.items)
	likeItems := like.items()
	same := like.kind == List
	for {
		var lv Value
		if i := len(d.items) - base; i < len(likeItems) {
			lv = likeItems[i]
		} else {
			same = false
		}
		v, ok := d.value(depth, lv)
		same = same && Same(v, lv)
		if !ok {
			d.segs = append(d.segs, pathSeg{index: len(d.items) - base})
			d.items = d.items[:base]
			return Value{}, false
		}
		d.items = append(d.items, v)
		d.skipWS()
		if d.pos >= len(d.s) {
			d.items = d.items[:base]
			return d.failEOF()
		}
		c := d.s[d.pos]
		if c == ',' {
			d.pos++
			continue
		}
		if c == ']' {
			d.pos++
			break
		}
		d.items = d.items[:base]
		d.fail(d.pos, nil, "invalid character "+quoteChar(c)+" after array element")
		return Value{}, false
	}
	scratch := d.items[base:]
	if same && len(scratch) == len(likeItems) {
		d.items = d.items[:base]
		return like, true
	}
	out := d.AllocItems(len(scratch))
	copy(out, scratch)
	d.items = d.items[:base]
	return listValue(out), true
}

// str decodes the string literal at d.pos (which is '"').
func (d *jsonDecoder) str() (string, bool) {
	s := d.s
	start := d.pos + 1
	for i := start; i < len(s); i++ {
		c := s[i]
		if c == '"' {
			d.pos = i + 1
			return s[start:i], true
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			return d.strSlow(start, i)
		}
	}
	d.failEOF()
	return "", false
}

// keep returns a copy of the unescaped string b, cut from an arena of
// such strings: one allocation for many (the k: keys of managed fields
// are escaped strings, hundreds in an object).
func (d *jsonDecoder) keep(b []byte) string {
	if cap(d.strArena)-len(d.strArena) < len(b) {
		// Chunks double from 256 bytes to 16 KiB.
		d.strChunk = min(max(2*d.strChunk, 256), 16<<10)
		d.strArena = make([]byte, 0, max(len(b), d.strChunk))
	}
	at := len(d.strArena)
	d.strArena = append(d.strArena, b...)
	return arenaString(d.strArena[at:])
}

// strSlow continues decoding a string that starts at start and needs care at
// i: an escape, a control character or a non-ASCII byte. It copies into
// d.buf only once the decoded text differs from the input.
func (d *jsonDecoder) strSlow(start, i int) (string, bool) {
	s := d.s
	copied := false
	buf := d.buf[:0]
	flushed := start // when copied, the decoded input before flushed is in buf
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"':
			d.pos = i + 1
			if !copied {
				return s[start:i], true
			}
			buf = append(buf, s[flushed:i]...)
			d.buf = buf
			return d.keep(buf), true
		case c == '\\':
			copied = true
			buf = append(buf, s[flushed:i]...)
			var st jsonstr.EscapeStatus
			buf, i, st = jsonstr.AppendEscape(buf, s, i)
			switch st {
			case jsonstr.EscapeEOF:
				d.failEOF()
				return "", false
			case jsonstr.EscapeBadLetter:
				d.fail(i, nil, "invalid character "+quoteChar(s[i])+" in string escape code")
				return "", false
			case jsonstr.EscapeBadHex:
				d.fail(i, nil, "invalid character "+quoteChar(s[i])+" in \\u hexadecimal character escape")
				return "", false
			}
			flushed = i
		case c < 0x20:
			d.fail(i, nil, "invalid character "+quoteChar(c)+" in string literal")
			return "", false
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				copied = true
				buf = append(buf, s[flushed:i]...)
				buf = append(buf, "\uFFFD"...)
				i++
				flushed = i
				continue
			}
			i += size
		}
	}
	d.failEOF()
	return "", false
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// number decodes the number at d.pos.
func (d *jsonDecoder) number() (Value, bool) {
	s := d.s
	start := d.pos
	i := start
	if s[i] == '-' {
		i++
	}
	if i >= len(s) {
		return d.failEOF()
	}
	switch c := s[i]; {
	case c == '0':
		i++
	case '1' <= c && c <= '9':
		for i++; i < len(s) && isDigit(s[i]); i++ {
		}
	default:
		d.fail(i, nil, "invalid character "+quoteChar(c)+" in numeric literal")
		return Value{}, false
	}
	intEnd := i
	isFloat := false
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) {
			return d.failEOF()
		}
		if !isDigit(s[i]) {
			d.fail(i, nil, "invalid character "+quoteChar(s[i])+" after decimal point in numeric literal")
			return Value{}, false
		}
		for ; i < len(s) && isDigit(s[i]); i++ {
		}
		isFloat = true
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) {
			return d.failEOF()
		}
		if !isDigit(s[i]) {
			d.fail(i, nil, "invalid character "+quoteChar(s[i])+" in exponent of numeric literal")
			return Value{}, false
		}
		for ; i < len(s) && isDigit(s[i]); i++ {
		}
		isFloat = true
	}
	d.pos = i
	lit := s[start:i]
	if !isFloat {
		digits := s[start:intEnd]
		neg := digits[0] == '-'
		if neg {
			digits = digits[1:]
		}
		if len(digits) <= 18 {
			var n int64
			for j := 0; j < len(digits); j++ {
				n = n*10 + int64(digits[j]-'0')
			}
			if neg {
				n = -n
			}
			return Value{kind: Int, n: uint64(n)}, true
		}
		if n, err := strconv.ParseInt(lit, 10, 64); err == nil {
			return Value{kind: Int, n: uint64(n)}, true
		}
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		d.fail(start, nil, "number "+decodetext.ShortLiteral(lit)+" is out of the range of a float64")
		return Value{}, false
	}
	return NewFloat(f), true
}
