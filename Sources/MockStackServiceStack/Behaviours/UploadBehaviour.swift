import MockStackCore

/// `upload`: services that take multipart files (docs/servicestack.md#uploads).
public struct UploadBehaviour: OperationBehaviour {
    public enum Format: Sendable, Equatable {
        /// test.servicestack.net's SpeechToText: three `results` texts describing the first file
        /// and the `Tag` / `RefId` values.
        case speechToText
        /// A fixed transcript, as AI Server's SpeechToText answers: each text in both `results`
        /// and the older `textOutputs` (Mock choice: Swift reads one, Python the other).
        case transcript([String])
        /// `TestFileUploads`: the request's values plus one `UploadInfo` per file in `files`.
        case fileList
        /// `TestUploadWithDto`: the bound request echoed, files ignored.
        case echo
    }

    public let format: Format
    /// The property named in the `ArgumentNullException` when no file arrives (`Audio`,
    /// `Files`); nil when files are optional.
    public let requiredFile: String?

    public init(format: Format, requiredFile: String?) {
        self.format = format
        self.requiredFile = requiredFile
    }

    public func perform(_ call: ServiceCall) throws(ServiceError) -> ServiceResult {
        if let requiredFile, call.files.isEmpty {
            throw ServiceError.argument(.argumentNull, "Value cannot be null.", parameter: requiredFile)
        }
        switch format {
        case .echo:
            return try ServiceResult(.dto(call.conformed(.object(call.request))))
        case .speechToText:
            let file = call.files[0]
            let texts = [
                """
                \(file.name), \(requiredFile ?? "File") \(file.bytes.count), \(file.fileName), \
                \(file.contentType ?? "")
                """,
                "Tag \(call.request.value(named: "Tag").text ?? "")",
                "RefId \(call.request.value(named: "RefId").text ?? "")",
            ]
            return try ServiceResult(.dto(call.conformed(.object(DTOObject([("Results", Self.textOutputs(texts))])))))
        case .transcript(let texts):
            if call.files.first?.bytes.isEmpty ?? true {
                throw ServiceError(.exception, "Failed to generate any text outputs")
            }
            let outputs = Self.textOutputs(texts)
            return try ServiceResult(
                .dto(call.conformed(.object(DTOObject([("Results", outputs), ("TextOutputs", outputs)])))))
        case .fileList:
            var response = call.request
            response["Files"] = .list(
                call.files.map { file in
                    .object(
                        DTOObject([
                            ("Name", .string(file.name)), ("FileName", .string(file.fileName)),
                            ("ContentLength", .number(JSONNumber(file.bytes.count))),
                            ("ContentType", file.contentType.map { .string($0) } ?? .null),
                        ]))
                })
            return try ServiceResult(.dto(call.conformed(.object(response))))
        }
    }

    private static func textOutputs(_ texts: [String]) -> DTOValue {
        .list(texts.map { .object(DTOObject([("Text", .string($0))])) })
    }
}
