import MiniServiceClient
import MockStackTesting
import XCTest

/// The client library's integration tests, against mockstack's `test` app (test.servicestack.net)
/// instead of the live host: every test takes a session of the test process's one server.
final class TestAppTests: XCTestCase {
    private var session: MockStackSession!
    private var client: JsonServiceClient!

    override func setUpWithError() throws {
        // The first test spawns `mockstack serve --port 0 --apps test` (the one this package's
        // build made, or MOCKSTACK_BIN, or on PATH) and every test shares it; with MOCKSTACK_URL
        // set, as in CI with mockstack as a service container, they share that server instead.
        // Each test gets a session of its own (fresh app state, journal and stubs), ended at
        // teardown: nothing to reset, and tests may run in parallel.
        session = try startMockStackSession(apps: ["test"])
        client = JsonServiceClient(baseUrl: try session.url(for: "test"))
    }

    func testHelloAnswersWithTheGreeting() async throws {
        let response = try await client.post(Hello(name: "World"))

        XCTAssertEqual(response.result, "Hello, World!")
        let sent = try await session.requests(app: "test", operation: "Hello")
        XCTAssertEqual(sent.count, 1)
        XCTAssertEqual(sent.first?.method, "POST")
        XCTAssertEqual(sent.first?.path, "/test/api/Hello")
        XCTAssertEqual(sent.first?.headers["Accept"], "application/json")
        XCTAssertEqual(sent.first?.bodyText, #"{"name":"World"}"#)
        XCTAssertEqual(sent.first?.status, 200)
    }

    func testThrowTypeNotFoundBecomesA404WebServiceException() async throws {
        do {
            _ = try await client.post(ThrowType(type: "NotFound", message: "not here"))
            XCTFail("ThrowType NotFound should fail")
        } catch let error as WebServiceException {
            XCTAssertEqual(error.statusCode, 404)
            XCTAssertEqual(error.errorCode, "NotFound")
            XCTAssertEqual(error.message, "not here")
            XCTAssertEqual(error.fieldErrors, [])
            XCTAssertNotNil(error.responseStatus.stackTrace)
        }
        let sent = try await session.requests(operation: "ThrowType")
        XCTAssertEqual(sent.map(\.status), [404])
    }

    func testThrowValidationListsEveryFieldError() async throws {
        do {
            _ = try await client.post(ThrowValidation(email: "invalidemail"))
            XCTFail("ThrowValidation with a bad email should fail")
        } catch let error as WebServiceException {
            XCTAssertEqual(error.statusCode, 400)
            XCTAssertEqual(error.errorCode, "InclusiveBetween")
            XCTAssertEqual(error.message, "'Age' must be between 1 and 120. You entered 0.")
            XCTAssertEqual(error.fieldErrors.map(\.fieldName), ["Age", "Required", "Email"])
            XCTAssertEqual(error.fieldErrors.map(\.errorCode), ["InclusiveBetween", "NotEmpty", "Email"])
            XCTAssertEqual(error.fieldErrors.last?.message, "'Email' is not a valid email address.")
        }
    }

    func testAValidThrowValidationEchoesTheRequest() async throws {
        let response = try await client.post(ThrowValidation(age: 21, required: "foo", email: "my@gmail.com"))

        XCTAssertEqual(response.age, 21)
        XCTAssertEqual(response.required, "foo")
        XCTAssertEqual(response.email, "my@gmail.com")
        XCTAssertNil(response.responseStatus)
    }

    func testEachTestStartsWithAnEmptyJournal() async throws {
        let before = try await session.requests()
        XCTAssertEqual(before, [], "each test starts in a fresh session: nothing journaled yet")
        _ = try await client.post(Hello(name: "again"))
        try await session.expectRequests(app: "test", operation: "Hello", count: 1)
    }
}
