package kube

import (
	"math/rand/v2"
	"testing"
)

// TestParsePlainIdentity: the quick reader gives what the JSON decoder
// gives whenever it answers, and answers for what the field managers write.
func TestParsePlainIdentity(t *testing.T) {
	keys := []string{
		identityOf("kubectl", OperationApply, "", ""),
		identityOf("kube-controller-manager", OperationUpdate, "apps/v1", "status"),
		identityOf("a\"b", OperationUpdate, "v1", ""),
		identityOf("é", OperationApply, "", ""),
		`{"manager":"m","operation":"Apply","manager":"n"}`,
		`{"manager":"m","operation":"Apply","x":"1","y":"2"}`,
		`{"manager":"m","operation":1}`,
		`{"manager":"m",}`,
		`{"manager" :"m"}`,
		`{"manager":"m"`,
		`{}`,
		`{"":""}`,
		`{"manager":"m\u0041"}`,
	}
	mustAnswer := map[string]bool{keys[0]: true, keys[1]: true}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte(`{}":,\ amnopr`)
	for range 20000 {
		b := []byte(keys[rng.IntN(2)])
		for range 1 + rng.IntN(3) {
			b[rng.IntN(len(b))] = alphabet[rng.IntN(len(alphabet))]
		}
		keys = append(keys, string(b))
	}
	for _, k := range keys {
		got, ok := parsePlainIdentity(k)
		if !ok {
			if mustAnswer[k] {
				t.Errorf("%s: the quick reader gave up", k)
			}
			continue
		}
		want, wok := decodeIdentity(k)
		if !wok || got != want {
			t.Errorf("%s: quick reader %+v, decoder %+v (%v)", k, got, want, wok)
		}
	}
}
