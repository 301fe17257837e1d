import Logging
import MockStack
import MockStackCore
import MockStackTransport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Serve {
    /// The server's configuration from the options and their environment fallbacks: what it
    /// loads, how it listens, the control plane's limits, forwarding, and the transport that
    /// handles SIGINT/SIGTERM (and, under `--stop-on-stdin-eof`, the end of standard input).
    func assembledConfiguration(logger: Logger) throws -> MockStackConfiguration {
        var configuration = MockStackConfiguration(
            host: serverOptions.resolvedHost,
            port: try serverOptions.resolvedPort() ?? defaults.port,
            fixtures: try fixtures.folders().folders,
            exposed: expose.map { (app: $0.app, port: $0.port) },
            apps: (apps ?? EnvironmentVariable.value("MOCKSTACK_APPS")).map {
                $0.split(separator: ",").map { String($0.filter { $0 != " " }) }.filter { !$0.isEmpty }
            }
        )
        configuration.version = MockStackVersion.description(commit: buildCommit)
        configuration.fixedDate = fixedDate
        configuration.journalSize = journalSize
        configuration.journalBodyBytes = journalBodyBytes
        configuration.watchesFixtures = watch
        configuration.stubFolders = stubs.map { URL(fileURLWithPath: $0) }
        configuration.seed = seed
        configuration.maxSessions = maxSessions
        configuration.adminToken = EnvironmentVariable.adminToken(given: adminToken)
        configuration.proxyUnmatched = try proxyUnmatched.map { try UpstreamTarget(parsing: $0) }
        configuration.proxyTimeoutSeconds = proxyTimeout
        configuration.proxyLibcurl = UpstreamLibrary.chosen(EnvironmentVariable.value(UpstreamLibrary.environmentName))
        if configuration.proxyUnmatched != nil {
            try UpstreamLibrary.open(configuration.proxyLibcurl, for: "--proxy-unmatched")
        }
        configuration.loadCacheFolder =
            noLoadCache
            ? nil : LoadCache.defaultFolder(environment: EnvironmentVariable.values(LoadCache.environmentNames))
        // A measurement knob (Benchmarks/startup.py): deferred apps built only by their first request.
        configuration.buildsDeferredAppsInBackground = EnvironmentVariable.value("MOCKSTACK_BACKGROUND_BUILD") != "off"
        configuration.httpsPort = tls.httpsPort
        configuration.tlsCertificate = tls.certificateSource
        configuration.transport = transportConfiguration(logger: logger)
        return configuration
    }

    /// Loops, limits and timeouts from the options; signals handled, and the end of standard
    /// input watched under `--stop-on-stdin-eof` (the lifeline a spawning test process holds).
    private func transportConfiguration(logger: Logger) -> TransportConfiguration {
        var transport = TransportConfiguration(
            threads: threads, maxBodyBytes: maxBodyBytes, maxHeaderBytes: maxHeaderBytes,
            timeoutSeconds: timeout, handlesSignals: true, logger: logger
        )
        transport.stopsAtEndOfInput = stopOnStdinEof ? 0 : nil
        return transport
    }
}
