import MockStack
import MockStackTransport

/// `serve`'s HTTPS options: the port, where its certificate comes from, and where to write the
/// CA made at start (README.md, HTTPS).
struct TLSOptions {
    var httpsPort: Int?
    var certificate: String?
    var key: String?
    var authorityOut: String?
    var names: [String] = []

    static let options: [CommandOption<Self>] = [
        .value(
            "https-port", \.httpsPort, valueName: "port",
            help: """
                Also serve everything over HTTPS on this port (0 picks a free one), with a certificate for localhost, \
                127.0.0.1 and ::1 signed by a CA made at start (GET /__mockstack/tls/ca.pem).
                """),
        .value(
            "tls-cert", \.certificate, valueName: "file",
            help: "The HTTPS port's certificate (PEM, its chain may follow) instead of one made at start."),
        .value("tls-key", \.key, valueName: "file", help: "The private key of --tls-cert (PEM)."),
        .value(
            "tls-ca-out", \.authorityOut, valueName: "file",
            help: "Write the CA made at start here (PEM), before the ready line, for a client to trust."),
        .repeating(
            "tls-name", \.names, valueName: "name",
            help: """
                Another name the made certificate is for (repeatable): a host name (mockstack) or an IP address, \
                as a client in another container reaches the server.
                """),
    ]

    /// Each option's value alone.
    func validate() throws(UsageError) {
        if let httpsPort, !(0...65535).contains(httpsPort) {
            throw UsageError("--https-port must be between 0 and 65535")
        }
        for name in names where Self.subjectName(name) == nil {
            throw UsageError("--tls-name \(name): expected a host name (mockstack.local) or an IP address")
        }
    }

    /// The options together, checked when `serve` runs (its parse checks each option alone):
    /// the certificate options need `--https-port`, a certificate its key, and the options about
    /// the certificate made at start no certificate given.
    func checkCombination() throws(UsageError) {
        let given =
            [("--tls-cert", certificate), ("--tls-key", key), ("--tls-ca-out", authorityOut)]
            .filter { $0.1 != nil }.map(\.0) + (names.isEmpty ? [] : ["--tls-name"])
        if httpsPort == nil, let first = given.first { throw UsageError("\(first) needs --https-port") }
        if (certificate == nil) != (key == nil) {
            throw UsageError(certificate == nil ? "--tls-key needs --tls-cert" : "--tls-cert needs --tls-key")
        }
        if certificate != nil, authorityOut != nil || !names.isEmpty {
            let option = authorityOut != nil ? "--tls-ca-out" : "--tls-name"
            throw UsageError("\(option) is for the certificate made at start; --tls-cert gives one")
        }
    }

    /// The certificate source `validate` allowed.
    var certificateSource: TLSCertificateSource {
        if let certificate, let key { return .files(certificate: certificate, key: key) }
        return .generated(extraNames: names.compactMap(Self.subjectName))
    }

    /// A name as a subject alternative name: `IP:` for an address, `DNS:` for a host name; nil
    /// for anything else (a URL, a port, a space).
    static func subjectName(_ name: String) -> String? {
        let isAddress =
            name.contains(":")
            ? name.allSatisfy { $0.isHexDigit || $0 == ":" }
            : name.split(separator: ".", omittingEmptySubsequences: false).count == 4
                && name.split(separator: ".").allSatisfy { UInt8($0) != nil }
        if isAddress { return "IP:" + name }
        let label = name.split(separator: ".", omittingEmptySubsequences: false)
        let isHost =
            !name.isEmpty && name.utf8.count <= 253
            && label.allSatisfy { part in
                !part.isEmpty && part.count <= 63 && part.first != "-" && part.last != "-"
                    && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            }
            // A last label of digits alone reads as a broken address, not a name.
            && label.last?.contains(where: \.isLetter) == true
        return isHost ? "DNS:" + name : nil
    }

    /// Writes the CA made at start to `--tls-ca-out`; a file that cannot be written stops the
    /// server and ends the command with exit status 2.
    func writeAuthority(of server: MockStackServer) throws(ExitStatus) {
        guard let authorityOut, let pem = server.tls?.authorityPEM else { return }
        do {
            try writeFileAtomically(pem, to: authorityOut)
        } catch {
            printError("mockstack: cannot write --tls-ca-out \(authorityOut): \(error)")
            server.shutdown()
            throw ExitStatus(2)
        }
    }
}
