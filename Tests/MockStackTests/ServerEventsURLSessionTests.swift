import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockStack
import MockStackInProcess
import MockStackTesting
import Testing
import TestSupport

/// Server Events read with Foundation's URLSession, as a Swift app would: the frames arrive as
/// they are sent, through the data task's delegate.
@Suite(.timeLimit(.minutes(3)))
struct ServerEventsURLSessionTests {
    @Test func theFirstFramesAndAChatArriveAsTheyAreSent() async throws {
        let server = try ServerEventsServer.patient()
        defer { server.stop() }
        let mock = server.mock
        let app = mock.baseURL.appending(path: "test")
        let stream = URLSessionEventStream(url: app.appending(path: "event-stream").appending(queryItems: [
            URLQueryItem(name: "channels", value: "home"),
        ]))
        defer { stream.cancel() }
        let first = try await offThePool { stream.frames(2) }
        #expect(first.status == 200 && first.contentType == "text/event-stream")
        #expect(first.frames.count == 2)
        #expect(first.frames.first?.hasPrefix(#"cmd.onConnect {"channels":"home","userId":"-1","#) == true)
        #expect(first.frames.last?.hasPrefix(#"home@cmd.onJoin {"channels":"home","userId":"-1","#) == true)
        let id = try #require(EventStreamConnection.field("id", in: first.frames[0]))

        var chat = URLRequest(url: app.appending(path: "api/PostChatToChannel"))
        chat.httpMethod = "POST"
        chat.setValue("application/json", forHTTPHeaderField: "Content-Type")
        chat.httpBody = Data(#"{"from":"\#(id)","channel":"home","selector":"cmd.chat","message":"hello"}"#.utf8)
        let (_, answer) = try await URLSession.shared.data(for: chat)
        #expect((answer as? HTTPURLResponse)?.statusCode == 200)
        let after = try await offThePool { stream.frames(3) }
        #expect(after.frames.last == #"home@cmd.chat {"id":1,"channel":"home","fromUserId":"-1","fromName":"user1","#
            + #""message":"hello","private":false}"#)
    }
}
