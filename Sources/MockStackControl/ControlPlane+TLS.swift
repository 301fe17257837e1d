import MockStackCore

extension ControlPlane {
    /// `GET /__mockstack/tls/ca.pem`: the CA a client trusts to reach the HTTPS port, as PEM
    /// (the type `openssl`, browsers and keychains take); 404 when the server made none.
    var certificateAuthorityAnswer: HTTPResponse {
        guard let certificateAuthority else {
            return PlainError.response(
                404,
                """
                This server made no CA: it serves HTTPS only with --https-port, and with --tls-cert the \
                certificate's issuer is the one given
                """)
        }
        return HTTPResponse(
            status: 200, headers: ["Content-Type": "application/x-pem-file"], body: Array(certificateAuthority.utf8))
    }
}
