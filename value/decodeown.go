package value

import (
	"github.com/structmerge/structmerge/internal/decodetext"
	"github.com/structmerge/structmerge/internal/valueown"
)

// chunks is the allocator of the slices of the maps and lists one
// decoding builds (see valueown.Chunks).
type chunks = valueown.Chunks[Field, Value]

// The operations that the module's other converters (packages gostruct
// and manifest) build on.
func init() {
	valueown.RegisterDecode(valueown.DecodeFuncs[Value, Field]{
		SortedMap:    mapValue,
		JSON:         decodeJSONWith,
		Unstructured: convertUnstructured,
	})
}

// decodeJSONWith decodes b as FromJSON(b, Like(like)) does, with the
// conversion's arenas c and the decoder dec it gave back last time.
func decodeJSONWith(dec any, b []byte, like Value, c chunks) (Value, any, chunks, error) {
	cfg, err := sizedOptions(len(b), nil, func(off int) (int, int) { return decodetext.LineColumn(b, off) })
	if err != nil {
		return Value{}, dec, c, err
	}
	d, _ := dec.(*jsonDecoder)
	if d == nil {
		d = &jsonDecoder{}
	}
	d.maxDepth, d.like = cfg.MaxDepth, like
	d.chunks = c
	v, err := d.document(string(b))
	c, d.chunks = d.chunks, chunks{}
	return v, d, c, err
}

// convertUnstructured converts x as FromUnstructured(x, Like(like),
// MaxDepth(maxDepth)) does; msg is the path of the failure and its
// message.
func convertUnstructured(x any, like Value, maxDepth int) (v Value, ok bool, msg string, sentinel error) {
	c := unstructuredConverter{maxDepth: maxDepth}
	if v, ok = c.convertLike(x, like); !ok {
		return Value{}, false, unstructuredPath(c.segs) + c.msg, c.err
	}
	return v, true, "", nil
}
