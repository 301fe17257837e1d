import Foundation
import MockStackCore
import Testing
@testable import MockStackFeathers

/// `data` (docs/feathers.md#data-schemas): a generated v5 service's `validateData` hooks, Ajv
/// without coercion over `Type.Pick` for create and update and `Type.Partial` for patch, each
/// with `additionalProperties: false`; Ajv's first error, in its keyword order.
@Suite struct DataSchemaTests {
    let schema = DataSchema(
        properties: [SchemaProperty("id", .number), SchemaProperty("name", .string), SchemaProperty("age", .number),
                     SchemaProperty("rank", .integer), SchemaProperty("nickname", .string, nullable: true),
                     SchemaProperty("a/b~c", .boolean), SchemaProperty("$x", .boolean)],
        picked: [("name", false), ("age", false), ("rank", true), ("nickname", true), ("a/b~c", true), ("$x", true)])

    private func error(_ data: JSONValue, _ method: ServiceMethod = .create) -> JSONValue? {
        do {
            try schema.validate(data, for: method)
            return nil
        } catch {
            #expect(error.kind == .badRequest && error.message == "validation failed")
            #expect(error.data?.arrayValue?.count == 1)
            return error.data?.arrayValue?.first
        }
    }

    private static func ajv(_ path: String, _ schemaPath: String, _ keyword: String, _ params: JSONObject, _ message: String) -> JSONValue {
        ["instancePath": .string(path), "schemaPath": .string(schemaPath), "keyword": .string(keyword), "params": .object(params),
         "message": .string(message)]
    }

    @Test func valuesOfTheDeclaredTypesPass() {
        #expect(error(["name": "Ann", "age": 51]) == nil)
        #expect(error(["name": "Ann", "age": .number(JSONNumber(51.5)), "rank": .number(JSONNumber(literal: "2.0")), "nickname": .null]) == nil)
        #expect(error(["age": 3], .patch) == nil)
        // Patch takes any property of the schema, the id too (the adapter ignores it).
        #expect(error(["id": 7], .patch) == nil)
        #expect(error([:], .patch) == nil)
        // Methods without data are not checked.
        #expect(error(.null, .find) == nil && error(.null, .remove) == nil)
    }

    @Test func nothingIsCoerced() {
        #expect(error(["name": "A", "age": "51"]) == Self.ajv("/age", "#/properties/age/type", "type", ["type": "number"], "must be number"))
        #expect(error(["name": 123, "age": 1]) == Self.ajv("/name", "#/properties/name/type", "type", ["type": "string"], "must be string"))
        #expect(error(["name": "A", "age": 1, "rank": .number(JSONNumber(1.5))])?["message"] == "must be integer")
        #expect(error(["name": "A", "age": .null])?["message"] == "must be number")
        #expect(error(["name": "A", "age": 1, "nickname": 5]) == Self.ajv("/nickname", "#/properties/nickname/type", "type", ["type": ["string", "null"]], "must be string,null"))
    }

    @Test func ajvsKeywordOrderPicksTheFirstError() {
        // The type of the whole record first.
        #expect(error("text") == Self.ajv("", "#/type", "type", ["type": "object"], "must be object"))
        #expect(error(.null, .patch)?["message"] == "must be object")
        // Then `required`, in the schema's order, before any other problem.
        #expect(error(["age": "x", "extra": 1]) == Self.ajv("", "#/required", "required", ["missingProperty": "name"], "must have required property 'name'"))
        #expect(error(["name": "A"])?["params"] == ["missingProperty": "age"])
        // Then `additionalProperties`, naming the first extra key in JavaScript's order
        // (integer-like keys first), before the properties' types.
        #expect(error(["name": 1, "age": 1, "zeta": 1, "10": 1, "2": 1]) == Self.ajv("", "#/additionalProperties", "additionalProperties", ["additionalProperty": "2"], "must NOT have additional properties"))
        // Create does not take the id; patch does not require anything.
        #expect(error(["id": 1, "name": "A", "age": 1])?["params"] == ["additionalProperty": "id"])
        #expect(error(["nickname": 1, "age": "x"], .patch)?["instancePath"] == "/age")
    }

    @Test func updateTakesWhatCreateTakes() {
        #expect(error(["name": "A"], .update)?["params"] == ["missingProperty": "age"])
        #expect(error(["id": 0, "name": "A", "age": 1], .update)?["keyword"] == "additionalProperties")
    }

    @Test func aMultiCreateIsCheckedRecordByRecord() {
        #expect(error([["name": "A", "age": 1], ["name": "B", "age": "2"]]) == Self.ajv("/age", "#/properties/age/type", "type", ["type": "number"], "must be number"))
        #expect(error([["name": "A", "age": 1], 3])?["instancePath"] == "")
    }

    @Test func pathsEscapeKeysAsAjvDoes() {
        #expect(error(["name": "A", "age": 1, "a/b~c": "yes"]) == Self.ajv("/a~1b~0c", "#/properties/a~1b~0c/type", "type", ["type": "boolean"], "must be boolean"))
        #expect(error(["name": "A", "age": 1, "$x": 1])?["schemaPath"] == "#/properties/%24x/type")
    }
}

/// `resolveData` (docs/feathers.md#data-resolvers): the record as Feathers' `resolve()` builds it.
@Suite struct DataResolverTests {
    let resolver = DataResolver([DataResolver.Property("userId", .user(field: "id")), DataResolver.Property("createdAt", .now)])
    let moment = Date(timeIntervalSince1970: 1_700_000_000.1234)

    @Test func resolvedPropertiesFollowTheDatasOwn() {
        let record = resolver.resolve(["text": "hi", "b": 1], user: ["id": 7, "email": "a@b"], now: moment)
        #expect(record.keys == ["text", "b", "userId", "createdAt"])
        #expect(record["userId"] == 7 && record["createdAt"] == .number(JSONNumber(1_700_000_000_123)))
    }

    @Test func aResolvedPropertyTheDataAlsoHasTakesItsPlaceAmongTheResolved() {
        // The data's keys come first in the property list, so `createdAt` resolves before `userId`.
        let record = resolver.resolve(["createdAt": 1, "text": "hi"], user: ["id": 7], now: moment)
        #expect(record.keys == ["text", "createdAt", "userId"])
        #expect(record["createdAt"] == .number(JSONNumber(1_700_000_000_123)))
    }

    @Test func aFieldTheUserLacksIsLeftOut() {
        #expect(resolver.resolve(["text": "hi"], user: ["email": "a@b"], now: moment).keys == ["text", "createdAt"])
    }
}
