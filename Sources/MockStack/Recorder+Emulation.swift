public import MockStackProxy
import MockStackServiceStack

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension Recorder {
    /// A recorder whose ServiceStack apps name the routes their host publishes with a variable
    /// no request property binds, as the emulation reads the metadata: the app it writes loads
    /// as it is (`operations.{Op}.unboundRouteVariables`, Fixtures/README.md).
    public convenience init(
        out: URL, appName: String, kind: RecordingKind, client: UpstreamClient, masking: SecretMasking
    ) throws(RecordingError) {
        try self.init(
            out: out, appName: appName, kind: kind, client: client, masking: masking,
            unboundRouteVariables: ServiceStackAppKind.unboundRouteVariables(inMetadata:))
    }
}
