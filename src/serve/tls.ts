// The serving certificate of `faultline serve`: made at start, self-signed, for 127.0.0.1 and
// localhost, and handed to clients as their certificate authority in the kubeconfig
// (`certificate-authority-data`), so that @kubernetes/client-node, client-go and the Python client
// verify the server as they verify a real one. kube-apiserver given no certificate makes one for
// its bind address and "localhost" (k8s.io/apiserver pkg/server/options/serving.go
// MaybeDefaultWithSelfSignedCerts → client-go util/cert GenerateSelfSignedCertKey, which signs it
// with a CA made beside it; Kubernetes 1.32); here one self-signed certificate is both.

import { generate } from "selfsigned";

export interface ServingCert {
  /** PEM private key */
  key: string;
  /** PEM certificate, its own authority */
  cert: string;
}

/** A fresh certificate for 127.0.0.1 and localhost, valid from now for a year (the wall clock: this is I/O). */
export async function servingCert(host: string): Promise<ServingCert> {
  const now = new Date();
  const notAfter = new Date(now.getTime() + 365 * 24 * 3600 * 1000);
  const pems = await generate([{ name: "commonName", value: `faultline-serve@${host}` }], {
    keyType: "ec",
    curve: "P-256",
    algorithm: "sha256",
    notBeforeDate: new Date(now.getTime() - 60_000),
    notAfterDate: notAfter,
    extensions: [
      // Its own authority (what GenerateSelfSignedCertKey's CA is), for server authentication.
      { name: "basicConstraints", cA: true, critical: true },
      { name: "keyUsage", digitalSignature: true, keyEncipherment: true, keyCertSign: true, critical: true },
      { name: "extKeyUsage", serverAuth: true },
      {
        name: "subjectAltName",
        altNames: [
          { type: 7, ip: host },
          { type: 2, value: "localhost" },
        ],
      },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}
