import MockStackJSON
import Testing

/// `JSONReader`: typed reads of a document that name, as a JSON pointer, what is wrong.
struct JSONReaderTests {
    private func reader(_ text: String) throws -> JSONReader {
        try JSONReader(root: JSONParser().parse(Array(text.utf8)).root)
    }

    @Test func readsEachKindAndTreatsNullAsAbsent() throws {
        let root = try reader(#"""
            {"name":"a","off":null,"on":true,"tags":["x","y"],"items":[{"n":"1"}],"child":{"k":"v"}}
            """#)
        #expect(try root.string("name") == "a")
        #expect(try root.optionalString("off") == nil)
        #expect(try root.optionalString("missing") == nil)
        #expect(try root.flag("on") == true)
        #expect(try root.flag("off") == false)
        #expect(try root.flag("missing") == false)
        #expect(try root.strings("tags") == ["x", "y"])
        #expect(try root.strings("off") == [])
        #expect(try root.array("items").map { reader throws(JSONReadError) in try reader.string("n") } == ["1"])
        #expect(try root.object("child", required: true)?["k"]?.stringValue == "v")
        #expect(try root.object("missing", required: false) == nil)
        #expect(try root.child("off") == nil)
    }

    @Test func anErrorNamesThePointerOfWhatIsWrong() throws {
        let root = try reader(#"""
            {"types":[{"name":"A"},{"name":7,"props":[{"t":["x",3]}]}],"a/b":{"c":1},"flag":"yes"}
            """#)
        let types = try root.array("types")
        #expect(types[1].pointer == "/types/1")
        #expect(throws: JSONReadError(pointer: "/types/1/name", message: "expected a string, found number")) {
            _ = try types[1].string("name")
        }
        #expect(throws: JSONReadError(pointer: "/types/0/kind", message: "'kind' is required")) {
            _ = try types[0].string("kind")
        }
        let props = try types[1].array("props")
        #expect(throws: JSONReadError(pointer: "/types/1/props/0/t/1", message: "expected a string, found number")) {
            _ = try props[0].strings("t")
        }
        // Keys are escaped as RFC 6901 spells them.
        let slashed = try #require(try root.child("a/b"))
        #expect(throws: JSONReadError(pointer: "/a~1b/c", message: "expected a string, found number")) {
            _ = try slashed.string("c")
        }
        #expect(throws: JSONReadError(pointer: "/flag", message: "expected true or false, found string")) {
            _ = try root.flag("flag")
        }
        #expect(throws: JSONReadError(pointer: "/flag", message: "expected an array, found string")) {
            _ = try root.strings("flag")
        }
        #expect(throws: JSONReadError(pointer: "/types", message: "expected an object, found array")) {
            _ = try root.object("types", required: true)
        }
    }

    @Test func theRootMustBeAnObject() {
        #expect(throws: JSONReadError(pointer: "", message: "expected an object, found array")) {
            try JSONReader(root: .array([]))
        }
        #expect(JSONReadError(pointer: "", message: "m").description == "/: m")
        #expect(JSONReadError(pointer: "/a/0", message: "m").description == "/a/0: m")
    }

    @Test func pointerStepsIntoObjectsAndArrays() throws {
        let document = try JSONParser().parse(Array(#"{"a":[10,{"b~":true}]}"#.utf8)).root
        #expect(JSONPointer.member("a", of: document) != nil)
        #expect(JSONPointer.member("z", of: document) == nil)
        #expect(JSONPointer.value(at: "/a/0", in: document)?.intValue == 10)
        #expect(JSONPointer.value(at: "/a/1/b~0", in: document) == .bool(true))
        #expect(JSONPointer.value(at: "/a/2", in: document) == nil)
        #expect(JSONPointer.value(at: "/a/x", in: document) == nil)
        #expect(JSONPointer.value(at: "/a/0/c", in: document) == nil)
    }
}
