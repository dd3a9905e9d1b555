//go:build ignore

// Command kube-apiserver-pki writes the certificates and keys a test
// kube-apiserver on loopback needs, for machines without openssl:
//
//	ca.crt, ca.key          a self-signed CA
//	server.crt, server.key  a serving certificate for 127.0.0.1 and localhost,
//	                        signed by the CA
//	sa.key, sa.pub          the service-account signing key and its public key
//
// All keys are ECDSA P-256, PEM encoded (PKCS#8 and PKIX); the certificates
// are valid for a week.
//
// Used by scripts/kube-apiserver.sh: go run scripts/kube-apiserver-pki.go DIR.
package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run scripts/kube-apiserver-pki.go DIR")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "kube-apiserver-pki:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	now := time.Now()
	caKey, err := newKey(dir, "ca.key")
	if err != nil {
		return err
	}
	ca := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "structmerge-e2e-ca"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(7 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		return err
	}
	if ca, err = x509.ParseCertificate(caDER); err != nil {
		return err
	}
	if err := writePEM(dir, "ca.crt", "CERTIFICATE", caDER); err != nil {
		return err
	}

	serverKey, err := newKey(dir, "server.key")
	if err != nil {
		return err
	}
	server := &x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: "kube-apiserver"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(7 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames:     []string{"localhost"},
	}
	serverDER, err := x509.CreateCertificate(rand.Reader, server, ca, &serverKey.PublicKey, caKey)
	if err != nil {
		return err
	}
	if err := writePEM(dir, "server.crt", "CERTIFICATE", serverDER); err != nil {
		return err
	}

	saKey, err := newKey(dir, "sa.key")
	if err != nil {
		return err
	}
	saPub, err := x509.MarshalPKIXPublicKey(&saKey.PublicKey)
	if err != nil {
		return err
	}
	return writePEM(dir, "sa.pub", "PUBLIC KEY", saPub)
}

// newKey makes a P-256 key and writes it to dir/name.
func newKey(dir, name string) (*ecdsa.PrivateKey, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, err
	}
	return key, writePEM(dir, name, "PRIVATE KEY", der)
}

func writePEM(dir, name, kind string, der []byte) error {
	return os.WriteFile(filepath.Join(dir, name), pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der}), 0o600)
}
