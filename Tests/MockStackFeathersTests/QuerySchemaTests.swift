import MockStackCore
import Testing
@testable import MockStackFeathers

/// `coerce` (docs/feathers.md#query-schemas): query-string text becomes the declared types, and anything
/// the generated app's query schema does not allow is a 400 `validation failed` with Ajv's
/// error objects as `data`.
@Suite struct QuerySchemaTests {
    let schema = QuerySchema(properties: [SchemaProperty("id", .number), SchemaProperty("name", .string), SchemaProperty("age", .number, nullable: true),
                                          SchemaProperty("created", .boolean), SchemaProperty("rank", .integer)])

    private func coerce(_ text: String) throws(FeathersError) -> JSONValue { .object(try schema.coerce(QSParser().parse(text))) }

    private func failure(_ text: String) -> JSONValue? {
        do {
            _ = try coerce(text)
            return nil
        } catch {
            #expect(error.kind == .badRequest && error.message == "validation failed")
            return error.data
        }
    }

    @Test func textBecomesTheDeclaredTypes() throws {
        #expect(try coerce("age=30&created=true&name=Bob&rank=2") == ["age": 30, "created": true, "name": "Bob", "rank": 2])
        #expect(try coerce("age[$gt]=18&age[$lt]=30.5") == ["age": ["$gt": 18, "$lt": .number(JSONNumber(30.5))]])
        #expect(try coerce("id[$in][]=1&id[$in][]=2&created[$ne]=false") == ["id": ["$in": [1, 2]], "created": ["$ne": false]])
        #expect(try coerce("$limit=2&$skip=0&$sort[age]=-1&$select[]=name") == ["$limit": 2, "$skip": 0, "$sort": ["age": -1], "$select": ["name"]])
        #expect(try coerce("$or[0][age]=19&$and[0][$or][0][name]=Alice") == ["$or": [["age": 19]], "$and": [["$or": [["name": "Alice"]]]]])
        // FeathersSwift's `$sort[x]=0` is allowed (no ordering).
        #expect(try coerce("$sort[name]=0") == ["$sort": ["name": 0]])
        // A nullable property reads an empty value as null.
        #expect(try coerce("age=") == ["age": .null])
    }

    @Test func anythingElseIsAjvsError() {
        #expect(failure("nickname=x") == [["instancePath": "", "schemaPath": "#/additionalProperties", "keyword": "additionalProperties",
                                           "params": ["additionalProperty": "nickname"], "message": "must NOT have additional properties"]])
        #expect(failure("$limit=-1") == [["instancePath": "/$limit", "schemaPath": "#/properties/%24limit/minimum", "keyword": "minimum",
                                          "params": ["comparison": ">=", "limit": 0], "message": "must be >= 0"]])
        #expect(failure("$limit=abc")?.arrayValue?.first?["message"] == "must be number")
        #expect(failure("rank=1.5")?.arrayValue?.first?["message"] == "must be integer")
        #expect(failure("created=yes")?.arrayValue?.map { $0["keyword"] } == ["type", "type", "anyOf"])
        #expect(failure("age=old")?.arrayValue?.first == ["instancePath": "/age", "schemaPath": "#/properties/age/anyOf/0/type", "keyword": "type", "params": ["type": ["number", "null"]], "message": "must be number,null"])
        #expect(failure("$sort[age]=2")?.arrayValue?.first?["message"] == "must be <= 1")
        #expect(failure("$sort[age]=-2")?.arrayValue?.first?["keyword"] == "minimum")
        #expect(failure("$select[]=nickname")?.arrayValue?.first?["keyword"] == "enum")
        #expect(failure("age[$like]=3")?.arrayValue?.first?["params"] == ["additionalProperty": "$like"])
        #expect(failure("age[$in]=3")?.arrayValue?.first?["message"] == "must be array")
        // `$and` is not allowed inside `$or`.
        #expect(failure("$or[0][$and][0][age]=1") != nil)
        // The FeathersSwift client's `$select=["name"]` is text: refused.
        #expect(failure("$select=%5B%22name%22%5D")?.arrayValue?.first?["message"] == "must be array")
    }
}
