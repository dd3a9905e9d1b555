package value

// Allocator lets a caller reuse the small objects that views over values
// need. This implementation makes no such objects that outlive a call, so
// every allocator behaves like HeapAllocator; they are kept for the API.
// Only this package can implement Allocator.
type Allocator interface {
	// Free gives back an object an As... or Range call returned; it is
	// optional.
	Free(any)
	allocator()
}

// HeapAllocator allocates from the heap and frees nothing.
var HeapAllocator = &heapAllocator{}

type heapAllocator struct{}

func (*heapAllocator) Free(any)   {}
func (*heapAllocator) allocator() {}

// NewFreelistAllocator returns an allocator meant for one goroutine. Since
// the views of this package are plain values, it reuses nothing.
func NewFreelistAllocator() Allocator { return &freelistAllocator{} }

type freelistAllocator struct{}

func (*freelistAllocator) Free(any)   {}
func (*freelistAllocator) allocator() {}
