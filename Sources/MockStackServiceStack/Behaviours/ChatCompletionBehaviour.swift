import MockStackCore

/// `chatCompletion`: AI Server's `OpenAiChatCompletion`, answered with a canned completion so
/// that a chat client's tests run offline. The answer has the real `OpenAiChatResponse` shape
/// (`id`, `choices[{finish_reason, index, message{content, role}}]`, `created`, `model`,
/// `object`, `usage`) and is the same for the same request: nothing is drawn from a clock or a
/// generator unless the manifest asks for the clock (`"created": "now"`).
///
/// As AI Server's chat service refuses them: no messages → `ArgumentNullException` for
/// `Messages` (400); a model it does not know → `404 NotFound` "Model {model} not found".
public struct ChatCompletionBehaviour: OperationBehaviour {
    /// The models the server knows, compared as written.
    public let models: [String]
    /// The assistant's answer to every request.
    public let content: String
    /// The completion's `id`.
    public let id: String
    /// `created`: fixed seconds since 1970, or nil for the request's moment.
    public let created: Int64?
    /// `system_fingerprint`, left out when nil (AI Server passes on the provider's).
    public let systemFingerprint: String?

    public init(models: [String], content: String, id: String, created: Int64?, systemFingerprint: String?) {
        self.models = models
        self.content = content
        self.id = id
        self.created = created
        self.systemFingerprint = systemFingerprint
    }

    public func perform(_ call: ServiceCall) throws(ServiceError) -> ServiceResult {
        let messages = call.request.value(named: "Messages").listValue ?? []
        if messages.isEmpty {
            throw ServiceError.argument(.argumentNull, "Value cannot be null.", parameter: "Messages")
        }
        let model = call.request.value(named: "Model").text ?? ""
        guard models.contains(model) else { throw ServiceError.http(404, "Model \(model) not found") }
        let promptTokens = messages.reduce(0) {
            $0 + Self.tokens(in: $1.objectValue?.value(named: "Content").text ?? "")
        }
        let completionTokens = Self.tokens(in: content)
        let seconds = created ?? call.now.ticks.floorDivided(by: CivilTime.ticksPerSecond)

        let message = DTOObject([("Content", .string(content)), ("Role", .string("assistant"))])
        let choice = DTOObject([
            ("FinishReason", .string("stop")), ("Index", .number(JSONNumber(0))), ("Message", .object(message)),
        ])
        let usage = DTOObject([
            ("CompletionTokens", .number(JSONNumber(completionTokens))),
            ("PromptTokens", .number(JSONNumber(promptTokens))),
            ("TotalTokens", .number(JSONNumber(promptTokens + completionTokens))),
        ])
        var response = DTOObject([
            ("Id", .string(id)), ("Choices", .list([.object(choice)])), ("Created", .number(JSONNumber(Int(seconds)))),
            ("Model", .string(model)),
        ])
        if let systemFingerprint { response["SystemFingerprint"] = .string(systemFingerprint) }
        response["Object"] = .string("chat.completion")
        response["Usage"] = .object(usage)
        return ServiceResult(.dto(Self.leavingOutToolCalls(try call.conformed(.object(response)))))
    }

    /// A deterministic stand-in for a tokenizer: the words of a text (runs without spaces).
    static func tokens(in text: String) -> Int {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).count
    }

    /// The answer with each choice's unset `ToolCalls` left out rather than written `[]`: AI
    /// Server writes its responses with System.Text.Json, which leaves nulls out.
    private static func leavingOutToolCalls(_ answer: DTOValue) -> DTOValue {
        guard case .object(var object) = answer, case .list(let choices) = object["Choices"] else { return answer }
        object["Choices"] = .list(
            choices.map { choice in
                guard case .object(var fields) = choice, case .object(var message) = fields["Message"] else {
                    return choice
                }
                message.leftOutWhenUnset = ["ToolCalls"]
                fields["Message"] = .object(message)
                return .object(fields)
            })
        return .object(object)
    }
}
