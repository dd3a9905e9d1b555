package value_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/structmerge/structmerge/value"
)

func TestScratchYAML(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune(" \t\n\r\x00\x01\x1b\x7f\u0085\u00a0\u2028\u2029\ufeff\ufffe\U0001F600ab-:#'\"\\?{}[],&*!|>%@`<=~.0e+")
	fails := 0
	for range 300000 {
		b := make([]rune, r.IntN(10))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		v := mapOf(string(b), listOf(value.NewString(string(b))))
		y := value.ToYAML(v)
		back, err := value.FromYAML(y)
		if err != nil || !value.Equal(back, v) {
			fails++
			if fails < 15 {
				fmt.Printf("FAIL %v\n%s\n-> %v %v\n\n", v, y, back, err)
			}
		}
	}
	fmt.Println("fails", fails)
}
