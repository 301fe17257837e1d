import MockStackCore

/// Writes a ``ServiceError`` as ServiceStack does (docs/servicestack.md#error-responses): the status from the exception
/// table, a `ResponseStatus` inside the operation's error wrapper, value-type defaults of that
/// wrapper still written, and in DebugMode a `stackTrace`.
struct ErrorRenderer {
    let context: AppContext

    /// - Parameters:
    ///   - operation: the operation that failed, or nil when the request named none.
    ///   - request: the bound request DTO, when binding got that far (it heads the stack trace).
    func response(
        for error: ServiceError, operation: ServiceOperation?, request: DTOObject?, verb: String, jsconfig: String?,
        now: DateTimeValue
    ) -> HTTPResponse {
        let writer = context.writer(
            operation?.dialect ?? context.host.dialect, jsconfig: jsconfig, emitEmptyCollections: false)
        let trace =
            context.host.debugMode && !error.omitsStackTrace
            ? stackTrace(for: error, operation: operation, request: request, verb: verb, now: now) : nil
        var out: [UInt8] = []
        out.reserveCapacity(256)
        out.append(UInt8(ascii: "{"))
        var first = true
        let emptyWrapper = DTOObject()
        var wroteStatus = false
        // The wrapper is a fresh instance: its value types still write their defaults.
        if let type = operation?.errorWrapperType {
            let statusName = type.responseStatusProperty?.name
            // By index, each property read in place (see DTOWriter's objects).
            let properties = type.properties
            for index in properties.indices {
                if properties[index].name == statusName {
                    writer.writeStatus(
                        of: error, message: Self.htmlEncodedIfScript(error.message), stackTrace: trace,
                        key: writer.key(for: properties[index]), first: &first, into: &out)
                    wroteStatus = true
                } else {
                    writer.writeMember(
                        properties[index].name, key: writer.key(for: properties[index]), shape: properties[index].shape,
                        of: emptyWrapper, first: &first, into: &out)
                }
            }
        }
        // Mock choice: a wrapper without a ResponseStatus property (HelloResponse) still carries
        // the status, last, so the client learns what went wrong.
        if !wroteStatus {
            writer.writeStatus(
                of: error, message: Self.htmlEncodedIfScript(error.message), stackTrace: trace,
                key: writer.key(for: "ResponseStatus"), first: &first, into: &out)
        }
        out.append(UInt8(ascii: "}"))
        return .json(error.status, bytes: out)
    }

    /// `"[{Op}: {UtcNow}]:\n[REQUEST: {JSV}]\n"` (only with a request DTO), then the exception's
    /// `ToString()` (nothing for an `HttpError`) and a line break. The exact text is Unverified;
    /// clients only check that it is there. As UTF-8, written into the body without becoming a `String`.
    func stackTrace(
        for error: ServiceError, operation: ServiceOperation?, request: DTOObject?, verb: String, now: DateTimeValue
    ) -> [UInt8] {
        var trace: [UInt8] = []
        trace.reserveCapacity(256)
        if let operation, let request {
            trace.append(UInt8(ascii: "["))
            trace += operation.name.utf8
            trace.append(UInt8(ascii: ":"))
            trace.append(UInt8(ascii: " "))
            trace += context.debugDateText(now).utf8
            trace += Self.requestPrefix
            JSVWriter(catalog: context.catalog).write(request, of: operation.requestType, into: &trace)
            trace.append(UInt8(ascii: "]"))
            trace.append(UInt8(ascii: "\n"))
        }
        if case .httpError = error.kind {
        } else {
            trace += error.kind.fullName.utf8
            trace.append(UInt8(ascii: ":"))
            trace.append(UInt8(ascii: " "))
            trace += error.message.utf8
            trace += Self.atPrefix
            if let operation {
                // `Service.Get(Op request)`, written piece by piece: no interpolated String.
                trace += operation.serviceClass.utf8
                trace.append(UInt8(ascii: "."))
                if operation.actions.contains(verb) {
                    Self.appendMethodName(verb, into: &trace)
                } else {
                    trace += Self.anyMethod
                }
                trace.append(UInt8(ascii: "("))
                trace += operation.name.utf8
                trace += Self.requestSuffix
            } else {
                trace += Self.executeFrame
            }
        }
        trace.append(UInt8(ascii: "\n"))
        return trace
    }

    /// A verb as a .NET method name: its first character, the rest lower-cased (`GET` → `Get`).
    /// Verbs an operation declares are ASCII; anything else goes through `lowercased()`.
    private static func appendMethodName(_ verb: String, into out: inout [UInt8]) {
        guard verb.utf8.allSatisfy({ $0 < 0x80 }) else {
            out += (verb.prefix(1) + verb.dropFirst().lowercased()).utf8
            return
        }
        for (index, byte) in verb.utf8.enumerated() {
            out.append(index > 0 ? byte.asciiLowercased : byte)
        }
    }

    private static let anyMethod = Array("Any".utf8)
    private static let requestSuffix = Array(" request)".utf8)
    private static let executeFrame = Array(
        "ServiceStack.Host.ServiceController.Execute(Object requestDto, IRequest req)".utf8)

    /// Between the date and the request in a stack trace, as bytes once (each literal's
    /// `.utf8` appended costs more than the bytes it holds).
    private static let requestPrefix = Array("]:\n[REQUEST: ".utf8)
    private static let atPrefix = Array("\n   at ".utf8)

    /// ServiceStack HTML-encodes a message only when it contains `<script`.
    static func htmlEncodedIfScript(_ message: String) -> String {
        // Over the message's bytes in place, not `utf8.contains`, which walks the view's
        // iterator: every error body makes this check.
        let hasTag = UTF8Bytes.withSpan(message) { bytes in bytes.indices.contains { bytes[$0] == UInt8(ascii: "<") } }
        guard hasTag, message.lowercased().contains("<script") else { return message }
        return HTMLEncoding.encode(message)
    }
}
