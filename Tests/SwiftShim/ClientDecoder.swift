// The JSONDecoder set up the way the ServiceStack Swift client sets up its own, for the JSON
// round-trip in SwiftGoldenTests: keys that are Swift keywords map to their capitalised
// property (`description` → `Description`), a property wrapper's `_` is dropped, and dates
// are read in both of ServiceStack's forms (`/Date(ms±zone)/` and ISO 8601). Not part of any target.
import Foundation

struct ClientKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { stringValue = String(intValue); self.intValue = intValue }
}

let clientKeywords: Set<String> = ["description", "class", "enum", "func", "import", "init", "operator", "is", "self", "super", "default", "case"]

func clientDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .custom { keys in
        let last = keys[keys.count - 1]
        if last.intValue != nil { return last }
        var key = last.stringValue
        if key.hasPrefix("_") { key.removeFirst() }
        if clientKeywords.contains(key) { key = key.prefix(1).uppercased() + key.dropFirst() }
        return ClientKey(stringValue: key)
    }
    decoder.dateDecodingStrategy = .custom { decoder in
        let text = try decoder.singleValueContainer().decode(String.self)
        if let date = clientDate(text) { return date }
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a date: \(text)"))
    }
    return decoder
}

/// `/Date(1700000000000-0000)/`, or ISO 8601 with or without fractional seconds and zone.
func clientDate(_ text: String) -> Date? {
    if text.hasPrefix("/Date(") {
        let digits = text.dropFirst(6).prefix { $0 == "-" || $0.isNumber }
        return Double(digits).map { Date(timeIntervalSince1970: $0 / 1000) }
    }
    let zoned = text.hasSuffix("Z") || text.dropFirst(19).contains("+") || text.dropFirst(19).contains("-") ? text : text + "Z"
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = formatter.date(from: zoned) { return date }
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.date(from: zoned)
}
